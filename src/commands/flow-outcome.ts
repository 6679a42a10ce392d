// Synthetic run reports for flows that did not replay (skipped, errored before start) and the
// resolution of a passing flow's `exports:`. Pure apart from the clock-free Date of `started_at`.
import type { RunReport } from "../report/schema.ts";
import type { StepResult } from "../engine/loop.ts";
import { resolveText, UnresolvedReferenceError } from "../engine/templates.ts";
import type { ExecutionContext } from "../engine/context.ts";
import { redact } from "../engine/context.ts";
import { FLOWPROOF_VERSION } from "../version.ts";
import type { FlowExports } from "../spec/suite-keys.ts";

function oneStepReport(
  name: string,
  specPath: string,
  tracePath: string,
  traceId: "skipped" | "errored",
  status: "skipped" | "errored",
  detail: string,
): RunReport {
  return {
    name,
    trace_id: traceId,
    passed: status === "skipped",
    outcome: status,
    steps: [{ id: "s0001", intent: status === "skipped" ? "flow skipped" : "flow could not run", status, detail, started_ms: 0, duration_ms: 0 }],
    duration_ms: 0,
    started_at: new Date().toISOString(),
    flowproof_version: FLOWPROOF_VERSION,
    spec_path: specPath,
    trace_path: tracePath,
    ...(status === "errored" ? { error: detail } : {}),
  };
}

/** A skipped flow: `trace_id: "skipped"`, passed, one skipped step carrying the reason. */
export function skippedReport(name: string, specPath: string, tracePath: string, reason: string): RunReport {
  return oneStepReport(name, specPath, tracePath, "skipped", "skipped", reason);
}

/** A flow that could not run at all (bad spec, failing hook, unreadable trace): `trace_id: "errored"`, one errored step. */
export function erroredReport(name: string, specPath: string, tracePath: string, reason: string): RunReport {
  return oneStepReport(name, specPath, tracePath, "errored", "errored", reason);
}

/**
 * Resolves `exports:` from the flow's captures and env. An export that cannot resolve fails the
 * flow's last step (the flow exports nothing); values never leave memory.
 */
export function resolveExports(
  exports: FlowExports,
  ctx: Pick<ExecutionContext, "env" | "captures" | "secrets">,
  results: readonly StepResult[],
): { results: StepResult[]; values?: Record<string, string> } {
  const values: Record<string, string> = {};
  for (const [name, template] of Object.entries(exports)) {
    try {
      values[name] = resolveText(template, ctx).value;
    } catch (error) {
      if (!(error instanceof UnresolvedReferenceError)) throw error;
      const last = results[results.length - 1]!;
      const detail = redact(`export ${name} could not be resolved: ${error.message}`, ctx.secrets);
      return { results: [...results.slice(0, -1), { ...last, status: "failed", detail }] };
    }
  }
  return { results: [...results], values };
}
