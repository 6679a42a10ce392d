// The trace wire format (flowproof-trace v1), declared once: TypeBox yields both the static
// types and the JSON Schema written to schema/trace-v1.schema.json. No I/O here.
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Selector } from "./selector.ts";
import { AgentRunParams } from "./agent-params.ts";
import {
  AssertParams,
  BoundMs,
  CaptureDownloadParams,
  CaptureParams,
  ClearStorageParams,
  FocusWindowParams,
  HoverParams,
  Int,
  LaunchParams,
  Opt,
  Params,
  PointerParams,
  PressKeyParams,
  ScrollParams,
  SetCheckedParams,
  SetCookieParams,
  SetViewportParams,
  TypeTextParams,
  UploadParams,
  WaitParams,
} from "./action-params.ts";

export const TRACE_FORMAT = "flowproof-trace";
export const TRACE_VERSION = 1;

export { Selector, SelectorTier } from "./selector.ts";

// ---- Actions: one variant per action type ---------------------------------------------------
// Each action type's `params` is declared in action-params.ts. To add an action type, declare its
// params there and add one `actionVariant(...)` row to ACTION_VARIANTS: the union, the type list,
// the JSON Schema and the doc table follow from it.
export {
  AssertParams,
  CaptureDownloadParams,
  CaptureParams,
  ClearStorageParams,
  DialogParam,
  ElementStateParams,
  Expect,
  FocusWindowParams,
  HoverParams,
  KeyModifierName,
  LaunchParams,
  NoSecretLeakParams,
  PointerParams,
  PressKeyParams,
  ScrollParams,
  SetCheckedParams,
  SetCookieParams,
  SetViewportParams,
  StructuredParams,
  TypeTextParams,
  UploadParams,
  WaitParams,
} from "./action-params.ts";
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

/** Where an adapter's own header block may sit beside the format's fields: a lowercase name. */
export const ADAPTER_BLOCK_NAME = "^[a-z][a-z0-9_]*$";

export const AppInfo = Type.Object(
  {
    name: Type.String(),
    adapter: Type.String({
      description: "The app kind (a built-in adapter's or a project adapter's kind), or `multi` for a multi-surface flow's sentinel entry.",
    }),
    url: Opt(Type.String({ description: "Start URL as written (raw ${VAR} references)." })),
    version: Opt(Type.String()),
  },
  {
    additionalProperties: true,
    description:
      "Every further field is the adapter's own: a key it records (as written, raw ${VAR} references) or a fact its driver reports (`facts`). A replay checks each against the adapter's keys or facts schema (docs/plugins.md, \"Header blocks\").",
  },
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
  {
    additionalProperties: false,
    patternProperties: {
      [ADAPTER_BLOCK_NAME]: {
        description:
          "An adapter's own block: a key it records beside `app` (`recorded: { top: true }`, e.g. the web adapter's `browser`, `mock`, `session`), as written. A replay checks it against that key's schema (docs/plugins.md, \"Header blocks\").",
      },
    },
  },
);

export type { SelectorOf, SelectorPayload } from "./selector.ts";
export type { AgentStep, AgentSpec, AgentToolSpec, AgentMcpSpec } from "./agent-params.ts";
export type Action = Static<typeof Action>;
/** The action of one type, e.g. `ActionOf<"click">`. */
export type ActionOf<T extends Action["type"]> = Extract<Action, { type: T }>;
export type ActionType = Action["type"];
export type SyncCondition = Static<typeof SyncCondition>;
export type TraceStep = Static<typeof TraceStep>;
/** An app entry: the core's fields, and the adapter's own (its recorded keys, its drivers' facts). */
export type AppInfo = Static<typeof AppInfo> & { [field: string]: unknown };
/** A trace header: the format's fields, and adapters' own blocks beside them. */
export type TraceHeader = Omit<Static<typeof TraceHeader>, "app" | "apps"> & {
  app: AppInfo;
  apps?: Record<string, AppInfo>;
  [block: string]: unknown;
};
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
