// What `flowproof record` returns: whether the trace was written, how each step was authored,
// and why nothing was recorded when a recording ended before its first step.
import type { Clarification } from "../authoring/clarification.ts";
import type { StepResult } from "../engine/loop.ts";

export type Route = "rules" | "llm" | "reused" | "fallback";

export interface RoutingEntry {
  /** 1-based executable step number. */
  readonly step: number;
  readonly intent: string;
  readonly route: Route;
  readonly warning?: string;
}

export interface RecordResult {
  /** True when every step passed and the trace was written. */
  readonly ok: boolean;
  /** The flow's name. */
  readonly name: string;
  readonly trace_path: string | null;
  readonly steps: number;
  readonly reused_steps: number;
  readonly routing: readonly RoutingEntry[];
  readonly warnings: readonly string[];
  readonly step_results: readonly StepResult[];
  /** Why no trace was written (the failing step's detail). */
  readonly error?: string;
  /** The authoring bundle (`.flowproof/recordings/<trace_id>`), when a trace was written with frames. */
  readonly recording_dir?: string;
  /** A recording that failed: where its evidence is (`.flowproof/failed-records/<id>/`, frames and debug snapshot). */
  readonly failed_record_dir?: string;
  /** Set when a plain step was too ambiguous to author (`record --json` prints it and exits 2). */
  readonly clarification?: Clarification;
  /** `--verify`: whether the fresh trace replayed to PASS. */
  readonly verified?: boolean;
  /** Which backend and model authored plain steps, when one did. */
  readonly agent?: { readonly backend: string; readonly model: string };
  /** Requests sent to the authoring model. */
  readonly model_requests?: number;
  /** Why nothing was recorded on purpose (`skip_unless_env` unmet); `ok` is true. */
  readonly skipped?: string;
  /** A flow with `expect: {fail: …}` whose step failed as declared: the trace ends with that step. */
  readonly expected_failure?: { readonly reason: string; readonly step: string; readonly detail?: string };
}

/** A recording that did not start: a `before_each` hook failed. */
export function notRecorded(error: string): RecordResult {
  return {
    ok: false,
    name: "",
    trace_path: null,
    steps: 0,
    reused_steps: 0,
    routing: [],
    warnings: [],
    step_results: [],
    error: `${error}; nothing was recorded`,
  };
}

/** A flow whose `skip_unless_env` names variables that are not set: nothing recorded, on purpose. */
export function skippedRecord(name: string, unmet: readonly string[]): RecordResult {
  return {
    ok: true,
    name,
    trace_path: null,
    steps: 0,
    reused_steps: 0,
    routing: [],
    warnings: [],
    step_results: [],
    skipped: `skip_unless_env: ${unmet.join(", ")} ${unmet.length === 1 ? "is" : "are"} not set`,
  };
}

/** A plain step too ambiguous to author before the app was opened: the question, and no trace. */
export function clarificationRecord(c: Clarification, warnings: readonly string[]): RecordResult {
  return {
    ok: false,
    name: "",
    trace_path: null,
    steps: 0,
    reused_steps: 0,
    routing: [],
    warnings,
    step_results: [],
    clarification: c,
    error: `step ${c.step_index} (${c.step}) needs clarification: ${c.reason}; no trace was written`,
  };
}
