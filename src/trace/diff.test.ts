import { describe, expect, test } from "bun:test";
import { canonical, diffSteps, effectChanges } from "./diff.ts";
import type { TraceStep } from "./schema.ts";

const step = (id: string, css: string, intent = "Send the order"): TraceStep => ({
  id,
  intent,
  action: { type: "click", params: {} },
  selectors: [{ tier: "native_id", provenance: "llm", payload: { css } }],
  sync: { pre: [], post: [] },
  artifacts: { recording: { start_ms: 1, end_ms: 2 } },
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

describe("effectChanges", () => {
  const ALL = ["navigation", "request", "dialog", "download", "target", "focus", "dom"] as const;
  const withEffect = (id: string, effect: TraceStep["effect"]): TraceStep => ({ ...step(id, "#send"), ...(effect ? { effect } : {}) });
  test("flags a step whose write, navigation, dialog, download or target change differs; DOM, focus and GETs never", () => {
    const old = [
      withEffect("s0001", { observes: [...ALL], requests: ["POST /api/orders", "GET /x"], navigated: "/done", dom: "near" }),
      withEffect("s0002", { observes: [...ALL], requests: ["POST /api/orders"], dom: "near", focus: true }),
      withEffect("s0003", { observes: [...ALL], target: ["checked"] }),
    ];
    const proposed = [
      withEffect("s0001", { observes: [...ALL], dom: "page" }),
      withEffect("s0002", { observes: [...ALL], requests: ["POST /api/orders", "GET /y"], dom: "page" }),
      withEffect("s0003", { observes: [...ALL], target: ["checked"], focus: true }),
    ];
    const changes = effectChanges(old, proposed);
    expect(changes.map((c) => c.id)).toEqual(["s0001"]);
    expect(changes[0]!.old.navigated).toBe("/done");
  });
  test("a trace from before effects, a step with effects off, and kinds one side did not observe are never flagged", () => {
    expect(effectChanges([withEffect("s0001", undefined)], [withEffect("s0001", { observes: [...ALL], navigated: "/a" })])).toEqual([]);
    expect(effectChanges([withEffect("s0001", { observes: [], off: true })], [withEffect("s0001", { observes: [...ALL], navigated: "/a" })])).toEqual([]);
    expect(effectChanges([withEffect("s0001", { observes: ["request"], navigated: "/a" })], [withEffect("s0001", { observes: [...ALL] })])).toEqual([]);
  });
});
