import { describe, expect, test } from "bun:test";
import type { Clock } from "./context.ts";
import { poll, type PollStep } from "./poll.ts";

/** A manual clock: `sleep` advances `now` at once and records every sleep. */
function manualClock(start = 1_000): Clock & { sleeps: number[] } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

/** An attempt function that answers from a script, then repeats the last answer; counts calls. */
function scripted<T>(answers: readonly PollStep<T>[]): { attempt: () => Promise<PollStep<T>>; calls: () => number } {
  let i = 0;
  return {
    attempt: async () => answers[Math.min(i++, answers.length - 1)]!,
    calls: () => i,
  };
}

const notYet = (last: string): PollStep<string> => ({ done: false, retryable: true, last });

describe("poll", () => {
  test("returns at once when the first attempt is done", async () => {
    const clock = manualClock();
    const s = scripted<string>([{ done: true, value: "ok" }]);
    expect(await poll(clock, 1_000, s.attempt)).toEqual({ value: "ok", ok: true, timedOut: false });
    expect(s.calls()).toBe(1);
    expect(clock.sleeps).toEqual([]);
  });

  test("retries with growing backoff until the attempt is done", async () => {
    const clock = manualClock();
    const s = scripted<string>([notYet("a"), notYet("b"), notYet("c"), notYet("d"), { done: true, value: "e" }]);
    expect(await poll(clock, 10_000, s.attempt)).toEqual({ value: "e", ok: true, timedOut: false });
    expect(s.calls()).toBe(5);
    expect(clock.sleeps).toEqual([0, 10, 20, 50]);
  });

  test("stops at once when an attempt is not retryable and returns its last answer", async () => {
    const clock = manualClock();
    const s = scripted<string>([notYet("a"), { done: false, retryable: false, last: "fatal" }, { done: true, value: "never" }]);
    expect(await poll(clock, 10_000, s.attempt)).toEqual({ value: "fatal", ok: false, timedOut: false });
    expect(s.calls()).toBe(2);
  });

  test("times out within the bound and reports the last answer", async () => {
    const clock = manualClock(5_000);
    let n = 0;
    const result = await poll(clock, 1_000, async () => notYet(`try ${++n}`));
    expect(result).toEqual({ value: `try ${n}`, ok: false, timedOut: true });
    expect(clock.now() - 5_000).toBeLessThanOrEqual(1_000);
    expect(n).toBeGreaterThan(3);
  });

  test("never sleeps past the deadline", async () => {
    for (const timeoutMs of [0, 1, 15, 99, 250, 1_000, 2_345]) {
      const clock = manualClock(0);
      await poll(clock, timeoutMs, async () => notYet("x"));
      expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(timeoutMs);
      expect(clock.now()).toBeLessThanOrEqual(timeoutMs);
    }
  });

  test("makes one attempt and times out for a zero bound", async () => {
    const clock = manualClock();
    const s = scripted<string>([notYet("only")]);
    expect(await poll(clock, 0, s.attempt)).toEqual({ value: "only", ok: false, timedOut: true });
    expect(s.calls()).toBe(1);
    expect(clock.sleeps).toEqual([]);
  });

  test("caps the backoff at 250 ms", async () => {
    const clock = manualClock(0);
    await poll(clock, 5_000, async () => notYet("x"));
    expect(Math.max(...clock.sleeps)).toBe(250);
    expect(clock.sleeps.slice(0, 7)).toEqual([0, 10, 20, 50, 100, 100, 250]);
  });
});

describe("poll at the deadline", () => {
  test("takes one last attempt at the deadline instead of giving up early", async () => {
    const clock = manualClock(0);
    const r = await poll<number>(clock, 1_000, async () => (clock.now() >= 900 ? { done: true, value: 1 } : { done: false, retryable: true, last: 0 }));
    expect(r.ok).toBe(true);
    expect(clock.now()).toBeLessThanOrEqual(1_000);
  });
});

describe("poll woken by a change of the surface", () => {
  /** A clock whose intervals never end by themselves: only a change can start the next attempt. */
  function stuckClock(): Clock & { sleeps: number[] } {
    const sleeps: number[] = [];
    return {
      sleeps,
      now: () => 0,
      sleep: (ms) => {
        sleeps.push(ms);
        return ms === 0 ? Promise.resolve() : new Promise<void>(() => undefined);
      },
    };
  }

  test("a change the surface reports ends the interval, and the next attempt reads at once", async () => {
    const clock = stuckClock();
    const s = scripted<string>([notYet("a"), notYet("b"), notYet("c"), { done: true, value: "shown" }]);
    let armed = 0;
    const changed = () => {
      armed++;
      return Promise.resolve();
    };
    expect(await poll(clock, 10_000, s.attempt, changed)).toEqual({ value: "shown", ok: true, timedOut: false });
    expect(s.calls()).toBe(4);
    // Armed before each retry reads: after the first attempt, then once per interval.
    expect(armed).toBe(3);
  });

  test("without a change the backoff interval stands", async () => {
    const clock = manualClock(0);
    const s = scripted<string>([notYet("a"), notYet("b"), notYet("c"), { done: true, value: "shown" }]);
    const never = () => new Promise<void>(() => undefined);
    expect((await poll(clock, 10_000, s.attempt, never)).ok).toBe(true);
    expect(clock.sleeps).toEqual([0, 10, 20]);
  });

  test("a change never moves the deadline", async () => {
    let now = 0;
    const clock: Clock = { now: () => now, sleep: async (ms) => void (now += ms) };
    const changed = async () => {
      now += 5;
    };
    const r = await poll(clock, 100, async () => notYet("x"), changed);
    expect(r).toEqual({ value: "x", ok: false, timedOut: true });
  });
});
