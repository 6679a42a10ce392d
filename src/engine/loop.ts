// The one step loop serving record and replay: runs trace steps in order through the handler
// registry, stops at the first failure (later steps are reported skipped), and redacts every
// detail. Timestamps come from the injected clock only.
import type { TraceStep } from "../trace/schema.ts";
import { HANDLERS, type StepOutcome } from "./handlers/index.ts";
import { redact, type ExecutionContext } from "./context.ts";
import { UnresolvedReferenceError, UnsetVariableError } from "./templates.ts";

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
}

export interface LoopObserver {
  /** A returned promise is awaited before the action (the run recorder captures its before-frame). */
  stepStarted?(step: TraceStep, index: number): unknown;
  /** A returned promise is awaited before the next step (the run recorder captures its after-frame). */
  stepFinished?(step: TraceStep, result: StepResult): unknown;
}

/** Extra time a step may take beyond its own bounds before the page is declared unresponsive. */
const HANG_GUARD_MS = 30_000;

function boundOf(step: TraceStep): number {
  const expect = step.action.params["expect"] as Record<string, unknown> | undefined;
  const fromExpect = expect && typeof expect["timeout_ms"] === "number" ? expect["timeout_ms"] : 0;
  const fromSync = step.sync.pre.reduce((m, c) => Math.max(m, c.timeout_ms), 0);
  // Steps with their own bound and no expectation (capture_download).
  const fromParams = typeof step.action.params["timeout_ms"] === "number" ? step.action.params["timeout_ms"] : 0;
  return Math.max(fromExpect, fromSync, fromParams, 0);
}

async function executeOne(step: TraceStep, ctx: ExecutionContext): Promise<StepOutcome> {
  const handler = HANDLERS[step.action.type];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<StepOutcome>((resolve) => {
    const ms = boundOf(step) + ctx.navigationTimeoutMs + HANG_GUARD_MS;
    timer = setTimeout(() => resolve({ status: "errored", detail: `the app stopped responding: the step did not finish within ${ms} ms` }), ms);
  });
  try {
    return await Promise.race([handler(step, ctx), guard]);
  } catch (error) {
    // Missing configuration is an error of the run, not a failure of the app under test.
    if (error instanceof UnsetVariableError) return { status: "errored", detail: error.message };
    if (error instanceof UnresolvedReferenceError) return { status: "failed", detail: error.message };
    const message = error instanceof Error ? error.message : String(error);
    return { status: "errored", detail: `driver fault: ${message}` };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `steps` in order; after the first failing step the rest are `skipped`. */
export async function executeSteps(steps: readonly TraceStep[], ctx: ExecutionContext, observer: LoopObserver = {}): Promise<StepResult[]> {
  const origin = ctx.clock.now();
  const results: StepResult[] = [];
  let stopped = false;
  for (const [index, step] of steps.entries()) {
    const started = ctx.clock.now();
    if (stopped) {
      const r: StepResult = { id: step.id, intent: step.intent, status: "skipped", detail: "not run: an earlier step failed", started_ms: Math.round(started - origin), duration_ms: 0 };
      results.push(r);
      await observer.stepFinished?.(step, r);
      continue;
    }
    await observer.stepStarted?.(step, index);
    const outcome = await executeOne(step, ctx);
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
    };
    results.push(r);
    await observer.stepFinished?.(step, r);
    if (outcome.status !== "passed") stopped = true;
  }
  return results;
}
