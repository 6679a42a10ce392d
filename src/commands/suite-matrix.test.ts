import { describe, expect, test } from "bun:test";
import type { Flow } from "../spec/flow.ts";
import type { SuiteMatrix } from "../spec/suite.ts";
import { byFlow, expandMatrix, unitKey } from "./suite-matrix.ts";

const MATRIX: Record<string, SuiteMatrix> = {
  browsers: {
    kind: "web",
    path: "browser",
    role: { key: "browsers", field: "name", values: ["chromium", "firefox"], env: "FLOWPROOF_BROWSER" },
    entries: ["chromium", "firefox"],
  },
};
const flow = (app: string, extra: Partial<Flow> = {}) => ({ app, ...extra }) as Flow;
const plan = (rel: string, position: number, pinned = false) => ({ rel, position, pinned });

describe("expandMatrix", () => {
  const flows = [
    { plan: plan("login.flow.yaml", 0, true), flow: flow("web") },
    { plan: plan("api.flow.yaml", 1), flow: flow("api") },
    { plan: plan("broken.flow.yaml", 2) },
    { plan: plan("own.flow.yaml", 3), flow: flow("web", { keys: { browser: { name: "firefox" } } }) },
    { plan: plan("multi.flow.yaml", 4), flow: flow("multi", { apps: { shop: { app: "web", keys: {} }, erp: { app: "sap", keys: {} } } }) },
  ];

  test("runs every web flow once per browser, in order and renumbered; other flows, unloadable ones and a flow naming its browser run once", () => {
    const units = expandMatrix(flows, MATRIX, {});
    expect(units.map((u) => [unitKey(u), u.position, u.pinned, u.env?.["FLOWPROOF_BROWSER"]])).toEqual([
      ["login.flow.yaml [chromium]", 0, true, "chromium"],
      ["login.flow.yaml [firefox]", 1, true, "firefox"],
      ["api.flow.yaml", 2, false, undefined],
      ["broken.flow.yaml", 3, false, undefined],
      // Its own browser only, named by it.
      ["own.flow.yaml [firefox]", 4, false, "firefox"],
      ["multi.flow.yaml [chromium]", 5, false, "chromium"],
      ["multi.flow.yaml [firefox]", 6, false, "firefox"],
    ]);
  });

  test("without a matrix, or with the browser set for the run (--browser), the flows keep their plain keys", () => {
    const plain = flows.map((f) => [f.plan.rel, f.plan.position]);
    expect(expandMatrix(flows, undefined, {}).map((u) => [unitKey(u), u.position])).toEqual(plain);
    expect(expandMatrix(flows, MATRIX, { FLOWPROOF_BROWSER: "firefox" }).map((u) => [unitKey(u), u.position])).toEqual(plain);
    expect(expandMatrix(flows, MATRIX, { FLOWPROOF_BROWSER: "firefox" }).some((u) => "variant" in u)).toBe(false);
  });
});

describe("byFlow", () => {
  test("groups a flow's runs in each browser, flows in order", () => {
    const units = ["a", "a", "b", "c", "c"].map((rel, i) => ({ plan: { rel }, i }));
    expect(byFlow(units).map((g) => g.map((u) => u.i))).toEqual([[0, 1], [2], [3, 4]]);
  });
});
