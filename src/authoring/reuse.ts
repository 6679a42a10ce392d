// Incremental re-record (`record --reuse`): the old trace's steps grouped by the authored step
// they came from, handed back verbatim to a plain step whose intent still matches and whose
// target still resolves. Only drifted or new steps go to the model.
import type { TraceStep } from "../trace/schema.ts";
import type { ExecutionContext } from "../engine/context.ts";
import { poll } from "../engine/poll.ts";

/** Consecutive old trace steps sharing one intent: what one authored step recorded. */
export interface ReuseGroup {
  readonly intent: string;
  readonly steps: readonly Omit<TraceStep, "id">[];
}

/** Groups a trace's steps by consecutive intent, dropping ids and recording ranges. */
export function groupTrace(steps: readonly TraceStep[]): ReuseGroup[] {
  const groups: Array<{ intent: string; steps: Omit<TraceStep, "id">[] }> = [];
  for (const { id: _id, ...step } of steps) {
    const { recording: _r, ...artifacts } = step.artifacts;
    const clean = { ...step, artifacts };
    const last = groups.at(-1);
    if (last && last.intent === step.intent) last.steps.push(clean);
    else groups.push({ intent: step.intent, steps: [clean] });
  }
  return groups;
}

/** Hands out old groups in order: each authored step may take the next unused group with its intent. */
export class ReusePool {
  readonly #groups: readonly ReuseGroup[];
  #cursor = 0;

  constructor(groups: readonly ReuseGroup[]) {
    this.#groups = groups;
  }

  /** The next unused group for `intent` (at or after the cursor), without taking it. */
  candidate(intent: string): { group: ReuseGroup; index: number } | undefined {
    for (let i = this.#cursor; i < this.#groups.length; i++) {
      const g = this.#groups[i]!;
      if (g.intent === intent) return { group: g, index: i };
    }
    return undefined;
  }

  take(index: number): void {
    this.#cursor = index + 1;
  }
}

/** Whether the group's first targeted step still names an element now (bounded wait). */
export async function stillResolves(group: ReuseGroup, ctx: ExecutionContext, timeoutMs: number): Promise<boolean> {
  const first = group.steps.find((s) => s.selectors.length > 0 && s.action.type !== "assert");
  if (!first) return true;
  const r = await poll(ctx.clock, timeoutMs, async () => {
    const n = await ctx.driver.count(first.selectors);
    return n > 0 ? { done: true, value: n } : { done: false, retryable: true, last: n };
  });
  return r.ok;
}
