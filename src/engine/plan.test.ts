import { describe, expect, test } from "bun:test";
import type { Flow } from "../spec/flow.ts";
import { loadFlowText } from "../../test/support/surfaces.ts";
import { planFlow, planSteps, stepId } from "./plan.ts";

function flow(steps: readonly string[]): Flow {
  const text = `name: Plan\napp: web\nurl: http://x/\nsteps:\n${steps.map((s) => `  - ${s}`).join("\n")}\n`;
  const r = loadFlowText("plan.flow.yaml", text);
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
  return r.flow;
}

describe("stepId", () => {
  test.each([
    [1, "s0001"],
    [42, "s0042"],
    [9999, "s9999"],
    [12345, "s12345"],
  ])("numbers step %d as %s", (n, id) => {
    expect(stepId(n)).toBe(id);
  });
});

describe("planFlow", () => {
  test("numbers trace steps from s0001 and maps each to its flow step", () => {
    const plan = planFlow(flow(['Click "A"', 'rules: Type Ada into the "Name" field', "assert: page shows Saved"]), 5_000);
    if (!plan.ok) throw new Error(JSON.stringify(plan.diagnostics));
    expect(plan.steps.map((s) => [s.id, s.intent, s.action.type])).toEqual([
      ["s0001", 'Click "A"', "click"],
      ["s0002", 'Type Ada into the "Name" field', "type_text"],
      ["s0003", "page shows Saved", "assert"],
    ]);
    expect(plan.sources).toEqual([0, 1, 2]);
  });

  test("bakes the step timeout into each action's precondition", () => {
    const plan = planFlow(flow(['Click "A"']), 1_234);
    expect(plan.ok && plan.steps[0]!.sync.pre).toEqual([{ kind: "element_exists", selector_ref: 0, timeout_ms: 1_234 }]);
  });

  test("plans repeat and when blocks with their conditions as ladders, each body step compiled once", () => {
    const plan = planFlow(
      flow([
        'rules: Click "Start"',
        'repeat:\n      until: the "id:label" shows Enough\n      max: 5\n      steps:\n        - rules: Press the "id:more" button',
        'when: the "css:.banner" is visible\n    steps:\n      - rules: Click "Dismiss"',
        'when: the "id:a" is greater than the "id:b"\n    steps:\n      - assert: page does not show Error',
      ]),
      5_000,
    );
    if (!plan.ok) throw new Error(JSON.stringify(plan.diagnostics));
    expect(plan.hasBlocks).toBe(true);
    expect(plan.steps.map((s) => [s.id, s.intent])).toEqual([
      ["s0001", 'Click "Start"'],
      ["s0002", 'Press the "id:more" button'],
      ["s0003", 'Click "Dismiss"'],
      ["s0004", "page does not show Error"],
    ]);
    expect(plan.nodes.map((n) => n.kind)).toEqual(["step", "repeat", "when", "when"]);
    const [, repeat, when, compare] = plan.nodes;
    if (repeat?.kind !== "repeat" || when?.kind !== "when" || compare?.kind !== "when") throw new Error("expected blocks");
    expect(repeat.max).toBe(5);
    expect(repeat.until).toMatchObject({
      text: 'the "id:label" shows Enough',
      span: { line: 7 },
      check: { kind: "shows", text: "Enough", ladder: [{ tier: "native_id", payload: { id: "label" } }] },
    });
    expect(repeat.body.map((n) => n.kind === "step" && n.steps[0]!.action.type)).toEqual(["click"]);
    expect(when.condition.check).toEqual({ kind: "visible", negate: false, ladder: [{ tier: "native_id", provenance: "rules", payload: { css: ".banner" } }] });
    expect(compare.condition.check).toMatchObject({ kind: "compare", op: "gt", left: [{ payload: { id: "a" } }], right: [{ payload: { id: "b" } }] });
  });

  test("a flow without blocks plans its nodes as its steps, in order", () => {
    const plan = planFlow(flow(['Click "A"', "assert: page shows B"]), 5_000);
    if (!plan.ok) throw new Error(JSON.stringify(plan.diagnostics));
    expect(plan.hasBlocks).toBe(false);
    expect(plan.nodes.flatMap((n) => (n.kind === "step" ? n.steps.map((s) => s.intent) : []))).toEqual(plan.steps.map((s) => s.intent));
  });

  test("plans the steps that did parse, as planFlow does for a whole flow", () => {
    const f = flow(['Click "A"', "Scroll to the bottom"]);
    expect(planSteps(f.steps, 5_000)).toEqual(planFlow(f, 5_000));
  });

  test("plans no steps to an empty plan", () => {
    expect(planSteps([], 5_000)).toEqual({ ok: true, steps: [], sources: [], nodes: [], hasBlocks: false });
  });
});
