// The action parameters of the trace wire format (flowproof-trace v1): one TypeBox schema per
// action type, and an assertion's or wait's `expect`. schema.ts lists them as ACTION_VARIANTS.
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { MAX_TIMEOUT_MS } from "../diagnostics/bounds.ts";

// The schema builders, shared with schema.ts.
export const Opt = <T extends TSchema>(t: T) => Type.Optional(t);
export const Int = (o: object = {}) => Type.Integer({ minimum: 0, ...o });
/** A bound in milliseconds: at most MAX_TIMEOUT_MS (one day), what a timer can hold. */
export const BoundMs = (o: object = {}) => Int({ maximum: MAX_TIMEOUT_MS, ...o });

// ---- Action parameters: one variant per action type ----------------------------------------
// Each `params` object lists the keys this version writes; unknown keys are allowed (additive
// within v1). To add an action type, declare its params and add one `actionVariant(...)` row to
// ACTION_VARIANTS (schema.ts): the union, the type list, the JSON Schema and the doc table follow from it.

/** An action's `params` object: the keys this version writes, unknown keys allowed. */
export const Params = <P extends Record<string, TSchema>>(properties: P, description: string) =>
  Type.Object(properties, { additionalProperties: true, description });

/** A trigger action's declared native dialog (`, accepting the "…" dialog`). */
export const DialogParam = Type.Object(
  {
    disposition: Type.Union([Type.Literal("accept"), Type.Literal("dismiss")]),
    message: Opt(Type.String({ description: "The dialog must contain this text." })),
    match: Opt(Type.Literal("contains")),
    reply: Opt(Type.String({ description: "A prompt's answer as written (`${VAR}` kept raw)." })),
  },
  {
    additionalProperties: true,
    description: "Armed before the action; the step fails when the dialog does not open or its message does not contain `message`.",
  },
);

export const LaunchParams = Type.Union([
  Params(
    { url: Type.String({ description: "The destination as written; a path resolves against the flow's start URL at execution." }) },
    "`Go to <url or path>`",
  ),
  Params({ reload: Type.Literal(true) }, "`Reload the page`"),
  Params(
    { history: Type.Union([Type.Literal("back"), Type.Literal("forward")]) },
    "`Go back` / `Go forward`: one history entry, waiting for the page it lands on",
  ),
]);
export const SetCookieParams = Params(
  { name: Type.String({ minLength: 1 }), value: Type.String({ description: "As written: a plain value, never a `${…}` reference." }) },
  '`Set cookie "<name>" to <value>`: a cookie for the page\'s URL',
);
export const ClearStorageParams = Params(
  { storage: Type.Union([Type.Literal("local"), Type.Literal("session"), Type.Literal("cookies")]) },
  "`Clear local storage`, `Clear session storage` (the page's origin), `Clear cookies` (every cookie of the flow's browser context)",
);
const Side = Type.Integer({ minimum: 1, maximum: 10_000 });
export const SetViewportParams = Params(
  { width: Side, height: Side },
  "`Resize the viewport to <width>x<height>`: the page's size in CSS pixels from this step on (scale, mobile and touch as the flow's `browser.viewport` set them)",
);
export const PointerParams = Params(
  {
    x_pct: Opt(Type.Number({ minimum: 0, maximum: 100, description: "Click-at: the point inside the element's box, % of its width." })),
    y_pct: Opt(Type.Number({ minimum: 0, maximum: 100, description: "Click-at: % of its height." })),
    dialog: Opt(DialogParam),
  },
  '`Click "…"`, `Press the "…" button`, `Click "…" at X%, Y%`, `Double-click`, `Right-click`, each with an optional dialog suffix',
);
export const HoverParams = Params({ dialog: Opt(DialogParam) }, '`Hover over "…"`; verified afterwards: the pointer rests on the target (`:hover`)');
export const TypeTextParams = Params(
  {
    text: Type.String({ description: 'The text as written (`${VAR}` kept raw); `""` to clear; the option for a select.' }),
    replace: Opt(Type.Boolean({ description: "Clear / Replace: the field's value is replaced." })),
    select: Opt(Type.Boolean({ description: "Select <option> from a dropdown." })),
    values: Opt(Type.Array(Type.String(), { description: "Every option of a multi-select (`text` is the first)." })),
    chosen: Opt(
      Type.Array(Type.String(), {
        description: "Select: the labels of the options the recording chose (never for a `${…}` option); replay chooses exactly these, not deciding again.",
      }),
    ),
  },
  '`Type <text> [into "…"]` (fill, or append to the focused element), `Clear`, `Replace … with`, `Select … from the "…" dropdown`',
);
export const KeyModifierName = Type.Union([Type.Literal("ctrl"), Type.Literal("alt"), Type.Literal("shift"), Type.Literal("meta"), Type.Literal("mod")]);
export const PressKeyParams = Params(
  {
    key: Type.String({ description: "Canonical key name: `Enter`, `ArrowUp`, `Tab`, `a`, `F4`." }),
    modifiers: Opt(Type.Array(KeyModifierName, { description: "`[]` when none." })),
  },
  "`Press Enter`, `Press Control+A`",
);
export const SetCheckedParams = Params(
  { checked: Type.Boolean() },
  '`Check "…"`, `Uncheck "…"`: a real click, skipped when already in that state, verified afterwards',
);
export const CaptureParams = Params(
  {
    name: Type.String({ description: "The capture name: `${captured.<name>}`." }),
    count: Opt(Type.Literal(true, { description: "Remember how many elements match (at least 1) instead of the text." })),
  },
  '`Remember the "…" as <name>`, `Remember how many "…" appear as <name>`',
);
export const CaptureDownloadParams = Params(
  { name: Type.String(), timeout_ms: Opt(BoundMs({ description: "Default 60 000." })) },
  "`Wait until the download completes as <name> [within Ns]`: exactly one download must complete; its path becomes `${captured.<name>}`",
);
export const UploadParams = Params(
  { path: Type.String({ minLength: 1, description: "As written, quotes stripped; relative to the working directory at execution." }) },
  '`Upload <path> into the "…" field`',
);
export const ScrollParams = Type.Union([
  Params(
    { to: Type.Union([Type.Literal("top"), Type.Literal("bottom"), Type.Literal("left"), Type.Literal("right")]) },
    '`Scroll [the "…"] to the top|bottom|left|right`',
  ),
  Params({ into_view: Type.Literal(true) }, '`Scroll "…" into view`'),
  Params(
    { to_px: Int({ description: "Verified ±1 px." }), axis: Opt(Type.Literal("x", { description: "Horizontally (`across`); absent: vertically." })) },
    '`Scroll the "…" to <n>px [across]`',
  ),
  Params(
    {
      to_pct: Type.Number({ minimum: 0, maximum: 100, description: "Of how far the box scrolls; verified ±1 px." }),
      axis: Opt(Type.Literal("x", { description: "Horizontally (`across`); absent: vertically." })),
    },
    '`Scroll the "…" to <n>% [across]`',
  ),
]);
export const FocusWindowParams = Params({}, "reserved for desktop apps; never written by this version (replay fails the step as errored)");

