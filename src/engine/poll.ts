// The engine's one auto-wait loop: repeats a single-attempt probe until it succeeds, says stop,
// or the bound expires. Backoff keeps the first retries fast and later ones cheap.
import type { Clock } from "./context.ts";

const BACKOFF_MS = [0, 10, 20, 50, 100, 100, 250];

export type PollStep<T> = { readonly done: true; readonly value: T } | { readonly done: false; readonly retryable: boolean; readonly last: T };

/** Runs `attempt` until done, not retryable, or `timeoutMs` passed; returns the final answer and whether it timed out. */
export async function poll<T>(clock: Clock, timeoutMs: number, attempt: () => Promise<PollStep<T>>): Promise<{ value: T; ok: boolean; timedOut: boolean }> {
  const deadline = clock.now() + timeoutMs;
  for (let i = 0; ; i++) {
    const r = await attempt();
    if (r.done) return { value: r.value, ok: true, timedOut: false };
    if (!r.retryable) return { value: r.last, ok: false, timedOut: false };
    const remaining = deadline - clock.now();
    if (remaining <= 0) return { value: r.last, ok: false, timedOut: true };
    // Never sleep past the deadline, and always take one last attempt at it.
    await clock.sleep(Math.min(BACKOFF_MS[Math.min(i, BACKOFF_MS.length - 1)]!, remaining));
  }
}
