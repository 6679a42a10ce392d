// THE plugin contract: the only src/ module a plugin (built-in or a user's) may import.
// Adapters drive one kind of app; the engine owns time (polling, auto-wait), so every driver
// method is ONE attempt that answers at once. See docs/plugins.md.
import type { TObject } from "@sinclair/typebox";
import type { Selector } from "../trace/schema.ts";
import { FlowproofError, type PluginErrorCode } from "../diagnostics/diagnostic.ts";
import type { FilePaths } from "./file-paths.ts";
import type { AssertionContext, AttemptPolicy, JsonSchema, Verdict } from "./assertion-api.ts";
import type { EffectWatch } from "./effects.ts";
import { noUiAnswers } from "./no-ui.ts";
import type { AgentRunOutcome, AgentRunRequest } from "./agent-api.ts";
import type { DebugSnapshot, RawFrame, RectTarget, RectsAnswer } from "./frame-api.ts";
import type { Expectation, ScrollTo } from "./expectation.ts";
import type { AdapterCredentials, AdapterErrorCode, AdapterGrammar, AdapterKeys, AdapterPlatforms, ArgumentProblem, StepsKind } from "./adapter-api.ts";
/** TypeBox: how a plugin declares the schema of its flow keys (`keys.schema`) and of its steps' arguments. */
export { Type, type Static, type TObject, type TSchema } from "@sinclair/typebox";
export { RanOn } from "../trace/schema.ts";
export { KEY_ROLE, keyRole } from "./adapter-api.ts";
export { EVIDENCE_CSP, PASSWORD_FIELDS, type DebugSnapshot, type RawFrame, type Rect, type RectTarget, type RectsAnswer } from "./frame-api.ts";
export type {
  AdapterCredentials,
  AdapterErrorCode,
  AdapterGrammar,
  AdapterKeys,
  AdapterPlatforms,
  ArgumentProblem,
  CredentialField,
  KeyRole,
  KeysCheckContext,
  StepsKind,
  StoredCredentials,
} from "./adapter-api.ts";
export { GRAMMAR_FORMS, GRAMMAR_VERBS, type AssertionSugar, type GrammarForm, type GrammarVerb, type KeyVocabulary } from "../grammar/vocabulary.ts";
/** Selector rungs: each tier's payload shapes and narrowing helpers (docs/trace-format.md, "Selectors"). */ export {
  anchorTextOf,
  cssOf,
  isTier,
  nativeIdOf,
  payloadOf,
  scopedPayloadOf,
  toSelector,
  type AutomationIdPayload,
  type CellPayload,
  type ControlPayload,
  type CssPayload,
  type FramedPayload,
  type IdPayload,
  type NativeIdPayload,
  type OpenPayload,
  type PayloadOf,
  type ScopedPayload,
  type Selector,
  type SelectorOf,
  type SelectorPayload,
  type SelectorTier,
  type StructuralPayload,
  type TextAnchorPayload,
} from "../trace/selector.ts";
/** Every error flowproof throws on purpose carries a stable code; a plugin's own errors extend these. */
export { FlowproofError, ProtocolError, type PluginErrorCode } from "../diagnostics/diagnostic.ts";
/** The longest bound flowproof waits anywhere (one day, in milliseconds): a plugin's own timeouts stay within it. */
export { MAX_TIMEOUT_MS } from "../diagnostics/bounds.ts";
/** Reads a FLOWPROOF_*_MS bound from the run's env: a malformed value is an error naming the variable, never a silent default. */
export { msFromEnv, type EnvMsOptions } from "../diagnostics/env-number.ts";
/** Where a flow may read and write files (its roots); a plugin resolves every path it reads or writes through it. */
export { FilePaths } from "./file-paths.ts";
/** Levenshtein distance between two strings: what "did you mean" and nearest-text hints rank by. */ export { editDistance } from "../diagnostics/edit-distance.ts";

/** What a live surface can do, and every capability in the order the docs list them. */
export { CAPABILITIES, type Capability } from "./capabilities.ts";
import type { Capability } from "./capabilities.ts";

/** A wait condition an action checks before it acts; named in failures. */
export type WaitCondition = "attached" | "visible" | "stable" | "enabled" | "editable" | "receives-pointer";

