import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, byId, type EngineHarness } from "../../test/support/engine.ts";
import { loadFlowText } from "../../test/support/surfaces.ts";
import { expandAndRun, parseReadNumber, readCondition } from "./blocks.ts";
import { planFlow, type ConditionCheck, type PlanNode } from "./plan.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});

function nodes(steps: string): readonly PlanNode[] {
  const r = loadFlowText("b.flow.yaml", `name: B\napp: web\nurl: http://x/\nsteps:\n${steps}`);
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
  const plan = planFlow(r.flow, 1_000);
  if (!plan.ok) throw new Error(JSON.stringify(plan.diagnostics));
  return plan.nodes;
}

const PRESS = (max: number) => `  - repeat:
      until: the "id:label" shows Enough
      max: ${max}
      steps:
        - rules: Press the "id:button" button
`;

describe("parseReadNumber", () => {
  test.each([
    ["10", 10],
    [" 9 ", 9],
    ["-3.5", -3.5],
    ["1,204.50", 1204.5],
    ["+7", 7],
    [".5", 0.5],
  ])("reads %j as %p", (text, n) => {
    expect(parseReadNumber(text)).toBe(n);
  });
  test.each(["n/a", "", "12 items", "1,2", "$5", "1.2.3", "-"])("does not read %j as a number", (text) => {
    expect(parseReadNumber(text)).toBeUndefined();
  });
});

