// The trace wire format (flowproof-trace v1), declared once: TypeBox yields both the static
// types and the JSON Schema written to schema/trace-v1.schema.json. No I/O here.
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { MAX_TIMEOUT_MS } from "../diagnostics/bounds.ts";
import { Selector } from "./selector.ts";
import { AgentRunParams } from "./agent-params.ts";

const Opt = <T extends TSchema>(t: T) => Type.Optional(t);
const Int = (o: object = {}) => Type.Integer({ minimum: 0, ...o });
/** A bound in milliseconds: at most MAX_TIMEOUT_MS (one day), what a timer can hold. */
const BoundMs = (o: object = {}) => Int({ maximum: MAX_TIMEOUT_MS, ...o });

export const TRACE_FORMAT = "flowproof-trace";
export const TRACE_VERSION = 1;

export { Selector, SelectorTier } from "./selector.ts";

// ---- Action parameters: one variant per action type ----------------------------------------
// Each `params` object lists the keys this version writes; unknown keys are allowed (additive
// within v1). To add an action type, declare its params and add one `actionVariant(...)` row to
// ACTION_VARIANTS: the union, the type list, the JSON Schema and the doc table follow from it.

const Params = <P extends Record<string, TSchema>>(properties: P, description: string) => Type.Object(properties, { additionalProperties: true, description });

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
export { AGENT_PROTOCOLS, AgentRunParams, CassetteTurn, McpLaneSchema } from "./agent-params.ts";

const actionVariant = <T extends string, P extends TSchema>(type: T, params: P, selectors: string) =>
  Type.Object({ type: Type.Literal(type), params }, { additionalProperties: false, description: `Selectors: ${selectors}.` });

/** Every action type with its params; one row per type. */
export const ACTION_VARIANTS = [
  actionVariant("launch", LaunchParams, "none"),
  actionVariant("focus_window", FocusWindowParams, "none"),
  actionVariant("click", PointerParams, "the target"),
  actionVariant("double_click", PointerParams, "the target"),
  actionVariant("right_click", PointerParams, "the target"),
  actionVariant("hover", HoverParams, "the target"),
  actionVariant(
    "drag",
    Params(
      {
        onto: Type.Array(Selector, { minItems: 1, description: "The drop target's full selector ladder (same shape as `selectors`)." }),
        x_pct: Opt(Type.Number({ minimum: 0, maximum: 100, description: "Drop point (`at X%,Y%`): % of the drop target's width; absent, its centre." })),
        y_pct: Opt(Type.Number({ minimum: 0, maximum: 100, description: "Drop point: % of the drop target's height." })),
      },
      '`Drag "…" onto "…" [at X%,Y%]`',
    ),
    "the source",
  ),
  actionVariant("scroll", ScrollParams, "the target, or none for the page"),
  actionVariant("type_text", TypeTextParams, "the target, or none for focused typing"),
  actionVariant("press_key", PressKeyParams, "none"),
  actionVariant("upload", UploadParams, "the file input (or its label)"),
  actionVariant("capture", CaptureParams, "the target"),
  actionVariant("capture_download", CaptureDownloadParams, "none"),
  actionVariant("set_checked", SetCheckedParams, "the target"),
  actionVariant("clear_storage", ClearStorageParams, "none"),
  actionVariant("set_cookie", SetCookieParams, "none"),
  actionVariant("set_viewport", SetViewportParams, "none"),
  actionVariant("wait", WaitParams, "none"),
  actionVariant("agent_run", AgentRunParams, "none"),
  actionVariant("assert", AssertParams, "the target, or none for a page-level, structured or secret-leak assertion"),
] as const;

export const Action = Type.Union([...ACTION_VARIANTS], { description: "`params` depends on `type`; see docs/trace-format.md." });

export const SyncCondition = Type.Object(
  {
    kind: Type.String({ description: "element_exists, element_state, window_title, ocr_text_present, visual_stable" }),
    selector_ref: Opt(Type.Union([Int(), Type.Null()])),
    timeout_ms: BoundMs(),
  },
  { additionalProperties: true },
);

export const RecordingRange = Type.Object(
  {
    start_ms: Int({ description: "Offset from the recording's start, ms." }),
    end_ms: Int(),
    frames_dropped: Opt(Type.Literal("redaction", { description: "A frame of this step was dropped because its redaction could not be guaranteed." })),
  },
  { additionalProperties: false },
);

