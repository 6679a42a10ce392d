import { describe, expect, test } from "bun:test";
import { loadFlowText, type Flow } from "../spec/flow.ts";
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

  test("reports an unsupported form as unsupported-step at the step's span", () => {
    const f = flow(['Click "A"', "Scroll to the bottom"]);
    const plan = planFlow(f, 5_000);
    if (plan.ok) throw new Error("expected a refusal");
    expect(plan.diagnostics).toHaveLength(1);
    const d = plan.diagnostics[0]!;
    expect(d.code).toBe("unsupported-step");
    expect(d.message).toContain("Scroll");
    expect(d.hint).toBeDefined();
    expect(d.span).toEqual(f.steps[1]!.span);
    expect(d.span).toMatchObject({ file: "plan.flow.yaml", line: 6, column: 5 });
  });

  test("reports every unsupported step of the flow", () => {
    const f = flow(["Scroll to the bottom", 'Click "A"', 'assert: cookie "sid" exists', 'Drag "css:#a" onto "css:#b"']);
    const plan = planFlow(f, 5_000);
    if (plan.ok) throw new Error("expected a refusal");
    expect(plan.diagnostics.map((d) => d.span?.line)).toEqual([5, 7, 8]);
    expect(plan.diagnostics.every((d) => d.code === "unsupported-step")).toBe(true);
  });
});

describe("planSteps", () => {
  test("plans the steps that did parse, as planFlow does for a whole flow", () => {
    const f = flow(['Click "A"', "Scroll to the bottom"]);
    expect(planSteps(f.steps, 5_000)).toEqual(planFlow(f, 5_000));
  });

  test("plans no steps to an empty plan", () => {
    expect(planSteps([], 5_000)).toEqual({ ok: true, steps: [], sources: [] });
  });
});
