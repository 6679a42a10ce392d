// A selector rung of the trace format (flowproof-trace v1): its tiers and each tier's payload
// shapes, declared once (TypeBox: the JSON Schema and the static types), with the narrowing
// helpers consumers use instead of casts. Pure: no I/O.
import { Type, type Static, type TNever, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { TraceError, diagnostic } from "../diagnostics/diagnostic.ts";

const Opt = <T extends TSchema>(t: T) => Type.Optional(t);

export const SelectorTier = Type.Union(
  [Type.Literal("native_id"), Type.Literal("structural"), Type.Literal("text_anchor"), Type.Literal("visual_template"), Type.Literal("ai_relocation")],
  { description: "Rungs of the selector ladder, in ladder order." },
);

/**
 * One payload shape: its own keys plus the two every rung may carry (`nth`, `role`). Unknown keys
 * are allowed (additive within v1), so a newer writer's extra key never breaks this reader.
 */
const shape = <P extends Record<string, TSchema>>(properties: P, description: string) =>
  Type.Object(
    {
      ...properties,
      nth: Opt(Type.Integer({ minimum: 1, description: '1-based ordinal among the matches (`the 2nd "Save"`).' })),
      role: Opt(Type.String({ description: "The role noun written after the label (`field`, `button`, …): only elements of that role match." })),
    },
    { additionalProperties: true, description },
  );

/** A box in window pixels. */
const Rect = (description: string) =>
  Type.Object({ x: Type.Number(), y: Type.Number(), width: Type.Number(), height: Type.Number() }, { additionalProperties: true, description });

// ---- native_id ------------------------------------------------------------------------------
export const CssPayload = shape({ css: Type.String({ description: 'A CSS selector (`"css:…"`); web only.' }) }, 'web `"css:…"`');
export const IdPayload = shape(
  {
    id: Type.String({ description: "The DOM id, else the `name` attribute (web); a control id (SAP GUI, a Windows app's rules rung)." }),
    name: Opt(Type.String({ description: "The control's label when the recorder read it (desktop)." })),
  },
  '`"id:…"`, `the email field`; a desktop recorder\'s native rung',
);
export const AutomationIdPayload = shape(
  {
    automation_id: Type.String({ description: "A Windows control's AutomationId (a classic control's control id)." }),
    name: Opt(Type.String({ description: "The control's label when recorded." })),
  },
  "a Windows app's recorded native rung",
);
/**
 * A payload a project plugin's own recorder mints under a built-in tier (AppDriver.recordedLadder):
 * any keys, so long as it claims none of the tier's built-in shapes (`reserved`: a key, or a key
 * with one of its built-in values) — a payload that does must be that shape. Checked at read;
 * typed `never` for flowproof's own code (the plugin that wrote it reads its own keys).
 */
const pluginOwn = (reserved: readonly (string | { readonly key: string; readonly values: readonly string[] })[], description: string): TNever =>
  Type.Intersect(
    [
      Type.Object({}, { additionalProperties: true }),
      Type.Not(
        Type.Union(
          reserved.map((r) =>
            typeof r === "string" ? Type.Object({ [r]: Type.Unknown() }) : Type.Object({ [r.key]: Type.Union(r.values.map((v) => Type.Literal(v))) }),
          ),
        ),
      ),
    ],
    { description },
  ) as unknown as TNever;

export const NativeIdPayload = Type.Union(
  [
    CssPayload,
    IdPayload,
    AutomationIdPayload,
    pluginOwn(["css", "id", "automation_id"], "a project plugin's own native rung: any keys but css, id and automation_id"),
  ],
  { description: "`native_id`: {css} | {id, name?} | {automation_id, name?} | a plugin's own keys" },
);

// ---- text_anchor ----------------------------------------------------------------------------
export const TextAnchorPayload = shape(
  {
    text: Type.String({ description: "The quoted label as written: visible text, aria-label, placeholder, title, alt, an associated label." }),
    box: Opt(Rect("Vision recorder: where the text was read, relative to the window.")),
    window: Opt(
      Type.Object({ width: Type.Number(), height: Type.Number() }, { additionalProperties: true, description: "Vision recorder: the window's size then." }),
    ),
    field_box: Opt(Rect("Vision recorder: the input box the label named, for a field.")),
  },
  "`text_anchor`: {text, box?, window?, field_box?}",
);

// ---- structural -----------------------------------------------------------------------------
// Inner keys are prefixed (`inner_text`, not `text`) so an engine that predates the scoped kinds
// fails on them instead of resolving the inner target against the whole page.
const Inner = {
  inner_text: Opt(Type.String({ description: "The inner target's label." })),
  inner_css: Opt(Type.String({ description: "The inner target's CSS selector." })),
  inner_id: Opt(Type.String({ description: "The inner target's id (or name)." })),
};
const Anchors = (description: string) => Opt(Type.Array(Type.String(), { description }));
export const CellPayload = shape(
  {
    kind: Type.Literal("cell"),
    column_text: Type.String({ description: "The column's header text." }),
    row_anchor: Type.String({ description: "A text the row contains." }),
    row_anchor_also: Anchors("Further texts the row contains."),
  },
  '`the "Status" column of the row containing "John"`',
);
export const ScopedPayload = shape(
  {
    kind: Type.Literal("scoped"),
    container: Type.String({ description: "`item`, `css:<selector>` or `id:<id>`." }),
    container_anchor: Type.String({ description: "A text the container contains." }),
    anchor_also: Anchors("Further texts the container contains."),
    ...Inner,
  },
  '`the "Pay" in the item containing "Invoice 4711"`',
);
export const FramedPayload = shape(
  {
    kind: Type.Literal("framed"),
    frame_text: Opt(Type.String({ description: "The iframe's title, name, id or aria-label." })),
    frame_css: Opt(Type.String({ description: "The iframe's CSS selector." })),
    ...Inner,
  },
  '`the "css:#total" in the iframe "checkout"`',
);
export const ControlPayload = shape(
  {
    control_type: Type.String({ description: "A desktop control type (`button`, `edit`, …)." }),
    name: Opt(Type.String({ description: "Its label; any when absent." })),
  },
  "a desktop control by type and name (a recorder's fallback rung, an assertion sugar's fallback)",
);
export const StructuralPayload = Type.Union(
  [
    CellPayload,
    ScopedPayload,
    FramedPayload,
    ControlPayload,
    pluginOwn(
      [{ key: "kind", values: ["cell", "scoped", "framed"] }, "control_type"],
      "a project plugin's own structural rung: any keys but control_type and a kind of cell, scoped or framed",
    ),
  ],
  { description: "`structural`: {kind: cell, …} | {kind: scoped, …} | {kind: framed, …} | {control_type, name?} | a plugin's own keys" },
);

// ---- visual_template, ai_relocation ---------------------------------------------------------
export const OpenPayload = shape({}, "reserved for later recorders and heal; a plugin's own keys");

const rung = <T extends Static<typeof SelectorTier>, P extends TSchema>(tier: T, payload: P) =>
  Type.Object(
    {
      tier: Type.Literal(tier),
      provenance: Type.String({ description: "Who minted this rung: rules, llm, recorder." }),
      confidence: Opt(Type.Number({ minimum: 0, maximum: 1 })),
      payload,
    },
    { additionalProperties: false },
  );

/** The payload schema of each tier: what `payload` must match on a rung of that tier. */
export const PAYLOAD_SCHEMAS = {
  native_id: NativeIdPayload,
  structural: StructuralPayload,
  text_anchor: TextAnchorPayload,
  visual_template: OpenPayload,
  ai_relocation: OpenPayload,
} as const;

/** One rung of a selector ladder: `payload`'s shape depends on `tier`; unknown payload keys are allowed (additive within v1). */
export const Selector = Type.Union(
  [
    rung("native_id", NativeIdPayload),
    rung("structural", StructuralPayload),
    rung("text_anchor", TextAnchorPayload),
    rung("visual_template", OpenPayload),
    rung("ai_relocation", OpenPayload),
  ],
  { description: "One rung of a selector ladder; `payload` depends on `tier` (see docs/trace-format.md, Selectors)." },
);

export type SelectorTier = Static<typeof SelectorTier>;
export type Selector = Static<typeof Selector>;
/** The rung of one tier, e.g. `SelectorOf<"text_anchor">`. */
export type SelectorOf<T extends SelectorTier> = Extract<Selector, { tier: T }>;
/** The payload of a rung of one tier. */
export type PayloadOf<T extends SelectorTier> = SelectorOf<T>["payload"];
/** Any rung's payload. */
export type SelectorPayload = Selector["payload"];
export type CssPayload = Static<typeof CssPayload>;
export type IdPayload = Static<typeof IdPayload>;
export type AutomationIdPayload = Static<typeof AutomationIdPayload>;
export type NativeIdPayload = Static<typeof NativeIdPayload>;
export type TextAnchorPayload = Static<typeof TextAnchorPayload>;
export type CellPayload = Static<typeof CellPayload>;
export type ScopedPayload = Static<typeof ScopedPayload>;
export type FramedPayload = Static<typeof FramedPayload>;
export type ControlPayload = Static<typeof ControlPayload>;
export type StructuralPayload = Static<typeof StructuralPayload>;
export type OpenPayload = Static<typeof OpenPayload>;

/** Whether the rung is of `tier`; narrows it (and its payload). */
export const isTier = <T extends SelectorTier>(rung: Selector, tier: T): rung is SelectorOf<T> => rung.tier === tier;

/** The rung's payload when it is of `tier`; undefined for another tier (or no rung). */
export function payloadOf(rung: Selector | undefined, tier: "native_id"): NativeIdPayload | undefined;
export function payloadOf(rung: Selector | undefined, tier: "structural"): StructuralPayload | undefined;
export function payloadOf(rung: Selector | undefined, tier: "text_anchor"): TextAnchorPayload | undefined;
export function payloadOf(rung: Selector | undefined, tier: "visual_template" | "ai_relocation"): OpenPayload | undefined;
export function payloadOf(rung: Selector | undefined, tier: SelectorTier): SelectorPayload | undefined {
  return rung !== undefined && rung.tier === tier ? rung.payload : undefined;
}

/** The text a rung names: a text anchor's `text`, a scoped or framed target's `inner_text`; undefined otherwise. */
export function anchorTextOf(rung: Selector | undefined): string | undefined {
  if (rung === undefined) return undefined;
  if (rung.tier === "text_anchor") return rung.payload.text;
  if (rung.tier === "structural" && "inner_text" in rung.payload) return rung.payload.inner_text;
  return undefined;
}

/** The native id a rung names (`id` or `automation_id`); undefined for a css rung or another tier. */
export function nativeIdOf(rung: Selector | undefined): string | undefined {
  const p = payloadOf(rung, "native_id");
  if (p === undefined) return undefined;
  if ("automation_id" in p) return p.automation_id;
  return "id" in p ? p.id : undefined;
}

/** The CSS selector a rung names (`"css:…"`); undefined otherwise. */
export function cssOf(rung: Selector | undefined): string | undefined {
  const p = payloadOf(rung, "native_id");
  return p !== undefined && "css" in p ? p.css : undefined;
}

/** The scoped kind (`cell`, `scoped`, `framed`) of a structural rung's payload; undefined otherwise. */
export function scopedPayloadOf(rung: Selector | undefined): CellPayload | ScopedPayload | FramedPayload | undefined {
  const p = payloadOf(rung, "structural");
  // A plugin's own structural rung may carry a `kind` of its own: only the built-in kinds are these.
  return p !== undefined && "kind" in p && (p.kind === "cell" || p.kind === "scoped" || p.kind === "framed") ? p : undefined;
}

/**
 * A rung built from plain data (a plugin's JSON, a test's table), checked against its tier's
 * payload shapes; throws a `bad-trace` TraceError naming what is wrong.
 * @example toSelector({ tier: "text_anchor", provenance: "recorder", payload: { text: "Save" } })
 */
export function toSelector(value: unknown): Selector {
  const problem = selectorProblem(value, "the rung");
  if (problem !== undefined || !Value.Check(Selector, value)) {
    throw new TraceError(
      diagnostic("bad-trace", `${problem ?? "the rung is not a selector {tier, provenance, confidence?, payload}"}`, {
        hint: "build the rung with one of its tier's payload shapes (docs/trace-format.md, Selectors)",
      }),
    );
  }
  return value; // checked against the schema just above
}

const SHAPES: Readonly<Record<SelectorTier, string>> = {
  native_id: "{css} | {id, name?} | {automation_id, name?}, or a plugin's own keys without css, id and automation_id",
  structural:
    '{kind: "cell", column_text, row_anchor, row_anchor_also?} | {kind: "scoped", container, container_anchor, anchor_also?, inner_text|inner_css|inner_id (or role alone)} | {kind: "framed", frame_text|frame_css, inner_text|inner_css|inner_id} | {control_type, name?}, or a plugin\'s own keys without control_type and those kinds',
  text_anchor: "{text, box?, window?, field_box?}",
  visual_template: "an object",
  ai_relocation: "an object",
};

const isObject = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Why a rung read from a trace is not a selector of v1, in one sentence naming the tier, the
 * offending key and the shapes its tier takes; undefined for a sound rung. `where` names it
 * (`selector 1`).
 */
export function selectorProblem(value: unknown, where: string): string | undefined {
  if (!isObject(value)) return `${where} is not an object {tier, provenance, payload}`;
  const tier = value["tier"];
  if (typeof tier !== "string" || !(tier in PAYLOAD_SCHEMAS))
    return `${where} has tier ${JSON.stringify(tier)}; expected ${Object.keys(PAYLOAD_SCHEMAS)
      .map((t) => JSON.stringify(t))
      .join(", ")}`;
  const t = tier as SelectorTier;
  const payload = value["payload"];
  if (!isObject(payload)) return `${where} (${t}) has ${payload === undefined ? "no" : "a non-object"} payload; expected ${SHAPES[t]}`;
  for (const key of ["nth", "role"] as const) {
    const v = payload[key];
    if (v !== undefined && !(key === "nth" ? Number.isInteger(v) && (v as number) >= 1 : typeof v === "string")) {
      return `${where} (${t}) has ${key} ${JSON.stringify(v)}; expected ${key === "nth" ? "a 1-based whole number" : "a role noun (a string)"}`;
    }
  }
  if (Value.Check(PAYLOAD_SCHEMAS[t], payload)) return undefined;
  // The key that breaks it: a present key whose value is not a string where every shape wants one.
  const wrong = Object.entries(payload).find(([k, v]) => STRING_KEYS.has(k) && typeof v !== "string");
  const detail = wrong
    ? `has ${wrong[0]} ${JSON.stringify(wrong[1])} (${Array.isArray(wrong[1]) ? "a list" : typeof wrong[1]}), not a string`
    : `payload ${clip(JSON.stringify(payload))} is none of its shapes`;
  return `${where} (${t}) ${detail}; a ${t} payload is ${SHAPES[t]}`;
}

/** Payload keys that hold text in every shape that declares them. */
const STRING_KEYS = new Set([
  "css",
  "id",
  "automation_id",
  "name",
  "text",
  "kind",
  "column_text",
  "row_anchor",
  "container",
  "container_anchor",
  "inner_text",
  "inner_css",
  "inner_id",
  "frame_text",
  "frame_css",
  "control_type",
]);

const clip = (s: string): string => (s.length > 120 ? `${s.slice(0, 117)}…` : s);
