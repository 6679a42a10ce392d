// Record-time expansion of a planned flow: runs its steps in order and expands repeat/when
// blocks against the live app. Conditions are READ once per decision (one driver call, never the
// engine's poll), and only the passes that ran become trace steps — replay decides nothing.
import type { SourceSpan } from "../diagnostics/diagnostic.ts";
import type { FlowStep } from "../spec/flow.ts";
import type { TraceStep } from "../trace/schema.ts";
import type { Selector } from "../plugins/api.ts";
import type { ExecutionContext } from "./context.ts";
import { redact } from "./context.ts";
import { executeSteps, type StepResult } from "./loop.ts";
import { stepId, type ConditionCheck, type PlanNode } from "./plan.ts";
import { resolveText, UnresolvedReferenceError, UnsetVariableError } from "./templates.ts";
import { describeLadder } from "./handlers/shared.ts";

export interface ExpansionObserver {
  /** A concrete step is about to run (awaited: the run recorder takes its "before" frame here). */
  stepStarted?(step: TraceStep): unknown;
  /** A concrete step finished (or was not reached); `source` is the authored step it came from. Awaited. */
  stepFinished?(step: TraceStep, result: StepResult, source: FlowStep): unknown;
  /** A block decided: how many passes a repeat took, whether a when's body ran. */
  blockDecided?(line: string): void;
  /** A block inside an `in:` block is about to read its condition: bring its surface forward. Awaited. */
  surfaceNeeded?(surface: string): unknown;
}

/** What the authoring loop answers for one round of a plain (intent) step. */
export type AuthoredBatch =
  | {
      readonly ok: true;
      /** Grounded trace steps to perform now (the same step types the rules grammar compiles to). */
      readonly steps: readonly Omit<TraceStep, "id">[];
      /** The step is not finished: perform these, then ask again (`step_continues`). */
      readonly continues: boolean;
    }
  /** The step could not be authored; `error` says why (redacted by the caller). */
  | { readonly ok: false; readonly error: string };

/** Grounds plain intent steps against the live app at record time (src/authoring/). */
export type StepAuthor = (source: FlowStep, round: number) => Promise<AuthoredBatch>;

export interface Expansion {
  /** True when every step passed and every block settled. */
  readonly ok: boolean;
  /** The concrete steps that ran, numbered in the order they ran: the trace when `ok`. */
  readonly steps: readonly TraceStep[];
  /** The authored step each of `steps` came from. */
  readonly sources: readonly FlowStep[];
  /** One per step that ran, then one per later top-level step that was not reached. */
  readonly results: readonly StepResult[];
  /** Why a block stopped the recording (its bound, or a condition that could not be read). */
  readonly error?: string;
}

/** A condition's answer, or why it could not be read (which fails the recording). */
export type ConditionReading = { readonly ok: true; readonly holds: boolean } | { readonly ok: false; readonly error: string };

/** Rounds one plain step may take (`step_continues`) before it is declared runaway. */
const MAX_AUTHOR_ROUNDS = 10;

const where = (span: SourceSpan) => `${span.file}:${span.line}:${span.column}`;

/** Runs `nodes` once against the live app, expanding every block; stops at the first failure. */
export async function expandAndRun(
  nodes: readonly PlanNode[],
  ctx: ExecutionContext,
  observer: ExpansionObserver = {},
  author?: StepAuthor,
): Promise<Expansion> {
  const origin = ctx.clock.now();
  const steps: TraceStep[] = [];
  const sources: FlowStep[] = [];
  const results: StepResult[] = [];
  let stopped = false;
  /** Steps numbered that never became trace steps (not reached, or a plain step that could not be authored). */
  let notReached = 0;
  let error: string | undefined;

  const runStep = async (node: Extract<PlanNode, { kind: "step" }>): Promise<void> => {
    if (node.source.ast.kind === "intent" && !stopped) {
      // A plain step under model authoring: ground it against the scene as it is now, perform
      // what was grounded, and ask again while the model says the step continues.
      for (let round = 0; !stopped; round++) {
        const answer: AuthoredBatch =
          round >= MAX_AUTHOR_ROUNDS
            ? { ok: false, error: `the model kept continuing this step after ${MAX_AUTHOR_ROUNDS} rounds; split it into smaller steps` }
            : author
              ? await author(node.source, round)
              : { ok: false, error: "this plain step needs an authoring model; record with --author rules or write it as `rules: …`" };
        if (!answer.ok) {
          const at = Math.round(ctx.clock.now() - origin);
          results.push({
            id: stepId(steps.length + notReached + 1),
            intent: node.source.text,
            status: "failed",
            detail: redact(answer.error, ctx.secrets),
            started_ms: at,
            duration_ms: 0,
          });
          notReached += 1;
          fail(answer.error);
          return;
        }
        await runBatch({ ...node, steps: answer.steps });
        if (!answer.continues) return;
      }
      return;
    }
    await runBatch(node);
  };

  const runBatch = async (node: Extract<PlanNode, { kind: "step" }>): Promise<void> => {
    // Steps not reached after a failure are numbered on from the ones before them.
    const batch = node.steps.map((s, i) => ({ id: stepId(steps.length + notReached + i + 1), ...s }) as TraceStep);
    if (stopped) {
      notReached += batch.length;
      const at = Math.round(ctx.clock.now() - origin);
      for (const step of batch) {
        const r: StepResult = {
          id: step.id,
          intent: step.intent,
          status: "skipped",
          detail: "not run: an earlier step failed",
          started_ms: at,
          duration_ms: 0,
        };
        results.push(r);
        await observer.stepFinished?.(step, r, node.source);
      }
      return;
    }
    // executeSteps times each batch from its own start; shift onto the expansion's clock.
    const offset = Math.round(ctx.clock.now() - origin);
    const ran = await executeSteps(batch, ctx, {
      stepStarted: (step) => observer.stepStarted?.(step),
      stepFinished: (step, r) => observer.stepFinished?.(step, { ...r, started_ms: r.started_ms + offset }, node.source),
    });
    for (const [i, r] of ran.entries()) {
      const step = batch[i]!;
      // A passed step records the rungs the surface read from the live element first, when it has them.
      const live = r.status === "passed" && step.selectors.length > 0 ? await ctx.driver.recordedLadder?.(step.selectors) : undefined;
      steps.push(live ? { ...step, selectors: [...live] } : step);
      sources.push(node.source);
      results.push({ ...r, started_ms: r.started_ms + offset });
    }
    if (ran.some((r) => r.status !== "passed")) stopped = true;
  };

  const fail = (message: string) => {
    error = redact(message, ctx.secrets);
    stopped = true;
  };

  const runNodes = async (list: readonly PlanNode[]): Promise<void> => {
    for (const node of list) {
      if (node.kind === "step") {
        await runStep(node);
        continue;
      }
      // A block after a failure is not expanded: how many passes it would take is unknowable.
      if (stopped) continue;
      if (node.surface !== undefined) await observer.surfaceNeeded?.(node.surface);
      if (node.kind === "when") {
        const r = await readCondition(node.condition.check, ctx);
        if (!r.ok) {
          fail(`when at ${where(node.span)}: ${r.error}`);
          continue;
        }
        observer.blockDecided?.(
          `when (line ${node.span.line}): ${node.condition.text} — ${r.holds ? "holds, running its steps" : "does not hold, skipping its steps"}`,
        );
        if (r.holds) await runNodes(node.body);
        continue;
      }
      for (let pass = 0; ; pass++) {
        const r = await readCondition(node.until.check, ctx);
        if (!r.ok) {
          fail(`repeat at ${where(node.span)}: ${r.error}`);
          break;
        }
        if (r.holds) {
          observer.blockDecided?.(`repeat (line ${node.span.line}): until ${node.until.text} — held after ${pass} ${pass === 1 ? "pass" : "passes"}`);
          break;
        }
        if (pass === node.max) {
          fail(
            `repeat at ${where(node.span)} reached its bound of max: ${node.max} ${node.max === 1 ? "pass" : "passes"} and \`${node.until.text}\` still does not hold; raise \`max:\` or fix the condition`,
          );
          break;
        }
        await runNodes(node.body);
        if (stopped) break;
      }
    }
  };

  await runNodes(nodes);
  return { ok: !stopped, steps, sources, results, ...(error !== undefined ? { error } : {}) };
}

