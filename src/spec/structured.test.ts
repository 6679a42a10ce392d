import { describe, expect, test } from "bun:test";
import { builtinCatalog, loadFlowText } from "../../test/support/surfaces.ts";
import type { StructuredKind } from "./structured.ts";

const stock: StructuredKind = {
  schema: {
    type: "object",
    required: ["sku"],
    additionalProperties: false,
    properties: { sku: { type: "string" }, at_least: { type: "integer" }, timeout_seconds: { type: "number", minimum: 0 } },
  },
  check: ((a: { sku: string; at_least?: number }) =>
    a.at_least === 0 ? [{ path: ["at_least"], message: "`at_least` must be above 0", hint: "at_least: 1" }] : []) as never,
};
const kinds = new Map([["assert_stock", stock]]);
const load = (steps: string, app = "web") =>
  loadFlowText("f.flow.yaml", `name: F\napp: ${app}\nurl: http://x/\nsteps:\n${steps}`, { plainStepsAreRules: true, structuredKinds: kinds });
const problems = (steps: string, app = "web") => {
  const r = load(steps, app);
  return r.ok ? [] : r.diagnostics.map((d) => `${d.span?.line}:${d.span?.column} ${d.code} ${d.message}${d.hint ? ` | ${d.hint}` : ""}`);
};

describe("structured steps", () => {
  test("loads a plugin's step with its arguments as written (templates raw)", () => {
    const r = load("  - assert_stock:\n      sku: ${SKU}-${captured.x}\n      at_least: 2\n");
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
    expect(r.flow.steps[0]!.ast).toEqual({ kind: "structured", key: "assert_stock", args: { sku: "${SKU}-${captured.x}", at_least: 2 } });
    expect(r.flow.steps[0]!.form).toBe("structured");
  });

  test.each([
    [
      "  - assert_stock:\n      sku: A\n      at_lest: 2\n",
      "7:7 unknown-key unknown key `at_lest` in `assert_stock` | did you mean `at_least`? `assert_stock` takes: sku, at_least, timeout_seconds",
    ],
    ["  - assert_stock:\n      at_least: 2\n", "5:5 missing-key `assert_stock` needs `sku` | add `sku:` to the step"],
    ["  - assert_stock:\n      sku: [1]\n", "6:12 bad-value `sku` must be a string | see docs/flow-format.md for the step's keys"],
    [
      "  - assert_stock: A1\n",
      "5:19 bad-value `assert_stock` must be a mapping | write `assert_stock:` with a mapping of its keys: sku, at_least, timeout_seconds",
    ],
    ["  - assert_stock:\n      sku: A\n      at_least: 0\n", "7:7 bad-value `at_least` must be above 0 | at_least: 1"],
    [
      "  - assert_stock:\n      sku: A\n      timeout_seconds: 2200000\n",
      "7:24 bad-value `timeout_seconds` of `assert_stock` is longer than the longest bound flowproof can wait, 86400 s (24 h) | write at most 86400, e.g. `timeout_seconds: 30`",
    ],
    [
      "  - assert_stock:\n      sku: ${each}\n",
      "6:12 bad-reference `${each}` is only defined inside a `foreach:` block | move the step into a `foreach: {values: [...], steps: [...]}` block, or write the value itself",
    ],
  ])("points each problem at its YAML node: %#", (steps, expected) => {
    expect(problems(steps)).toEqual([expected]);
  });

  test("substitutes ${each} inside a foreach, keeping a whole token's type", () => {
    const r = load(
      "  - foreach:\n      values: [{sku: A, n: 1}, {sku: B, n: 2}]\n      steps:\n        - assert_stock:\n            sku: ${each.sku}\n            at_least: ${each.n}\n",
    );
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
    expect(r.flow.steps.map((s) => s.ast)).toEqual([
      { kind: "structured", key: "assert_stock", args: { sku: "A", at_least: 1 } },
      { kind: "structured", key: "assert_stock", args: { sku: "B", at_least: 2 } },
    ]);
  });

  test("assert_no_secret_leak takes one ${VAR} or a list of them", () => {
    const r = load("  - assert_no_secret_leak: ${A}\n  - assert_no_secret_leak:\n      - ${B}\n      - ${A}\n");
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
    expect(r.flow.steps.map((s) => s.ast)).toEqual([
      { kind: "no_secret_leak", vars: ["A"] },
      { kind: "no_secret_leak", vars: ["B", "A"] },
    ]);
    expect(problems("  - assert_no_secret_leak: plain\n")).toEqual([
      "5:28 bad-value `assert_no_secret_leak` takes only `${NAME}` references to environment variables | write `assert_no_secret_leak: ${DB_PASSWORD}` or a list of `${NAME}` references",
    ]);
  });

  test("an api flow needs no url and refuses UI steps", () => {
    expect(problems('  - rules: Click "Save"\n  - assert_stock: {sku: A}\n', "api")).toEqual([
      "5:12 unsupported-step an `app: api` flow has no UI, so it runs only structured steps | use `assert_stock:` or `assert_no_secret_leak:` steps, or make this a flow of an app with a UI",
    ]);
    const r = loadFlowText("f.flow.yaml", "name: F\napp: api\nsteps:\n  - assert_stock: {sku: A}\n", { plainStepsAreRules: true, structuredKinds: kinds });
    expect(r.ok && r.flow.app).toBe("api");
  });

  test("a key no loaded plugin owns stays refused", () => {
    expect(problems("  - assert_sql: {query: x}\n")[0]).toContain("unsupported-feature `assert_sql:` steps are part of the flow format");
  });

  test("refuses a kind whose needed capability the app lacks, and the leak scan outside web and api flows", () => {
    const shot: StructuredKind = { schema: { type: "object" }, needs: ["screenshot"] };
    const opts = {
      plainStepsAreRules: true,
      structuredKinds: new Map([["assert_shot", shot]]),
      catalog: builtinCatalog([{ kind: "notes", capabilities: ["pointer", "navigation"] }]),
    };
    const api = loadFlowText("f.flow.yaml", "name: F\napp: api\nsteps:\n  - assert_shot: {}\n", opts);
    expect(api.ok ? [] : api.diagnostics.map((d) => `${d.span?.line}:${d.span?.column} ${d.code} ${d.message}`)).toEqual([
      "4:5 unsupported-step `assert_shot` needs a surface with the screenshot capability, which an `app: api` flow does not have",
    ]);
    expect(loadFlowText("f.flow.yaml", "name: F\napp: web\nurl: http://x/\nsteps:\n  - assert_shot: {}\n", opts).ok).toBe(true);
    const notes = loadFlowText("f.flow.yaml", "name: F\napp: notes\nsteps:\n  - assert_no_secret_leak: ${A}\n", opts);
    expect(notes.ok ? [] : notes.diagnostics.map((d) => d.code)).toEqual(["unsupported-step"]);
  });
});