// `expect` of an element_state assertion or wait: exactly one of these keys (with its companion).
const expectVariant = <P extends Record<string, TSchema>>(properties: P, description: string) =>
  Type.Object(
    {
      ...properties,
      scope: Opt(Type.Literal("surface", { description: "A page-level expectation (no selectors)." })),
      timeout_ms: BoundMs({ description: "How long the assertion polls before it fails (at most 86 400 000, one day)." }),
    },
    { additionalProperties: true, description },
  );
const Negate = Opt(Type.Literal(true));
const StorageArea = Type.Union([Type.Literal("local"), Type.Literal("session")]);
const StorageKey = Type.String({ description: "As written (`${VAR}` kept raw)." });

export const Expect = Type.Union([
  expectVariant(
    { value_contains: Type.String(), count: Opt(Int()) },
    "the page text, or the element's text or value, contains it (with `count`: exactly that many times in the page)",
  ),
  expectVariant({ value_not_contains: Type.String() }, "the page text, or the element's text or value, does not contain it"),
  expectVariant({ url_equals: Type.String() }, "the page URL equals it"),
  expectVariant({ url_contains: Type.String() }, "the page URL contains it"),
  expectVariant({ title_equals: Type.String() }, "the document title equals it"),
  expectVariant({ title_contains: Type.String() }, "the document title contains it"),
  expectVariant(
    { value_equals: Type.String(), normalize: Type.Literal("numeric") },
    "the element's text, read as a number, equals it (the calculator's `display shows`)",
  ),
  expectVariant({ capture: Type.String(), offset: Type.Number() }, "the element's text, read as a number, equals the capture read as a number plus `offset`"),
  expectVariant({ element_present: Type.Boolean() }, "the element is visible (`true`) / absent or hidden (`false`)"),
  expectVariant({ enabled: Type.Boolean() }, "the element is enabled / disabled"),
  expectVariant({ checked: Type.Boolean() }, "the checkbox, radio or switch is (not) checked"),
  expectVariant({ selected: Type.Boolean() }, "the tab, list or tree item, or option is (not) the selected one"),
  expectVariant({ value_empty: Type.Boolean() }, "the field's value is (not) empty"),
  expectVariant({ element_count: Int() }, "exactly that many elements match (0 allowed)"),
  expectVariant(
    { attribute: Type.String(), value_equals: Type.String(), negate: Negate },
    "the attribute equals `value_equals`; with `negate`, it differs or is absent",
  ),
  expectVariant({ attribute: Type.String(), present: Type.Boolean() }, "the attribute is present / absent"),
  expectVariant({ style: Type.String(), value_equals: Type.String(), negate: Negate }, "the computed style equals the value (colours compare canonically)"),
  expectVariant(
    {
      cookie: Type.String(),
      cookie_fact: Type.Union([Type.Literal("exists"), Type.Literal("http_only"), Type.Literal("secure"), Type.Literal("persistent")]),
      negate: Negate,
    },
    "the page's cookie is set / http_only / secure / persistent; with `negate`, it is not set / is set without that flag (no value is ever written)",
  ),
  expectVariant({ cookie: Type.String(), cookie_domain: Type.String() }, "the page's cookie has this domain (a leading dot and case ignored)"),
  expectVariant({ cookie: Type.String(), cookie_path: Type.String() }, "the page's cookie has this path"),
  expectVariant({ cookie_count: Int() }, "exactly that many cookies are set for the page's URL (0: none)"),
  expectVariant(
    { storage: StorageArea, storage_key: StorageKey, storage_contains: Type.String() },
    "the value the page's local / session storage holds under `storage_key` contains `storage_contains` (as written; the stored value is never written)",
  ),
  expectVariant(
    { storage: StorageArea, storage_key: StorageKey, storage_absent: Type.Literal(true) },
    "the page's local / session storage holds nothing under `storage_key`",
  ),
  expectVariant(
    { storage: StorageArea, storage_key: StorageKey, storage_equals: Type.String() },
    "the value the page's local / session storage holds under `storage_key` is exactly `storage_equals` (as written; the stored value is never written)",
  ),
  expectVariant(
    { storage: StorageArea, storage_keys: Type.Array(StorageKey) },
    "the page's local / session storage holds exactly these keys, in any order (none: empty)",
  ),
  expectVariant(
    { number_compare: Type.Union([Type.Literal("gt"), Type.Literal("lt"), Type.Literal("ge"), Type.Literal("le")]), number: Type.Number() },
    "the element's text, read as a number, is greater than (`gt`), less than (`lt`), at least (`ge`) or at most (`le`) `number`",
  ),
  expectVariant(
    { value_exactly: Type.String() },
    "the element's whole text or value, trimmed and with runs of white space as one space, equals it (case-sensitive)",
  ),
  expectVariant({ focused: Type.Boolean() }, "the element has (`true`) / does not have (`false`) keyboard focus"),
]);

