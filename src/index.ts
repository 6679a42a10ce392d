// The library API: the same commands the CLI runs, as typed functions. A failing flow is a
// result (`report.passed === false`), not an exception; problems that stop a command from
// running at all (a bad flow file, a missing trace) throw a FlowproofError with diagnostics.
export { record, type RecordOptions, type RecordResult, type RoutingEntry, type Route } from "./commands/record.ts";
export { run, type RunOptions, type RunResult } from "./commands/run.ts";
export { validate, type ValidateOptions, type ValidateResult } from "./commands/validate.ts";
export type { AuthorMode } from "./commands/common.ts";
export type { RunReport, StepReport } from "./report/schema.ts";
export type { TraceHeader, TraceStep } from "./trace/schema.ts";
export { FlowproofError, SpecError, TraceError, type Diagnostic, type SourceSpan } from "./diagnostics/diagnostic.ts";
export * from "./plugins/api.ts";
