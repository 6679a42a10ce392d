// What one execution of a flow (record or replay) needs besides its surface: the step timeout and
// the context of its structured steps.
import { dirname } from "node:path";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import type { AssertionPlugin, RunMode } from "../plugins/api.ts";
import type { StructuredContext } from "../engine/context.ts";
import { LeakWatch, leakVariables } from "../engine/secret-scan.ts";
import type { TraceStep } from "../trace/schema.ts";
import { DEFAULT_STEP_TIMEOUT_MS } from "../engine/compile.ts";
import { flowStem } from "./paths.ts";
import { assertionKinds } from "./project-plugins.ts";

export function stepTimeoutFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env["FLOWPROOF_STEP_TIMEOUT_MS"];
  if (raw === undefined || raw === "") return DEFAULT_STEP_TIMEOUT_MS;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n <= 0) {
    throw new SpecError(diagnostic("bad-value", `FLOWPROOF_STEP_TIMEOUT_MS must be a whole number of milliseconds, not ${JSON.stringify(raw)}`, { hint: "FLOWPROOF_STEP_TIMEOUT_MS=5000" }));
  }
  return n;
}

/** What structured steps need for one execution; `secrets` gains the watched values. */
export function structuredContext(options: {
  readonly flowPath: string; readonly mode: RunMode; readonly artifactDir: string; readonly assertions: readonly AssertionPlugin[];
  readonly steps: readonly TraceStep[]; readonly env: Readonly<Record<string, string | undefined>>; readonly secrets: Map<string, string>; readonly log: (line: string) => void;
}): StructuredContext {
  return {
    assertions: assertionKinds(options.assertions),
    mode: options.mode,
    baseDir: dirname(options.flowPath),
    flowStem: flowStem(options.flowPath),
    artifactDir: options.artifactDir,
    log: options.log,
    leaks: new LeakWatch(leakVariables(options.steps), options.env, options.secrets),
  };
}