describe("readCondition", () => {
  test.each<[string, ConditionCheck, boolean]>([
    ["page shows a present text", { kind: "page_shows", text: "Reorder level", negate: false }, true],
    ["page shows an absent text", { kind: "page_shows", text: "Out of stock", negate: false }, false],
    ["page does not show an absent text", { kind: "page_shows", text: "Out of stock", negate: true }, true],
    ["an element shows its text", { kind: "shows", ladder: byId("supplier"), text: "n/a" }, true],
    ["a missing element shows nothing", { kind: "shows", ladder: byId("nope"), text: "n/a" }, false],
    ["a missing element is not visible", { kind: "visible", ladder: byId("nope"), negate: true }, true],
    ["a missing element is not visible, so `is visible` is false", { kind: "visible", ladder: byId("nope"), negate: false }, false],
    ["10 is greater than 9 as numbers", { kind: "compare", left: byId("on-hand"), op: "gt", right: byId("reorder") }, true],
    ["10 is not less than 9", { kind: "compare", left: byId("on-hand"), op: "lt", right: byId("reorder") }, false],
    ["a grouped total is greater than 10", { kind: "compare", left: byId("total"), op: "gt", right: byId("on-hand") }, true],
  ])("%s", async (_name, check, holds) => {
    const ctx = await h.context("compare.html");
    expect(await readCondition(check, ctx)).toEqual({ ok: true, holds });
  });

  test("quotes a side that does not read as a number", async () => {
    const ctx = await h.context("compare.html");
    expect(await readCondition({ kind: "compare", left: byId("supplier"), op: "gt", right: byId("reorder") }, ctx)).toEqual({
      ok: false,
      error: 'the "id:supplier" reads "n/a", which is not a number, so it cannot be compared',
    });
  });

  test("fails when a compared element is missing, naming it", async () => {
    const ctx = await h.context("compare.html");
    const r = await readCondition({ kind: "compare", left: byId("on-hand"), op: "gt", right: byId("gone") }, ctx);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toStartWith('the "id:gone" could not be read for the comparison');
  });

  test("does not wait: a text that appears later reads as absent now", async () => {
    const ctx = await h.context("press-until.html?enough=1");
    const started = performance.now();
    expect(await readCondition({ kind: "shows", ladder: byId("label"), text: "Enough" }, ctx)).toEqual({ ok: true, holds: false });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  test("fails closed on an unresolved reference", async () => {
    const ctx = await h.context("compare.html");
    const r = await readCondition({ kind: "page_shows", text: "${captured.nothing}", negate: false }, ctx);
    expect(!r.ok && r.error).toContain("${captured.nothing} was never remembered");
  });
});

describe("expandAndRun", () => {
  test("runs a repeat's passes until its condition holds, numbering steps as they ran", async () => {
    const ctx = await h.context("press-until.html?enough=3");
    const decided: string[] = [];
    const x = await expandAndRun(nodes(`  - rules: Click "Press until enough"\n${PRESS(10)}  - assert: the "id:presses" shows 3\n`), ctx, {
      blockDecided: (l) => decided.push(l),
    });
    expect(x.ok).toBe(true);
    expect(x.steps.map((s) => [s.id, s.intent])).toEqual([
      ["s0001", 'Click "Press until enough"'],
      ["s0002", 'Press the "id:button" button'],
      ["s0003", 'Press the "id:button" button'],
      ["s0004", 'Press the "id:button" button'],
      ["s0005", 'the "id:presses" shows 3'],
    ]);
    expect(x.sources.map((s) => s.index)).toEqual([0, 1, 1, 1, 2]);
    expect(x.results.every((r) => r.status === "passed")).toBe(true);
    expect(decided).toEqual(['repeat (line 6): until the "id:label" shows Enough — held after 3 passes']);
    for (let i = 1; i < x.results.length; i++) expect(x.results[i]!.started_ms).toBeGreaterThanOrEqual(x.results[i - 1]!.started_ms);
  });

  test("checks until before the first pass, so a settled repeat runs zero times", async () => {
    const ctx = await h.context("press-until.html?enough=0");
    const x = await expandAndRun(nodes(`${PRESS(5)}  - assert: the "id:presses" shows 0\n`), ctx);
    expect(x.ok).toBe(true);
    expect(x.steps.map((s) => s.intent)).toEqual(['the "id:presses" shows 0']);
  });

  test("fails naming the bound when the condition never holds, after exactly max passes", async () => {
    const ctx = await h.context("press-until.html?enough=100");
    const x = await expandAndRun(nodes(`${PRESS(4)}  - assert: page shows Enough\n`), ctx);
    expect(x.ok).toBe(false);
    expect(x.error).toBe(
      'repeat at b.flow.yaml:5:5 reached its bound of max: 4 passes and `the "id:label" shows Enough` still does not hold; raise `max:` or fix the condition',
    );
    expect(x.steps).toHaveLength(4);
    expect(x.results.map((r) => r.status)).toEqual(["passed", "passed", "passed", "passed", "skipped"]);
    expect(await h.driver.readText(byId("presses"))).toMatchObject({ ok: true, value: "4" });
  });

  test("runs a when's body only when its condition holds, evaluated once", async () => {
    const flow = `  - when: the "id:fault" is visible
    steps:
      - rules: Press the "Dismiss" button
  - rules: Press the "Continue" button
  - assert: the "id:status" shows Continued
`;
    const faulty = await expandAndRun(nodes(flow), await h.context("fault-banner.html?fault=1"));
    expect(faulty.ok).toBe(true);
    expect(faulty.steps.map((s) => s.intent)).toEqual(['Press the "Dismiss" button', 'Press the "Continue" button', 'the "id:status" shows Continued']);
    const clean = await expandAndRun(nodes(flow), await h.context("fault-banner.html"));
    expect(clean.ok).toBe(true);
    expect(clean.steps.map((s) => s.id)).toEqual(["s0001", "s0002"]);
  });

  test("a condition that cannot be read fails the expansion with its place in the file", async () => {
    const x = await expandAndRun(
      nodes(`  - when: the "id:supplier" is less than the "id:reorder"\n    steps:\n      - rules: Click "Reorder"\n`),
      await h.context("compare.html"),
    );
    expect(x.ok).toBe(false);
    expect(x.error).toBe('when at b.flow.yaml:5:5: the "id:supplier" reads "n/a", which is not a number, so it cannot be compared');
    expect(x.steps).toEqual([]);
  });

  test("a failing step inside a pass stops the expansion; later steps are not reached", async () => {
    const ctx = await h.context("press-until.html?enough=3");
    const x = await expandAndRun(
      nodes(`  - repeat:\n      until: the "id:label" shows Enough\n      max: 3\n      steps:\n        - rules: Click "Missing"\n  - rules: Click "More"\n`),
      ctx,
    );
    expect(x.ok).toBe(false);
    expect(x.error).toBeUndefined();
    expect(x.results.map((r) => r.status)).toEqual(["failed", "skipped"]);
  });

  test("steps not reached after a failure are numbered on, one number each", async () => {
    const ctx = await h.context("press-until.html?enough=3");
    const x = await expandAndRun(
      nodes(`  - assert: page shows Missing within 0.3s\n  - rules: Click "More"\n  - rules: Click "More"\n  - assert: page shows Enough\n`),
      ctx,
    );
    expect(x.results.map((r) => `${r.id} ${r.status}`)).toEqual(["s0001 failed", "s0002 skipped", "s0003 skipped", "s0004 skipped"]);
  });
});

describe("expandAndRun with a step author", () => {
  function intentNodes(steps: string): readonly PlanNode[] {
    const r = loadFlowText("b.flow.yaml", `name: B\napp: web\nurl: http://x/\nsteps:\n${steps}`, { plainStepsAreRules: false });
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
    const plan = planFlow(r.flow, 1_000);
    if (!plan.ok) throw new Error(JSON.stringify(plan.diagnostics));
    return plan.nodes;
  }
  const click = {
    intent: "Press it twice",
    action: { type: "click" as const, params: {} },
    selectors: byId("button"),
    sync: { pre: [], post: [] },
    artifacts: {},
  };

  test("performs each round the author grounds, asking again while the step continues", async () => {
    const ctx = await h.context("press-until.html");
    const rounds: number[] = [];
    const r = await expandAndRun(intentNodes("  - Press it twice\n"), ctx, {}, async (_source, round) => {
      rounds.push(round);
      return { ok: true, steps: [click], continues: round === 0 };
    });
    expect(r.ok).toBe(true);
    expect(rounds).toEqual([0, 1]);
    expect(r.steps.map((s) => s.id)).toEqual(["s0001", "s0002"]);
  });

  test("a step the author cannot ground fails the expansion with its reason; without an author it needs a model", async () => {
    const ctx = await h.context("press-until.html");
    const refused = await expandAndRun(intentNodes("  - Press it twice\n"), ctx, {}, async () => ({ ok: false, error: "nothing fits" }));
    expect(refused.ok).toBe(false);
    expect(refused.results[0]).toMatchObject({ status: "failed", detail: "nothing fits", intent: "Press it twice" });
    const runaway = await expandAndRun(intentNodes("  - Press it twice\n"), await h.context("press-until.html"), {}, async () => ({
      ok: true,
      steps: [],
      continues: true,
    }));
    expect(runaway.results.at(-1)!.detail).toContain("kept continuing this step after 10 rounds");
    const none = await expandAndRun(intentNodes("  - Press it twice\n"), ctx);
    expect(none.results[0]!.detail).toContain("needs an authoring model");
  });
});