export const EffectKindName = Type.Union(
  [
    Type.Literal("navigation"),
    Type.Literal("request"),
    Type.Literal("dialog"),
    Type.Literal("download"),
    Type.Literal("target"),
    Type.Literal("focus"),
    Type.Literal("dom"),
  ],
  { description: "An effect kind an adapter observes." },
);

/** What an action step did at record (see docs/trace-format.md, "Effects"); replay checks it again. */
export const StepEffect = Type.Object(
  {
    observes: Type.Array(EffectKindName, {
      description: "The kinds the surface observed at record; replay judges only these (and only those it observes itself).",
    }),
    off: Opt(Type.Literal(true, { description: "The step's `effects: off`: nothing observed, nothing checked." })),
    navigated: Opt(Type.String({ description: "Normalised path the action navigated to (new document, URL or history change); no query, no fragment." })),
    requests: Opt(
      Type.Array(Type.String(), {
        description:
          "`METHOD /normalised/path` of the state-changing requests it sent (POST, PUT, PATCH, DELETE); its GETs only when it sent nothing else and did not navigate. Ids and tokens in a path are `:id`; never a query or a body.",
      }),
    ),
    dialog: Opt(Type.String({ description: "The native dialog it opened: alert, confirm, prompt, beforeunload." })),
    download: Opt(Type.Literal(true, { description: "It started a download." })),
    target: Opt(
      Type.Array(Type.String(), { description: "Which of the target's own states changed: value, checked, selected, expanded, open (never the value)." }),
    ),
    focus: Opt(Type.Literal(true, { description: "Focus moved to another element." })),
    dom: Opt(Type.Union([Type.Literal("near"), Type.Literal("page")], { description: "The DOM changed near the target, or only elsewhere in the page." })),
  },
  { additionalProperties: true },
);

export const TraceStep = Type.Object(
  {
    id: Type.String({ pattern: "^s[0-9]{4,}$" }),
    intent: Type.String({ description: "The step as authored (references raw, never values)." }),
    surface: Opt(Type.String()),
    action: Action,
    selectors: Type.Array(Selector, { description: "Ladder in order; empty for page-level actions (launch, press_key, focused typing, surface asserts)." }),
    sync: Type.Object({ pre: Type.Array(SyncCondition), post: Type.Array(SyncCondition) }, { additionalProperties: false }),
    artifacts: Type.Object(
      {
        pre_screenshot: Opt(Type.String({ pattern: "^sha256:[0-9a-f]{64}$" })),
        post_screenshot: Opt(Type.String({ pattern: "^sha256:[0-9a-f]{64}$" })),
        recording: Opt(RecordingRange),
      },
      { additionalProperties: false },
    ),
    effect: Opt(StepEffect),
  },
  { additionalProperties: false },
);

/** A `mock:` rule as written in the flow (see docs/flow-format.md); applied identically at record and every replay. */
export const MockRule = Type.Object(
  {
    url_contains: Type.String({ minLength: 1, description: "Substring of the request URL." }),
    method: Opt(Type.String({ description: "Upper-case HTTP method; any when absent." })),
    status: Opt(Type.Integer({ minimum: 100, maximum: 599, description: "Default 200." })),
    content_type: Opt(Type.String()),
    body: Opt(Type.Unknown({ description: "A string is served verbatim (text/plain), anything else as JSON." })),
  },
  { additionalProperties: false },
);

