// The trace wire format (flowproof-trace v1), declared once: TypeBox yields both the static
// types and the JSON Schema written to schema/trace-v1.schema.json. No I/O here.
import { Type, type Static, type TSchema } from "@sinclair/typebox";

const Opt = <T extends TSchema>(t: T) => Type.Optional(t);
const Int = (o: object = {}) => Type.Integer({ minimum: 0, ...o });

export const TRACE_FORMAT = "flowproof-trace";
export const TRACE_VERSION = 1;

export const SelectorTier = Type.Union(
  [
    Type.Literal("native_id"),
    Type.Literal("structural"),
    Type.Literal("text_anchor"),
    Type.Literal("visual_template"),
    Type.Literal("ai_relocation"),
  ],
  { description: "Rungs of the selector ladder, in ladder order." },
);

/** One rung of a selector ladder. Unknown payload fields are allowed (additive within v1). */
export const Selector = Type.Object(
  {
    tier: SelectorTier,
    provenance: Type.String({ description: "Who minted this rung: rules, llm, recorder." }),
    confidence: Opt(Type.Number({ minimum: 0, maximum: 1 })),
    payload: Type.Record(Type.String(), Type.Unknown(), {
      description:
        "web native_id: {css} or {id}; text_anchor: {text, nth?, role?}; structural: {kind: cell, column_text, row_anchor, row_anchor_also?} | {kind: scoped, container (item|css:…|id:…), container_anchor, anchor_also?, inner_text|inner_css|inner_id} | {kind: framed, frame_text|frame_css, inner_text|inner_css|inner_id}, each with role?; any payload may carry nth (1-based).",
    }),
  },
  { additionalProperties: false },
);

export const ActionType = Type.Union([
  Type.Literal("launch"),
  Type.Literal("focus_window"),
  Type.Literal("click"),
  Type.Literal("double_click"),
  Type.Literal("right_click"),
  Type.Literal("hover"),
  Type.Literal("drag"),
  Type.Literal("scroll"),
  Type.Literal("type_text"),
  Type.Literal("press_key"),
  Type.Literal("upload"),
  Type.Literal("capture"),
  Type.Literal("capture_download"),
  Type.Literal("set_checked"),
  Type.Literal("wait"),
  Type.Literal("assert"),
  Type.Literal("agent_run"),
]);

export const Action = Type.Object(
  {
    type: ActionType,
    params: Type.Record(Type.String(), Type.Unknown(), { description: "Per-type parameters; see docs/trace-format.md." }),
  },
  { additionalProperties: false },
);

export const SyncCondition = Type.Object(
  {
    kind: Type.String({ description: "element_exists, element_state, window_title, ocr_text_present, visual_stable" }),
    selector_ref: Opt(Type.Union([Int(), Type.Null()])),
    timeout_ms: Int(),
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
    cookies: Opt(Type.Array(Type.Object(
      { name: Type.String({ minLength: 1 }), value: Type.String(), domain: Opt(Type.String()) },
      { additionalProperties: false },
    ))),
    local_storage: Opt(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false },
);

/** The `browser:` shape as written; replay applies it from here, never from the spec. */
export const BrowserShape = Type.Object(
  {
    viewport: Opt(Type.Object(
      {
        width: Type.Integer({ minimum: 1 }),
        height: Type.Integer({ minimum: 1 }),
        device_scale_factor: Opt(Type.Number({ exclusiveMinimum: 0 })),
        mobile: Opt(Type.Boolean()),
        touch: Opt(Type.Boolean()),
      },
      { additionalProperties: false },
    )),
    user_agent: Opt(Type.String()),
    args: Opt(Type.Array(Type.String())),
    clock: Opt(Type.Object({ at: Type.String({ format: "date-time" }), timezone: Opt(Type.String()) }, { additionalProperties: false })),
    random: Opt(Type.Object({ seed: Type.Integer({ minimum: 0, maximum: 4294967295 }) }, { additionalProperties: false })),
    downloads_dir: Opt(Type.String({ description: "Relative to the flow file." })),
    endpoint: Opt(Type.String({ description: "DevTools URL of a running browser (raw ${VAR} references)." })),
  },
  { additionalProperties: false },
);

export const AppInfo = Type.Object(
  {
    name: Type.String(),
    adapter: Type.String({ description: "web, api, uia, sap-com, vision, multi" }),
    url: Opt(Type.String({ description: "Start URL as written (raw ${VAR} references)." })),
    window_title: Opt(Type.String()),
    command: Opt(Type.String()),
    version: Opt(Type.String()),
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
    redaction: Opt(Type.Array(Type.Unknown(), {
      description: "The flow's redact: rules, copied at record so every replay masks identically: {target: {css} | {rect: [x, y, w, h]}, mode: \"mask\"}. A rule this version cannot parse disables frame capture (fail closed).",
    })),
    session: Opt(SessionSeed),
    mock: Opt(Type.Array(MockRule)),
    browser: Opt(BrowserShape),
    control: Opt(
      Type.Object(
        { id: Type.String(), title: Opt(Type.String()), description: Opt(Type.String()) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type Selector = Static<typeof Selector>;
export type Action = Static<typeof Action>;
export type ActionType = Action["type"];
export type SyncCondition = Static<typeof SyncCondition>;
export type TraceStep = Static<typeof TraceStep>;
export type TraceHeader = Static<typeof TraceHeader>;
export type AppInfo = Static<typeof AppInfo>;
export type MockRule = Static<typeof MockRule>;
export type SessionSeed = Static<typeof SessionSeed>;
export type BrowserShape = Static<typeof BrowserShape>;

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