/**
 * One attempt's answer. `failed` names the condition that did not hold; `retryable` false stops
 * polling. `precaution`: it held off while the target may still change (restyled a moment ago)
 * rather than finding a condition false; a bound that runs out on it reports the finding before.
 */
export type Attempt<T = undefined> =
  | { readonly ok: true; readonly value: T; readonly tier?: string }
  | {
      readonly ok: false;
      readonly failed: WaitCondition | "not-found" | "unsupported" | "dialog" | "ambiguous";
      readonly detail: string;
      readonly retryable: boolean;
      readonly precaution?: boolean;
    };

/** A reading of an expectation: did it hold, and what was seen (never a secret's value). */
export interface Reading {
  readonly pass: boolean;
  readonly actual: string;
  readonly tier?: string;
  /** False when waiting cannot change the answer (an ambiguous scope, a cross-origin frame): the engine stops polling. */
  readonly retryable?: boolean;
}

/** One element a plain label names: `nth` is the ordinal that picks it (`the 2nd "Save"`), `what` how it reads. */
export interface Candidate {
  readonly nth: number;
  readonly what: string;
}

// What a driver checks and where it scrolls: the contract's request shapes, in expectation.ts.
export type { Expectation, ScrollTo } from "./expectation.ts";
export type KeyModifier = "ctrl" | "alt" | "shift" | "meta" | "mod";

/** How text is typed: `secret` when it holds a `${VAR}` value (its field is then masked in every frame). */
export interface TypeOptions {
  readonly secret?: boolean;
  /** How long the typing may take once the field has focus (the step's action plus navigation bound); past it the driver stops and fails the step, naming the typing. */
  readonly timeoutMs?: number;
}

export interface PointerOptions {
  readonly button: "left" | "right";
  readonly clickCount: 1 | 2;
  /** Point inside the element box, percent (0–100). Default: the centre. */
  readonly at?: { readonly xPct: number; readonly yPct: number };
}

/** How a declared native dialog is answered (`, accepting the "…" dialog`); `${…}` already resolved. */
export interface DialogPlan {
  readonly disposition: "accept" | "dismiss";
  /** The dialog's message must contain this. */
  readonly message?: string;
  /** Prompt reply (accept only). */
  readonly reply?: string;
}

/** What became of an armed dialog: not (yet) opened, or opened with this type and message. */
export type DialogOutcome = { readonly opened: false } | { readonly opened: true; readonly type: string; readonly message: string };

/** Downloads of the surface since it opened or since the last `takeDownloads`. */
export interface DownloadState {
  /** Absolute paths of completed downloads not yet taken. */
  readonly completed: readonly string[];
  readonly inProgress: number;
  /** Suggested file names of downloads the browser cancelled. */
  readonly canceled: readonly string[];
}

/**
 * One entry of a scene inventory (model authoring). `target` is an opaque, provenance-neutral
 * token the model must copy exactly: `css:<selector>`, `id:<native id>`, `text:<name>`,
 * `scoped:css:<container> containing "<anchor>" > css:<inner>` or `framed:"<frame>" > css:<inner>`.
 * See docs/plugins.md, "Scene inventory".
 */
export interface SceneEntry {
  readonly target: string;
  readonly tag?: string;
  /** Clickable/typeable. Readable-only entries may only be remembered or asserted. */
  readonly actionable: boolean;
  readonly type?: string;
  /** Visible text, ≤80 characters. */
  readonly text?: string;
  readonly label?: string;
  /** A field's current value, ≤80 characters; NEVER reported for password fields. */
  readonly value?: string;
  readonly checked?: boolean;
  readonly required?: boolean;
  readonly disabled?: boolean;
  /** A dropdown's exact option labels (≤60). */
  readonly options?: readonly string[];
  readonly multiple?: boolean;
  /** A collection token (table rows): how many elements it names. */
  readonly count?: number;
  /** A control the page marks invalid (aria-invalid, or failing its own validation after input). */
  readonly invalid?: boolean;
  /** The page's own constraint text for a control (e.g. its aria-describedby text), ≤100 characters. */
  readonly rule?: string;
}