/** The `session:` seed with values as written (`${VAR}` raw, resolved at apply time on every run). */
export const SessionSeed = Type.Object(
  {
    cookies: Opt(
      Type.Array(Type.Object({ name: Type.String({ minLength: 1 }), value: Type.String(), domain: Opt(Type.String()) }, { additionalProperties: false })),
    ),
    local_storage: Opt(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false },
);

/** The `browser:` shape as written; replay applies it from here, never from the spec. */
export const BrowserShape = Type.Object(
  {
    viewport: Opt(
      Type.Object(
        {
          width: Type.Integer({ minimum: 1 }),
          height: Type.Integer({ minimum: 1 }),
          device_scale_factor: Opt(Type.Number({ exclusiveMinimum: 0 })),
          mobile: Opt(Type.Boolean()),
          touch: Opt(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
    user_agent: Opt(Type.String()),
    args: Opt(Type.Array(Type.String())),
    clock: Opt(Type.Object({ at: Type.String({ format: "date-time" }), timezone: Opt(Type.String()) }, { additionalProperties: false })),
    random: Opt(Type.Object({ seed: Type.Integer({ minimum: 0, maximum: 4294967295 }) }, { additionalProperties: false })),
    downloads_dir: Opt(Type.String({ description: "Relative to the flow file." })),
    endpoint: Opt(Type.String({ description: "DevTools URL of a running browser (raw ${VAR} references)." })),
    grid: Opt(Type.String({ description: "Selenium Grid URL as written (raw ${VAR} references)." })),
    capabilities: Opt(Type.Record(Type.String(), Type.Unknown(), { description: "Extra W3C capabilities for a grid session, as written." })),
  },
  { additionalProperties: false },
);

/** Where a flow's browser ran when not on this machine: a Selenium Grid session (docs/grid.md). */
export const RanOn = Type.Object(
  {
    grid: Type.String({ description: "The grid's URL, credentials replaced by ***." }),
    node: Opt(Type.String({ description: "The grid node that held the session, as the grid's /status names it (absent when the grid does not say)." })),
    session: Type.String({ description: "The W3C session id." }),
  },
  {
    additionalProperties: false,
    description: "Where a web flow's browser ran when not on this machine (a Selenium Grid session); a fact, never used by replay.",
  },
);

export const AppInfo = Type.Object(
  {
    name: Type.String(),
    adapter: Type.String({ description: "web, api, uia, sap-com, vision, multi" }),
    url: Opt(Type.String({ description: "Start URL as written (raw ${VAR} references)." })),
    window_title: Opt(Type.String({ description: "A Windows app's window title as written (raw ${VAR} references)." })),
    command: Opt(Type.String({ description: "A Windows app's command line as written (raw ${VAR} references)." })),
    geometry: Opt(
      Type.Object(
        { width: Type.Integer(), height: Type.Integer(), x: Opt(Type.Integer()), y: Opt(Type.Integer()) },
        { additionalProperties: false, description: "A Windows app's window rectangle as applied before the first step (`window:`); replay applies it again." },
      ),
    ),
    backend: Opt(Type.String({ description: "A Windows app's element backend that resolved the steps (uia, win32); replay uses the same one." })),
    connection: Opt(
      Type.String({
        description:
          "A SAP flow's or sap surface's `connection:` (the SAP Logon entry) as written (raw ${VAR} references); absent when it attaches to a session already logged on.",
      }),
    ),
    login_user: Opt(
      Type.String({
        description:
          "A SAP flow's or sap surface's `login.user` as written (raw ${VAR} references); the password is never stored, every record and replay resolves it from the flow.",
      }),
    ),
    version: Opt(Type.String()),
    ran_on: Opt(RanOn),
    /** A multi-surface flow's web surface: its own `browser:` shape as written, applied from here at replay. */
    browser: Opt(BrowserShape),
  },
  { additionalProperties: true },
);

export const TraceHeader = Type.Object(
  {
    format: Type.Literal(TRACE_FORMAT),
    version: Type.Literal(TRACE_VERSION),
    trace_id: Type.String({ format: "uuid" }),
    recorded_at: Type.String({ format: "date-time" }),
    app: AppInfo,
    env: Type.Object(
      {
        os: Type.String(),
        resolution: Type.Tuple([Int(), Int()]),
        dpi_scale: Opt(Type.Number()),
        locale: Opt(Type.String()),
      },
      { additionalProperties: false },
    ),
    flowproof_version: Opt(Type.String()),
    spec: Opt(
      Type.Object(
        { name: Type.String(), path: Opt(Type.String()), hash: Opt(Type.String({ pattern: "^sha256:[0-9a-f]{64}$" })) },
        { additionalProperties: false },
      ),
    ),
    apps: Opt(Type.Record(Type.String(), AppInfo)),
    agent: Opt(Type.Object({ backend: Type.String(), model: Opt(Type.String()) }, { additionalProperties: false })),
    recording: Opt(
      Type.Object(
        { format: Type.Literal("filmstrip/1"), dir: Type.String(), started_at: Opt(Type.String({ format: "date-time" })) },
        { additionalProperties: false },
      ),
    ),
    redaction: Opt(
      Type.Array(Type.Unknown(), {
        description:
          'The flow\'s redact: rules, copied at record so every replay masks identically: {target: {css} | {text} | {rect: [x, y, w, h]}, mode: "mask"}. A rule this version cannot parse disables frame capture (fail closed).',
      }),
    ),
    session: Opt(SessionSeed),
    mock: Opt(Type.Array(MockRule)),
    browser: Opt(BrowserShape),
    control: Opt(Type.Object({ id: Type.String(), title: Opt(Type.String()), description: Opt(Type.String()) }, { additionalProperties: false })),
    expect: Opt(
      Type.Object(
        {
          fail: Type.String({ description: "The flow's `expect: {fail: …}`, as written: why the flow is expected to fail." }),
          step: Type.String({ pattern: "^s[0-9]{4,}$", description: "The step that failed at record: the trace ends with it." }),
          failure: Opt(Type.String({ description: "How it failed at record (the step's failure message)." })),
          check: Opt(
            Type.String({
              description: "The kind of check that failed: the step's action type, and for an assertion or wait its expectation (`assert value_contains`).",
            }),
          ),
          target: Opt(
            Type.String({
              description:
                "The ladder rung that resolved the step's target when it failed (`text_anchor`, …); absent when no element was resolved (a page-level check, or a target that never appeared).",
            }),
          ),
          actual: Opt(
            Type.String({
              description:
                "What the app showed when the check failed (the assertion's reading, redacted as in result.json); absent when the check holds a `${VAR}` value.",
            }),
          ),
        },
        {
          additionalProperties: false,
          description:
            "A known failure (docs/flow-format.md, Known failures): replay is an expected failure while this step fails the same way (same check, same target, the same reading), and fails otherwise.",
        },
      ),
    ),
    integrity: Opt(
      Type.Object(
        {
          scope: Opt(
            Type.Literal("trace", {
              description:
                "`trace`: `sha256` (and `hmac`) cover the whole trace, header and steps. Absent in traces of older flowproof versions, whose `sha256` covers the steps only.",
            }),
          ),
          steps: Type.Integer({ minimum: 0, description: "How many step lines follow the header." }),
          sha256: Type.String({
            pattern: "^[0-9a-f]{64}$",
            description:
              "SHA-256 (hex) of the trace as flowproof writes it without `integrity`: the header line (keys in the format's order), then each step line, joined by newlines.",
          }),
          hmac: Opt(
            Type.String({
              pattern: "^[0-9a-f]{64}$",
              description: "HMAC-SHA256 (hex) of the same text with FLOWPROOF_TRACE_KEY, when the key was set at record.",
            }),
          ),
        },
        {
          additionalProperties: false,
          description:
            "Written by every record: a trace that does not match it (cut short, or edited) is refused as `bad-trace`; a trace without it (or with an older steps-only seal) replays only with --allow-unsealed.",
        },
      ),
    ),
    effects: Opt(
      Type.Union([Type.Literal("strict"), Type.Literal("off")], {
        description:
          "The flow's `effects:` as written when not the default: `strict` fails a step on a missing DOM, focus or GET effect too; `off` records and checks none.",
      }),
    ),
  },
  { additionalProperties: false },
);

export type { SelectorOf, SelectorPayload } from "./selector.ts";
export type { AgentStep, AgentSpec, AgentToolSpec, AgentMcpSpec } from "./agent-params.ts";
export type Action = Static<typeof Action>;
/** The action of one type, e.g. `ActionOf<"click">`. */
export type ActionOf<T extends Action["type"]> = Extract<Action, { type: T }>;
export type DialogParam = Static<typeof DialogParam>;
export type Expect = Static<typeof Expect>;
export type AssertParams = Static<typeof AssertParams>;
export type ActionType = Action["type"];
export type SyncCondition = Static<typeof SyncCondition>;
export type TraceStep = Static<typeof TraceStep>;
export type TraceHeader = Static<typeof TraceHeader>;
export type AppInfo = Static<typeof AppInfo>;
export type MockRule = Static<typeof MockRule>;
export type SessionSeed = Static<typeof SessionSeed>;
export type BrowserShape = Static<typeof BrowserShape>;
export type StepEffect = Static<typeof StepEffect>;

/** The whole-file schema: `$defs` for the header line and a step line. */
export function traceSchemaDocument(): Record<string, unknown> {
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "https://flowproof.dev/schema/trace-v1.schema.json",
    title: "flowproof trace v1 (JSON lines: line 1 is a header, every further non-empty line a step)",
    definitions: { header: TraceHeader, step: TraceStep },
    anyOf: [{ $ref: "#/definitions/header" }, { $ref: "#/definitions/step" }],
  };
}
