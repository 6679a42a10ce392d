// `--repeat-each N`: a flow replayed N times is one verdict. The same verdict every time is that
// verdict; passing in some repeats and not in others is FLAKY — a verdict that can differ between
// two runs of the same app — naming the steps whose outcome differed. Pure.
import type { RunOutcome, RunReport, StepReport } from "../report/schema.ts";

import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";

/** The most repeats a flow may be given. */
export const MAX_REPEAT_EACH = 100;

/** Refuses repeats beside retries (a retry would hide the flakiness the repeats look for) and a count out of range. */
export function checkRepeatOptions(options: { readonly repeatEach?: number; readonly retries?: number }): void {
  const n = options.repeatEach;
  if (n === undefined) return;
  if (!Number.isInteger(n) || n < 1 || n > MAX_REPEAT_EACH)
    throw new SpecError(diagnostic("bad-value", `repeatEach must be a whole number from 1 to ${MAX_REPEAT_EACH}, not ${n}`, { hint: "e.g. repeatEach: 5" }));
  if (n > 1 && (options.retries ?? 0) > 0)
    throw new SpecError(
      diagnostic("bad-value", "repeatEach and retries contradict each other: a retry would hide the flakiness the repeats look for", {
        hint: "repeat without retries to find flaky flows",
      }),
    );
}

/** Outcomes that count as the flow holding: it passed, or failed exactly as it declares it does. */
const HOLDS: ReadonlySet<RunOutcome> = new Set<RunOutcome>(["passed", "expected_failure", "skipped"]);

/**
 * The report of `reports` (one per repeat, in order; `runs` their bundles, relative to the
 * combined report's): the first repeat that did not hold, or the last one when all held, with
 * `repeat` saying how each went; `flaky` when some held and some did not.
 */
export function combineRepeats(reports: readonly RunReport[], runs: readonly string[]): RunReport {
  const last = reports[reports.length - 1];
  if (last === undefined) throw new RangeError("combineRepeats needs at least one report");
  const held = reports.filter((r) => HOLDS.has(r.outcome));
  const base = reports.find((r) => !HOLDS.has(r.outcome)) ?? last;
  const repeat = { of: reports.length, outcomes: reports.map((r) => r.outcome), runs: [...runs] };
  if (held.length === 0 || held.length === reports.length) return { ...base, repeat };
  const steps = differingSteps(reports);
  const summary = `${held.length} of ${reports.length} repeats passed${steps.length > 0 ? `; ${steps.map((s) => `${s.id} ${s.outcomes.join("/")}`).join(", ")}` : ""}`;
  return { ...base, passed: false, outcome: "flaky", repeat, flaky: { summary, steps } };
}

/** Each step whose status was not the same in every repeat, with its statuses in repeat order and one failure's detail. */
export function differingSteps(reports: readonly RunReport[]): { id: string; intent: string; outcomes: StepReport["status"][]; detail?: string }[] {
  const ids = [...new Set(reports.flatMap((r) => r.steps.map((s) => s.id)))];
  const out: { id: string; intent: string; outcomes: StepReport["status"][]; detail?: string }[] = [];
  for (const id of ids) {
    const seen = reports.map((r) => r.steps.find((s) => s.id === id));
    const outcomes = seen.map((s) => s?.status ?? "skipped");
    if (new Set(outcomes).size <= 1) continue;
    const failing = seen.find((s) => s && s.status !== "passed" && s.status !== "skipped" && s.detail);
    const intent = seen.find((s) => s)?.intent ?? id;
    out.push({ id, intent, outcomes, ...(failing?.detail ? { detail: failing.detail } : {}) });
  }
  return out;
}