/** One reading of what the surface shows, for the authoring model. */
export interface SceneInventory {
  readonly url: string;
  readonly title: string;
  /** Whitespace-collapsed visible text (bounded); never a password value. */
  readonly text: string;
  /** Interactive elements first, then collections, then readable leaves; capped (default 100). */
  readonly entries: readonly SceneEntry[];
  /** Entries left out by the cap. */
  readonly omitted: number;
  /** The document finished loading. */
  readonly loaded: boolean;
}

/** Step effects: what an adapter observes an action do (see effects.ts). */
export type { EffectKind, EffectReading, EffectWatch, ObservedEffect } from "./effects.ts";
export { effectPath, effectRequest, isWriteMethod, observingNothing, WRITE_METHODS } from "./effects.ts";
/** What a plugin starts dies with flowproof: `guardGroup` however it ends, `killAtExit` when it exits (also in the light face, launch-api.ts). */
export { guardDir, guardGroup, killAtExit } from "./launch-api.ts";

/** One live surface (a browser page, a desktop window…). Every method is one attempt. */
export interface AppDriver {
  readonly capabilities: ReadonlySet<Capability>;
  /** Navigate and wait for the document to load (bounded by `timeoutMs`). */
  navigate(url: string, timeoutMs: number): Promise<Attempt>;
  reload(timeoutMs: number): Promise<Attempt>;
  /** Capability "navigation": one entry back or forward through the page's history, waiting (bounded by `timeoutMs`) for the page it lands on. */
  history?(direction: "back" | "forward", timeoutMs: number): Promise<Attempt>;
  /** Empties the page origin's localStorage / sessionStorage, or every cookie of the surface ("cookies" capability). */
  clearStorage?(what: "local" | "session" | "cookies"): Promise<Attempt>;
  /** `Set cookie "<name>" to <value>`: a cookie for the page's current URL. */
  setCookie?(name: string, value: string): Promise<Attempt>;
  /** Sets the surface's viewport to `width` × `height` CSS pixels from now on; verifies it took. */
  setViewport?(width: number, height: number): Promise<Attempt>;
  click(ladder: readonly Selector[], options: PointerOptions): Promise<Attempt>;
  hover(ladder: readonly Selector[]): Promise<Attempt>;
  /** Fill semantics: select everything in the field, then type `text` as real keystrokes. */
  fill(ladder: readonly Selector[], text: string, options?: TypeOptions): Promise<Attempt>;
  /** Real keystrokes into whatever has focus (appends). */
  typeFocused(text: string, options?: TypeOptions): Promise<Attempt>;
  pressKey(key: string, modifiers: readonly KeyModifier[]): Promise<Attempt>;
  /**
   * Chooses `values` (the text rule: exact, then prefix, then ignoring case; `exact`: only an
   * option reading exactly so, as a recording chose). May answer the labels of the options it chose.
   */
  select(ladder: readonly Selector[], values: readonly string[], exact?: boolean): Promise<Attempt<readonly string[] | undefined>>;
  /** Set a checkbox/radio/switch; a no-op when already in that state. Verifies the state took. */
  setChecked(ladder: readonly Selector[], checked: boolean): Promise<Attempt>;
  /** The element's text (or a field's value). */
  readText(ladder: readonly Selector[]): Promise<Attempt<string>>;
  /** How many visible elements the ladder names (first rung that names any). */
  count(ladder: readonly Selector[]): Promise<number>;
  /**
   * Optional: the distinct visible elements a plain label names (the ladder's first rung is a text rung without an ordinal),
   * with the ordinal that picks each; empty for any other ladder. Record refuses a label that names several.
   */
  candidates?(ladder: readonly Selector[]): Promise<readonly Candidate[]>;
  /** One reading of an expectation; `ladder` empty = the whole surface. */
  check(ladder: readonly Selector[], expect: Expectation): Promise<Reading>;
  /** Optional: resolves once what the surface shows may have changed (never rejects; may never resolve): retries race it with their interval. */
  untilChange?(): Promise<void>;
  /** Capability "screenshot": one frame of what the surface shows now (see docs/trace-format.md, Recording). */
  captureFrame?(): Promise<RawFrame>;
  /** Capability "screenshot": each target's on-screen rectangles, one answer per target, in order. */
  rectsFor?(targets: readonly RectTarget[]): Promise<RectsAnswer[]>;
  /**
   * Capability "screenshot": makes every later call that can change what the surface shows
   * (navigation, input, focus, scrolling, value changes, `pointFor`) wait until `until` settles,
   * while reads (`check`, `count`, `readText`, `rectsFor`, `scene`, `captureFrame`) go ahead. The
   * recorder uses it so a frame's capture overlaps the next step's reads but never shows its
   * input. Returns false when the surface cannot hold (the caller then waits itself).
   */
  holdInput?(until: Promise<unknown>): boolean;
  /**
   * Capability "screenshot": whether what the surface shows may have changed since the previous call (true on the first call, and
   * whenever the surface cannot tell), clearing the signal. The recorder reuses the previous frame when this answers false, so it must never miss a change.
   */
  screenChanged?(): Promise<boolean>;
  /** Capability "screenshot": the frame-pixel point a pointer action on `ladder` would hit, without acting; undefined when it would not. */
  pointFor?(ladder: readonly Selector[], at?: PointerOptions["at"]): Promise<{ readonly x: number; readonly y: number } | undefined>;
  /** Press on `source`, move with the button held, release on `onto` (pointer capability), at `at` (% of its box; absent, its centre). */
  drag?(source: readonly Selector[], onto: readonly Selector[], at?: PointerOptions["at"]): Promise<Attempt>;
  /** Set the file (absolute path) on the file input the ladder names, hidden or not. */
  upload?(ladder: readonly Selector[], path: string): Promise<Attempt>;
  /** Answer the next native dialog as planned instead of failing on it; `undefined` disarms. */
  armDialog?(plan: DialogPlan | undefined): void;
  /** The armed dialog's fate so far. */
  dialogOutcome?(): DialogOutcome;
  /** Downloads so far; completed ones are handed over (removed from the state) when `take` is true. */
  downloads?(take: boolean): DownloadState;
  /** Scroll the page (empty ladder) or the element the ladder names; verifies the position took. */
  scroll?(ladder: readonly Selector[], to: ScrollTo): Promise<Attempt>;
  /** Model authoring: one reading of the whole rendered surface as scene tokens (the engine re-reads until two readings agree). */
  scene?(): Promise<SceneInventory>;
  /**
   * After a failed step (best effort): the surface's document as HTML (password values removed),
   * its console since the flow began, and the visible names a step could target (for "did you mean").
   * `redact` hides secret values: apply it to every text, attribute value and console line before
   * it is serialised or escaped (the engine redacts the result again).
   */
  debugSnapshot?(redact?: (text: string) => string): Promise<DebugSnapshot>;
  /** `--keep-open`: resolves once the surface was closed from outside (its window closed, the app gone). */
  untilClosed?(): Promise<void>;
  /** An agent surface (`app: agent`): one whole execution of the agent under test (see AgentRunRequest). */
  runAgent?(request: AgentRunRequest): Promise<AgentRunOutcome>;
  /**
   * Starts observing the effects of the next action on `ladder` (empty: a page-level action), before
   * it dispatches. Undefined when the surface cannot observe effects now.
   */
  observeEffect?(ladder: readonly Selector[]): Promise<EffectWatch | undefined>;
  /** Facts recorded into the trace header's `app` entry (a desktop app's backend and window geometry as applied). */
  appInfo?(): Readonly<Record<string, unknown>>;
  /**
   * While recording, after a step on `ladder` passed: the ladder to record instead, led by rungs
   * read from the live element the step acted on (a Windows control's AutomationId and control
   * type); undefined keeps `ladder`.
   */
  recordedLadder?(ladder: readonly Selector[]): Promise<readonly Selector[] | undefined>;
  /** Facts recorded into the trace header (`env`). */
  environment(): Promise<{ os: string; resolution: [number, number]; locale?: string }>;
  close(): Promise<void>;
}

