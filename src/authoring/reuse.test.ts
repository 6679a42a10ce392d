import { describe, expect, test } from "bun:test";
import { ReusePool, groupTrace } from "./reuse.ts";
import type { TraceStep } from "../trace/schema.ts";

const step = (id: string, intent: string): TraceStep => ({
  id,
  intent,
  action: { type: "click", params: {} },
  selectors: [],
  sync: { pre: [], post: [] },
  artifacts: { recording: { start_ms: 0, end_ms: 1 } },
});

describe("groupTrace and ReusePool", () => {
  test("groups consecutive steps by intent without ids or recording ranges", () => {
    const groups = groupTrace([step("s0001", "Fill"), step("s0002", "Fill"), step("s0003", "Next"), step("s0004", "Fill")]);
    expect(groups.map((g) => [g.intent, g.steps.length])).toEqual([
      ["Fill", 2],
      ["Next", 1],
      ["Fill", 1],
    ]);
    expect(groups[0]!.steps[0]).toEqual({ intent: "Fill", action: { type: "click", params: {} }, selectors: [], sync: { pre: [], post: [] }, artifacts: {} });
  });
  test("hands groups out in order, never twice", () => {
    const pool = new ReusePool(groupTrace([step("s0001", "A"), step("s0002", "B"), step("s0003", "A")]));
    const first = pool.candidate("A")!;
    expect(first.index).toBe(0);
    pool.take(first.index);
    expect(pool.candidate("A")!.index).toBe(2);
    pool.take(2);
    expect(pool.candidate("B")).toBeUndefined();
  });
});