const elementState = (description: string) =>
  Params(
    {
      kind: Type.Literal("element_state"),
      expect: Expect,
      selector_ref: Type.Union([Int(), Type.Null()], { description: "`0` for an element expectation, `null` for a page-level one." }),
    },
    description,
  );
export const ElementStateParams = elementState("every `assert:` step (`expect`: see below)");
export const WaitParams = elementState('`Wait until page shows <text> [within Ns]` (`expect.scope: "surface"`, default bound 60 000 ms)');
export const StructuredParams = Params(
  {
    kind: Type.Literal("structured"),
    key: Type.String({ pattern: "^assert_", description: "The step key (`assert_api`, `assert_sql`, a plugin's `assert_…`)." }),
    args: Type.Unknown({ description: "The arguments exactly as written (references unresolved; never a response, a row or a cell)." }),
    timeout_ms: Opt(BoundMs({ description: "From `timeout_seconds` (default 10 000; 0 = one attempt)." })),
  },
  "a structured step (`assert_api:`, `assert_sql:`, `assert_spreadsheet:`, `assert_screenshot:`, a plugin's `assert_…:`)",
);
export const NoSecretLeakParams = Params(
  { kind: Type.Literal("no_secret_leak"), vars: Type.Array(Type.String(), { description: "The variable names (never their values)." }) },
  "`assert_no_secret_leak:`",
);
export const AssertParams = Type.Union([ElementStateParams, StructuredParams, NoSecretLeakParams]);

export type DialogParam = Static<typeof DialogParam>;
export type Expect = Static<typeof Expect>;
export type AssertParams = Static<typeof AssertParams>;
