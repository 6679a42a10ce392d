// The library API: `new Flow(spec)` with the same commands the CLI runs, as typed methods. A
// failing flow is a result (`RunResult.report.passed === false`, `RecordResult.ok === false`), not
// an exception; problems that stop a command from running at all (a bad flow file, a missing
// trace, a broken plugin) throw a FlowproofError subclass carrying diagnostics.
import { record, type RecordOptions, type RecordResult } from "./commands/record.ts";
import type { RunOptions } from "./commands/run.ts";
import { runInSuiteContext, type SingleRunResult } from "./commands/run-single.ts";
import { validateFlow, type ValidateResult } from "./commands/validate.ts";
import { getTrace, type GetTraceOptions, type GetTraceResult } from "./commands/get-trace.ts";
import type { CommonOptions } from "./commands/common.ts";
import { heal, type HealOptions, type HealResult } from "./commands/heal.ts";

export { record, type RecordOptions, type RecordResult, type RoutingEntry, type Route } from "./commands/record.ts";
export { run, type RunOptions, type RunResult } from "./commands/run.ts";
export type { SingleRunResult } from "./commands/run-single.ts";
export { validate, type ValidateOptions, type ValidateResult } from "./commands/validate.ts";
export { getTrace, type GetTraceOptions, type GetTraceResult } from "./commands/get-trace.ts";
export { heal, type HealOptions, type HealResult, type HealReport } from "./commands/heal.ts";
/** `flowproof codegen`: a browser window whose user actions become a readable flow (docs/codegen.md). */
export { codegen, CodegenSession, type CodegenOptions, type CodegenResult, type CodegenStep } from "./commands/codegen.ts";
export type { Clarification, ModelClient, ChatMessage, Backend } from "./commands/record.ts";
export type { AuthorMode } from "./commands/common.ts";
export type { RunReport, StepReport } from "./report/schema.ts";
export type { TraceHeader, TraceStep } from "./trace/schema.ts";
export { FlowproofError, SpecError, TraceError, PluginError, diagnosticsOf, type Diagnostic, type SourceSpan } from "./diagnostics/diagnostic.ts";
export { errorToJson } from "./diagnostics/render.ts";
/** A process lifecycle to pass as `lifecycle` (its `requestStop` ends the runs given it; it owns what they start); without one a call runs under its own. */
export { Lifecycle, type StopRequest } from "./commands/common.ts";
export * from "./plugins/api.ts";

/** Options of `Flow.record`: those of `flowproof record` (the flow file is the Flow's). */
export type FlowRecordOptions = Omit<RecordOptions, "spec">;
/** Options of `Flow.run`: those of `flowproof run`. */
export type FlowRunOptions = Omit<RunOptions, "spec">;
/** Options of `Flow.heal`: those of `flowproof heal`. */
export type FlowHealOptions = Omit<HealOptions, "spec">;
/** Options of `Flow.getTrace`. */
export type FlowTraceOptions = Omit<GetTraceOptions, "spec">;

/**
 * One flow file, driven the way the CLI drives it.
 *
 * @example
 * ```ts
 * import { Flow } from "flowproof";
 * const flow = new Flow("checkout.flow.yaml");
 * await flow.record({ author: "rules" });
 * const { report } = await flow.run();
 * if (!report.passed) console.log(report.steps.filter((s) => s.status !== "passed"));
 * ```
 *
 * A plain step too ambiguous to author gives `RecordResult.clarification` (no trace is written).
 */
export class Flow {
  /** The flow file, as given. */
  readonly specPath: string;

  constructor(specPath: string) {
    this.specPath = specPath;
  }

  /**
   * Performs the flow once in the live app and writes its trace. A failing step gives `ok: false`.
   * As on the command line, the nearest suite.yaml applies (min_version, env_from, env, server,
   * before_each/after_each, browser defaults, identities).
   */
  record(options: FlowRecordOptions = {}): Promise<RecordResult> {
    return record({ ...options, spec: this.specPath });
  }

  /** Replays the trace with zero model calls and writes the run bundle. A failing flow gives `report.passed === false`. */
  /** Also writes a run record for `flowproof audit` (`record_path`; a record that cannot be written is a logged warning). */
  run(options: FlowRunOptions = {}): Promise<SingleRunResult> {
    // As on the command line: the nearest suite.yaml (env, hooks, server, browser defaults) applies.
    return runInSuiteContext({ ...options, spec: this.specPath });
  }

  /**
   * Re-records against the live app and proposes a diff of the trace (`<stem>.proposed.jsonl` and
   * `<stem>.heal.html`); the trace is only replaced with `apply: true`. `ok: false` when the flow
   * could not be re-recorded (with `clarification` when a step was too ambiguous). The nearest
   * suite.yaml applies as it does to `record`.
   */
  heal(options: FlowHealOptions = {}): Promise<HealResult> {
    return heal({ ...options, spec: this.specPath });
  }

  /** The recorded trace: header and steps. Throws TraceError when there is none. */
  getTrace(options: FlowTraceOptions = {}): Promise<GetTraceResult> {
    return Promise.resolve().then(() => getTrace({ ...options, spec: this.specPath }));
  }

  /**
   * Parses and checks the flow (and the project's plugins) without starting the app. Throws
   * SpecError listing every problem. The nearest suite.yaml's `min_version`, `browser` defaults,
   * `identities` and `env:` names apply; nothing of it runs.
   */
  validate(options: CommonOptions = {}): Promise<ValidateResult> {
    return validateFlow({ ...options, spec: this.specPath });
  }
}
