// The engine's one auto-wait loop: repeats a single-attempt probe until it succeeds, says stop,
// or the bound expires. Backoff keeps the first retries fast and later ones cheap.
import type { Clock } from "./context.ts";

const BACKOFF_MS = [0, 10, 20, 50, 100, 100, 250];

export type PollStep<T> = { readonly done: true; readonly value: T } | { readonly done: false; readonly retryable: boolean; readonly last: T };

/**
 * Runs `attempt` until done, not retryable, or `timeoutMs` passed; returns the final answer and
 * whether it timed out. `changed` (the surface's AppDriver.untilChange), armed before each retry
 * reads (and after a first attempt that did not hold), ends the interval before the next attempt
 * early: the retry follows the change it waits for, not the backoff. It never delays an attempt
 * or moves the deadline.
 */
export async function poll<T>(
  clock: Clock,
  timeoutMs: number,
  attempt: () => Promise<PollStep<T>>,
  changed?: () => Promise<void>,
): Promise<{ value: T; ok: boolean; timedOut: boolean }> {
  const deadline = clock.now() + timeoutMs;
  /** Armed before the attempt it follows reads, so a change while that attempt reads ends the interval at once. */
  let wake: Promise<void> | undefined;
  for (let i = 0; ; i++) {
    const r = await attempt();
    if (r.done) return { value: r.value, ok: true, timedOut: false };
    if (!r.retryable) return { value: r.last, ok: false, timedOut: false };
    const remaining = deadline - clock.now();
    if (remaining <= 0) return { value: r.last, ok: false, timedOut: true };
    // Never sleep past the deadline, and always take one last attempt at it.
    const interval = Math.min(BACKOFF_MS[Math.min(i, BACKOFF_MS.length - 1)]!, remaining);
    wake ??= changed?.();
    await (wake && interval > 0 ? Promise.race([clock.sleep(interval), wake]) : clock.sleep(interval));
    if (interval > 0) wake = changed?.();
  }
}
