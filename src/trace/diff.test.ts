import { describe, expect, test } from "bun:test";
import { canonical, diffSteps } from "./diff.ts";
import type { TraceStep } from "./schema.ts";

const step = (id: string, css: string, intent = "Send the order"): TraceStep => ({
  id, intent, action: { type: "click", params: {} },
  selectors: [{ tier: "native_id", provenance: "llm", payload: { css } }],
  sync: { pre: [], post: [] }, artifacts: { recording: { start_ms: 1, end_ms: 2 } },
});

describe("diffSteps", () => {
  test("reports a step whose selectors changed, by position, and ignores artifacts", () => {
    const d = diffSteps([step("s0001", "#qty"), step("s0002", "#send")], [{ ...step("s0001", "#qty"), artifacts: {} }, step("s0002", "#submit-order")]);
    expect(d.changed).toBe(true);
    expect(d.steps_changed.map((c) => [c.id, c.fields])).toEqual([["s0002", ["selectors"]]]);
    expect(d.steps_changed[0]!.new.selectors[0]!.payload).toEqual({ css: "#submit-order" });
  });
  test("counts added and removed steps beyond the shorter trace", () => {
    expect(diffSteps([step("s0001", "#a")], [step("s0001", "#a"), step("s0002", "#b")])).toMatchObject({ changed: true, steps_added: 1, steps_removed: 0 });
    expect(diffSteps([step("s0001", "#a"), step("s0002", "#b")], [step("s0001", "#a")])).toMatchObject({ changed: true, steps_added: 0, steps_removed: 1 });
  });
  test("identical traces are healthy", () => {
    expect(diffSteps([step("s0001", "#a")], [step("s0001", "#a")])).toEqual({ changed: false, steps_changed: [], steps_added: 0, steps_removed: 0 });
  });
  test("canonical JSON ignores key order", () => {
    expect(canonical({ b: 1, a: [1, { d: 2, c: 3 }] })).toBe(canonical({ a: [1, { c: 3, d: 2 }], b: 1 }));
  });
});