/** A surface with no UI (api, agent): every action, read and check answers `reason`; `own` adds members. */
export const noUiDriver = (reason: string, own: Partial<AppDriver> = {}): AppDriver => ({ ...noUiAnswers(reason), ...own });

export interface LaunchContext {
  /** Directory of the flow file: relative URLs resolve against it. */
  readonly baseDir: string;
  /** Where to report progress and warnings (stderr by default); never a secret. */
  readonly log: (line: string) => void;
  /** The run's environment (for fallbacks such as a machine-wide login); never echo values. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The surface's keys as written (`${…}` references raw), e.g. to name a login's user reference in messages. */
  readonly written?: Readonly<Record<string, unknown>>;
  /** Replay only: the facts `AppDriver.appInfo` reported when the trace was recorded (e.g. the element backend that resolved the steps). */
  readonly recorded?: Readonly<Record<string, unknown>>;
  /** Registers a value the adapter resolved itself (a password from the environment) so every message, trace and frame hides it. */
  readonly secret?: (name: string, value: string) => void;
  /** Where the flow may read files: a surface refuses to open a `file:` URL outside its roots (see FilePaths). */
  readonly paths?: FilePaths;
  /** Aborted when the run is asked to stop (SIGINT, SIGTERM): a launch still waiting (a grid's queue) gives up. */
  readonly stop?: AbortSignal;
}

