// The assertion kinds' part of the plugin contract (re-exported by api.ts, the only module a plugin
// imports): the context an assertion kind's `run` gets (`assert_api`, `assert_sql`, …) and the
// verdict it answers with. AssertionPlugin itself is declared in api.ts.
import type { FilePaths } from "./file-paths.ts";

/** A JSON Schema object (TypeBox schemas are JSON Schema objects too). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** Whether the engine may repeat an attempt: `poll` re-runs `run` until it passes (reads); `once` runs it exactly once (writes). */
export type AttemptPolicy = "poll" | "once";

/** How the engine opened the run: recording (mints baselines) or replaying a trace. */
export type RunMode = "record" | "replay";

/** A screenshot of the active surface, with the `mask` targets already painted over (opaque black). */
export type SurfaceShot =
  | { readonly ok: true; readonly png: Uint8Array }
  /** `detail` says why: no surface can be photographed, or a mask target did not resolve. */
  | { readonly ok: false; readonly detail: string };

/** What an assertion kind's `run` may use; `${VAR}` and `${captured.x}` in its arguments are already resolved. */
export interface AssertionContext {
  /** Directory of the flow file: relative paths in arguments resolve against it. */
  readonly baseDir: string;
  /** Where the flow may read and write files: resolve every path an argument names through `paths.file(…)` (absent: anywhere). */
  readonly paths?: FilePaths;
  readonly log: (line: string) => void;
  /** Record (`flowproof record`) or replay (`flowproof run`). */
  readonly mode: RunMode;
  /** The flow file's stem (`checkout` for `checkout.flow.yaml`): baselines live in `<baseDir>/<stem>.baselines/`. */
  readonly flowStem: string;
  /** Directory for this execution's evidence files (the run bundle on replay, the authoring bundle on record). */
  readonly artifactDir: string;
  /** Environment variables, for plugin configuration (e.g. `FLOWPROOF_SQL_<NAME>`); never echo their values. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Hands text the assertion observed (a response body) to the engine's secret-leak scan
   * (`assert_no_secret_leak`). `label` names where it came from, e.g. "assert_api response body".
   * The engine keeps only whether a watched secret occurred, never the text.
   */
  readonly observe: (label: string, text: string) => void;
  /**
   * Reports a request this attempt sent and got a response to, as sent (method and URL; a
   * redirect's later hops are the same request). The surface keeps only the method and the
   * normalised path of a write, as the step's effect (see docs/trace-format.md, "Effects").
   */
  readonly sent?: (method: string, url: string) => void;
  /** Present when the flow's surface can be photographed (capability "screenshot"). `mask`: targets as authored (`css:…`, `id:…`, text). */
  readonly screenshot?: (mask: readonly string[]) => Promise<SurfaceShot>;
  /**
   * The named surface the step runs on, in a multi-surface flow (`in: <surface>`); absent in a
   * single-surface flow. Anything the plugin keys per surface (screenshot baselines,
   * `<name>@<surface>.png`) carries it, so one surface's evidence is never compared with another's.
   */
  readonly surface?: string;
}

/** One attempt's verdict; `expected`/`actual` are shown in the report (never a secret's value). */
export type Verdict =
  | { readonly pass: true }
  | {
      readonly pass: false;
      readonly expected: string;
      /** What was seen, one sentence (e.g. "response body is not valid JSON"). */
      readonly actual: string;
      readonly hint?: string;
      /** False when waiting cannot change the answer (e.g. an unconfigured connection): the engine stops at once. */
      readonly retryable?: boolean;
      /** Files this attempt wrote as evidence, relative to `AssertionContext.artifactDir` (shown in the report). */
      readonly evidence?: readonly string[];
    };