/**
 * Reads a condition once. A missing element makes a positive `shows` / `is visible` false and
 * `is not visible` true — the reading an assertion would take — and the comparison is numeric:
 * a side that does not read as a number is an error that quotes it.
 */
export async function readCondition(check: ConditionCheck, ctx: ExecutionContext): Promise<ConditionReading> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<ConditionReading>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, error: `the app stopped responding: the condition could not be read within ${CONDITION_GUARD_MS} ms` }),
      CONDITION_GUARD_MS,
    );
  });
  try {
    return await Promise.race([readOnce(check, ctx), guard]);
  } finally {
    clearTimeout(timer);
  }
}

/** A reading is one driver call; past this the page is declared unresponsive rather than waited on. */
const CONDITION_GUARD_MS = 30_000;

async function readOnce(check: ConditionCheck, ctx: ExecutionContext): Promise<ConditionReading> {
  try {
    switch (check.kind) {
      case "page_shows": {
        const text = resolveText(check.text, ctx).value;
        const reading = await ctx.driver.check([], check.negate ? { kind: "text_absent", text } : { kind: "text_contains", text });
        return { ok: true, holds: reading.pass };
      }
      case "shows": {
        const text = resolveText(check.text, ctx).value;
        return { ok: true, holds: (await ctx.driver.check(check.ladder, { kind: "text_contains", text })).pass };
      }
      case "visible":
        return { ok: true, holds: (await ctx.driver.check(check.ladder, { kind: "visible", visible: !check.negate })).pass };
      case "compare": {
        const left = await readNumber(check.left, ctx);
        if (!left.ok) return left;
        const right = await readNumber(check.right, ctx);
        if (!right.ok) return right;
        return { ok: true, holds: check.op === "gt" ? left.value > right.value : left.value < right.value };
      }
    }
  } catch (e) {
    // An unset ${VAR} is missing configuration: it errors the step (loop.ts), never reads as false.
    if (e instanceof UnresolvedReferenceError && !(e instanceof UnsetVariableError)) return { ok: false, error: e.message };
    throw e;
  }
}

/** `1234`, `-3.5`, `1,234.50`, with surrounding whitespace; nothing else reads as a number. */
const NUMBER = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?$/;

/** Parses a reading as a number, or undefined when it is not one. */
export function parseReadNumber(text: string): number | undefined {
  const t = text.trim();
  if (t === "" || !/\d/.test(t) || !NUMBER.test(t)) return undefined;
  const n = Number(t.replace(/,/g, ""));
  return Number.isFinite(n) ? n : undefined;
}

async function readNumber(ladder: readonly Selector[], ctx: ExecutionContext): Promise<{ ok: true; value: number } | { ok: false; error: string }> {
  const what = describeLadder(ladder);
  const read = await ctx.driver.readText(ladder);
  if (!read.ok) return { ok: false, error: `${what} could not be read for the comparison: ${read.detail}` };
  const n = parseReadNumber(read.value);
  if (n === undefined) return { ok: false, error: `${what} reads ${JSON.stringify(read.value.trim())}, which is not a number, so it cannot be compared` };
  return { ok: true, value: n };
}