/** A shared per-run resource an adapter may keep (one browser per run, a context per flow). */
export interface AdapterSession {
  launch(config: Readonly<Record<string, unknown>>, ctx: LaunchContext): Promise<AppDriver>;
  close(): Promise<void>;
}

/**
 * One app kind (docs/plugins.md, "The adapter interface"). A built-in adapter is a plugin that
 * happens to be bundled: the core knows every kind only through these members.
 */
export interface AdapterPlugin {
  /** Unique app kind used in `app:` and `apps:` entries, e.g. "web". */
  readonly kind: string;
  /** What its surfaces can do; every step of a flow is checked against them when it loads. */
  readonly capabilities: readonly Capability[];
  /** How messages and docs name the app, e.g. "SAP GUI" (default: `app: <kind>`). */
  readonly title?: string;
  /**
   * Its flow keys and `apps:` entry keys (schema, checks, how each travels to the launch config).
   * Default: only an optional `url:` start page.
   */
  readonly keys?: AdapterKeys;
  /** Its grammar: general forms it lacks, keys it can press, assertion sugar it adds. Default: the whole general grammar. */
  readonly grammar?: AdapterGrammar;
  /** What its steps are (default `ui`). */
  readonly steps?: StepsKind;
  /**
   * `steps: "agent_steps"`: the arguments of the one `agent_run` step a flow's (or an `in:` block's)
   * steps become, from the keys as written and the authored agent steps (docs/agents.md).
   * Default: the keys and `steps`.
   */
  readonly executionArgs?: (keys: Readonly<Record<string, unknown>>, steps: readonly unknown[]) => Readonly<Record<string, unknown>>;
  /**
   * `assert_no_secret_leak` may run on its surfaces: their whole-surface text (`check` of
   * `text_contains` on an empty ladder) and the texts their structured steps observe form the
   * corpus it scans. Default false: the step is refused on the kind when a flow loads.
   */
  readonly leakCorpus?: boolean;
  /** Where it runs (default: everywhere). */
  readonly platforms?: AdapterPlatforms;
  /** Machine-wide fallback credentials in the OS credential store, kept by `flowproof config <kind>` (default: none). */
  readonly credentials?: AdapterCredentials;
  /**
   * Its own error codes by name (lowercase letters, digits and dashes), raised as `<kind>/<name>`
   * with {@link AdapterError}. A code it does not declare is reported as `plugin-error`.
   */
  readonly errors?: Readonly<Record<string, AdapterErrorCode>>;
  /**
   * The facts its drivers' `appInfo()` report into the trace header's app entry (a Windows app's
   * element backend, a web browser's grid session), as a TypeBox object schema: record refuses a
   * fact it does not accept, and a replay checks the recorded entry against it and the keys schema
   * (docs/plugins.md, "Header blocks"). Default: no facts.
   */
  readonly facts?: TObject;
  /**
   * Called once per run; the session launches one driver per flow (or `apps:` surface) with the
   * launch config: its keys, recorded ones from the trace header and the rest from the spec,
   * `${VAR}` references resolved, flow-relative paths absolute, and `headed` when asked.
   */
  open(): Promise<AdapterSession>;
}

