// The one step loop serving record and replay: runs trace steps in order through the handler
// registry, stops at the first failure (later steps are reported skipped), and redacts every
// detail. Timestamps come from the injected clock only.
import type { TraceStep } from "../trace/schema.ts";
import { HANDLERS, type StepOutcome } from "./handlers/index.ts";
import type { AgentRunReport, StepLine } from "./handlers/shared.ts";
import { redact, type ExecutionContext } from "./context.ts";
import { UnresolvedReferenceError, UnsetVariableError } from "./templates.ts";
import type { StopRequest } from "../plugins/lifecycle.ts";
import { withEffect, type EffectReport } from "./effects.ts";

export type StepStatus = "passed" | "failed" | "skipped" | "errored";

export interface StepResult {
  readonly id: string;
  readonly intent: string;
  readonly status: StepStatus;
  readonly detail?: string;
  /** Offset from the start of the execution, ms. */
  readonly started_ms: number;
  readonly duration_ms: number;
  readonly selector_tier?: string;
  /** Evidence files of a failed assertion, relative to the run bundle. */
  readonly evidence?: string[];
  /** An agent run's conversation (see AgentRunReport). */
  readonly agent?: AgentRunReport;
  /** An agent run: one line per authored step, reported in place of this step (see `reportLines`). */
  readonly lines?: readonly StepLine[];
  /** A failed assertion: what it expected, what the app showed, what to check (redacted like `detail`). */
  readonly expected?: string;
  readonly actual?: string;
  readonly hint?: string;
  /** The action's effect: recorded and seen, whether it was compared, a warning (see effects.ts). */
  readonly effect?: EffectReport;
}

export interface LoopObserver {
  /** A returned promise is awaited before the action (the run recorder captures its before-frame). */
  stepStarted?(step: TraceStep, index: number): unknown;
  /** A returned promise is awaited before the next step (the run recorder captures its after-frame). */
  stepFinished?(step: TraceStep, result: StepResult): unknown;
}

/** Extra time a step may take beyond its own bounds before the page is declared unresponsive. */
const HANG_GUARD_MS = 30_000;

/** The bound an action carries in its params: an expectation's, a structured assertion's, a download's or an agent run's. */
function paramsBoundMs(a: TraceStep["action"]): number {
  switch (a.type) {
    case "assert":
    case "wait":
      return a.params.kind === "element_state" ? a.params.expect.timeout_ms : a.params.kind === "structured" ? (a.params.timeout_ms ?? 0) : 0;
    case "capture_download":
    case "agent_run":
      return a.params.timeout_ms ?? 0;
    default:
      return 0;
  }
}

function boundOf(step: TraceStep): number {
  const fromSync = step.sync.pre.reduce((m, c) => Math.max(m, c.timeout_ms), 0);
  return Math.max(paramsBoundMs(step.action), fromSync, 0);
}

const interruptedDuring = (request: StopRequest): StepOutcome => ({
  status: "errored",
  detail: `interrupted: the run was stopped (${request.reason}) during this step`,
});

/** Runs the step's handler with its effect observed; a recorded effect that did not happen again fails a passing action. */
async function runObserved(step: TraceStep, ctx: ExecutionContext): Promise<StepOutcome & { effect?: EffectReport }> {
  const { outcome, effect } = await withEffect(step, ctx, () => HANDLERS[step.action.type](step, ctx));
  if (!effect) return outcome;
  if (effect.failure !== undefined && outcome.status === "passed") {
    return {
      status: "failed",
      detail: effect.failure,
      ...(outcome.tier ? { tier: outcome.tier } : {}),
      hint: "the app no longer does what this step did when it was recorded: check the change, or re-record the flow (flowproof heal) if it is intended",
      effect: effect.report,
    };
  }
  return { ...outcome, effect: effect.report };
}

async function executeOne(step: TraceStep, ctx: ExecutionContext, stop: AbortSignal): Promise<StepOutcome & { effect?: EffectReport }> {
  // A stop request ends the step at once; the caller then closes the surface under the handler.
  if (stop.aborted) return interruptedDuring(stop.reason as StopRequest);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<StepOutcome>((resolve) => {
    const ms = boundOf(step) + ctx.navigationTimeoutMs + HANG_GUARD_MS;
    timer = setTimeout(() => resolve({ status: "errored", detail: `the app stopped responding: the step did not finish within ${ms} ms` }), ms);
  });
  let onStop: (() => void) | undefined;
  const stopped = new Promise<StepOutcome>((resolve) => {
    onStop = () => resolve(interruptedDuring(stop.reason as StopRequest));
    stop.addEventListener("abort", onStop, { once: true });
  });
  try {
    return await Promise.race([runObserved(step, ctx), guard, stopped]);
  } catch (error) {
    // Missing configuration is an error of the run, not a failure of the app under test.
    if (error instanceof UnsetVariableError) return { status: "errored", detail: error.message };
    if (error instanceof UnresolvedReferenceError) return { status: "failed", detail: error.message };
    const message = error instanceof Error ? error.message : String(error);
    return { status: "errored", detail: `driver fault: ${message}` };
  } finally {
    clearTimeout(timer);
    if (onStop) stop.removeEventListener("abort", onStop);
  }
}

