import { describe, expect, test } from "bun:test";
import { runWithWorkers } from "./workers.ts";

describe("runWithWorkers", () => {
  test("keeps at most N in flight, starts in order and runs each item once", async () => {
    let inFlight = 0,
      peak = 0;
    const started: number[] = [];
    await runWithWorkers([1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      peak = Math.max(peak, ++inFlight);
      await Bun.sleep(5);
      inFlight--;
    });
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
  });
  test("an empty list finishes without calling the worker", async () => {
    let calls = 0;
    await runWithWorkers([], 4, async () => {
      calls++;
    });
    expect(calls).toBe(0);
  });
});