/** Identity helper that gives plugin authors type checking. */
export const defineAdapter = (plugin: AdapterPlugin): AdapterPlugin => plugin;

/**
 * The codes an unavailable adapter may give (docs/errors.md): `adapter-unavailable` by default;
 * the web adapter says `no-browser` or `browser-error`, a desktop adapter `app-launch`,
 * `unsupported-platform` or `sap-error`, a surface that reads pixels without its OCR model
 * `no-ocr-model`.
 */
export type AdapterUnavailableCode =
  | "adapter-unavailable"
  | "no-browser"
  | "browser-error"
  | "app-launch"
  | "unsupported-platform"
  | "sap-error"
  | "no-ocr-model";

/**
 * Thrown by an adapter when the machine cannot run it (no browser installed, app not reachable
 * at launch). The run stops with exit code 2 and `hint` is shown to the user. `code` says which
 * cause (default `adapter-unavailable`); an adapter's `open()` that fails with anything but a
 * FlowproofError is reported as this error, naming the adapter.
 */
export class AdapterUnavailableError extends FlowproofError {
  readonly hint: string;
  constructor(message: string, hint: string, options?: { readonly cause?: unknown; readonly code?: AdapterUnavailableCode }) {
    super({ code: options?.code ?? "adapter-unavailable", message, hint }, options?.cause === undefined ? undefined : { cause: options.cause });
    this.hint = hint;
  }
}

/**
 * An error of the adapter's own, with a code it declares in `errors`, namespaced by its kind:
 * `throw new AdapterError("inventory/not-signed-on", "the console refused user clerk")`. The run
 * stops with exit code 2; without a `hint`, the declared one is shown.
 */
export class AdapterError extends FlowproofError {
  constructor(code: PluginErrorCode, message: string, options?: { readonly hint?: string; readonly cause?: unknown }) {
    super(
      { code, message, ...(options?.hint !== undefined ? { hint: options.hint } : {}) },
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
  }
}

// ---- Assertion kinds (structured step keys): the contract lives in assertion-api.ts ---------------------
export type { AssertionContext, AttemptPolicy, JsonSchema, RunMode, SurfaceShot, Verdict } from "./assertion-api.ts";

/**
 * A structured assertion step kind (`- assert_sql: {…}`). The engine re-runs `run` until it passes
 * or the step's bound expires (`timeout_seconds` in the arguments, default 10 s), so `run` is one
 * attempt that answers at once.
 */
export interface AssertionPlugin<Args = unknown> {
  /** The structured step key this plugin owns, e.g. "assert_sql". */
  readonly key: `assert_${string}`;
  /** JSON Schema of the step's arguments, checked when the flow loads; errors point at the YAML node. */
  readonly schema: JsonSchema;
  /** Checks beyond the schema (mutually exclusive keys, a body on GET), at load time. Args are as written. */
  readonly check?: (args: Args) => readonly ArgumentProblem[];
  /** Surface capabilities the kind needs (`assert_screenshot`: "screenshot"); a flow whose app lacks one is refused at load. */
  readonly needs?: readonly Capability[];
  /** Whether the step may be polled; default `poll`. A write that must be sent exactly once answers `once`. */
  readonly policy?: (args: Args) => AttemptPolicy;
  run(args: Args, ctx: AssertionContext): Promise<Verdict>;
}
/** Identity helper that gives assertion plugin authors type checking. */
export const defineAssertion = <A>(plugin: AssertionPlugin<A>): AssertionPlugin<A> => plugin;

// ---- Agent surfaces (`steps: "agent_steps"`): the contract lives in agent-api.ts ------------------------
/** `agent.allow_egress` entries: checked by the agent adapter when a flow loads, parsed again once resolved. */
export { EGRESS_EXAMPLE, parseEgressEntry, type EgressEntry } from "./egress.ts";
export type {
  AgentCheck,
  AgentClause,
  AgentContainment,
  AgentConversation,
  AgentMatch,
  AgentMcpServer,
  AgentRunOutcome,
  AgentRunRequest,
  AgentStepLine,
  AgentStepRef,
  AgentTarget,
  AgentToolCall,
  AgentTurn,
  EgressRule,
  McpLane,
} from "./agent-api.ts";