/** The stop of steps run without one: never aborted. */
const NEVER_STOPS: AbortSignal = new AbortController().signal;

/**
 * Runs `steps` in order; after the first failing step the rest are `skipped`. When the process is
 * asked to stop (`stop`, default the run's: `ctx.stop`), the running step ends as `errored`
 * with an `interrupted:` detail and no further step starts.
 */
export async function executeSteps(
  steps: readonly TraceStep[],
  ctx: ExecutionContext,
  observer: LoopObserver = {},
  stop: AbortSignal = ctx.stop ?? NEVER_STOPS,
): Promise<StepResult[]> {
  const origin = ctx.clock.now();
  const results: StepResult[] = [];
  let stopped = false;
  for (const [index, step] of steps.entries()) {
    const started = ctx.clock.now();
    if (!stopped && stop.aborted) {
      // Stopped before this step began: it is the step the run was interrupted at.
      const r: StepResult = {
        id: step.id,
        intent: step.intent,
        status: "errored",
        detail: `interrupted: the run was stopped (${(stop.reason as StopRequest).reason}) before this step`,
        started_ms: Math.round(started - origin),
        duration_ms: 0,
      };
      results.push(r);
      await observer.stepFinished?.(step, r);
      stopped = true;
      continue;
    }
    if (stopped) {
      const r: StepResult = {
        id: step.id,
        intent: step.intent,
        status: "skipped",
        detail: stop.aborted ? "not run: the run was interrupted" : "not run: an earlier step failed",
        started_ms: Math.round(started - origin),
        duration_ms: 0,
      };
      results.push(r);
      await observer.stepFinished?.(step, r);
      continue;
    }
    await observer.stepStarted?.(step, index);
    const outcome = await executeOne(step, ctx, stop);
    // assert_no_secret_leak's corpus: the surface text at every step boundary.
    if (ctx.structured?.leaks.active) await ctx.structured.leaks.scanSurface(ctx.driver, `surface text after step ${step.id}`);
    const ended = ctx.clock.now();
    const r: StepResult = {
      id: step.id,
      intent: step.intent,
      status: outcome.status,
      ...(outcome.detail ? { detail: redact(outcome.detail, ctx.secrets) } : {}),
      // Both from offsets rounded once, so ranges never overlap by a rounding step.
      started_ms: Math.round(started - origin),
      duration_ms: Math.round(ended - origin) - Math.round(started - origin),
      ...(outcome.tier ? { selector_tier: outcome.tier } : {}),
      ...(outcome.evidence ? { evidence: [...outcome.evidence] } : {}),
      ...(outcome.agent ? { agent: outcome.agent } : {}),
      ...(outcome.lines ? { lines: outcome.lines.map((l) => ({ ...l, ...(l.detail !== undefined ? { detail: redact(l.detail, ctx.secrets) } : {}) })) } : {}),
      ...(outcome.expected !== undefined ? { expected: redact(outcome.expected, ctx.secrets) } : {}),
      ...(outcome.actual !== undefined ? { actual: redact(outcome.actual, ctx.secrets) } : {}),
      ...(outcome.hint !== undefined ? { hint: redact(outcome.hint, ctx.secrets) } : {}),
      ...(outcome.effect ? { effect: outcome.effect } : {}),
    };
    results.push(r);
    await observer.stepFinished?.(step, r);
    if (outcome.status !== "passed") stopped = true;
  }
  return results;
}

/**
 * The results as reports list them: a step that ran several authored steps (an agent run's
 * prompts, follow-ups and assertions) becomes one line each, `<id>.1`, `<id>.2`, …; the first line
 * carries the step's time and its conversation.
 */
export function reportLines(results: readonly StepResult[]): StepResult[] {
  return results.flatMap((r): StepResult[] => {
    if (!r.lines || r.lines.length === 0) return [r];
    const { lines, agent, effect: _effect, selector_tier: _tier, detail: _detail, expected: _expected, actual: _actual, hint: _hint, ...rest } = r;
    return lines.map(
      (l, i): StepResult => ({
        ...rest,
        id: `${r.id}.${i + 1}`,
        intent: l.intent,
        status: l.status,
        ...(l.detail !== undefined ? { detail: l.detail } : {}),
        duration_ms: i === 0 ? r.duration_ms : 0,
        ...(i === 0 && agent ? { agent } : {}),
      }),
    );
  });
}
