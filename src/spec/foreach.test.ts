import { describe, expect, test } from "bun:test";
import { parseYaml } from "./yaml.ts";
import { describeEach, readEachValues, substituteEach, type EachBinding, type EachValue } from "./foreach.ts";
import { loadFlowText } from "../../test/support/surfaces.ts";

const bind = (value: EachValue, index = 0, count = 1): EachBinding => ({ value, index, count });

describe("substituteEach", () => {
  test.each([
    ["Type ${each} into the field", bind("mysql"), "Type mysql into the field"],
    ["${each.name} is ${each.status}", bind({ name: "Ada", status: 200 }), "Ada is 200"],
    ["${each}${each}", bind(7), "77"],
    ["page shows ${captured.x} and ${each}", bind("v"), "page shows ${captured.x} and v"],
  ])("splices %j", (text, binding, expected) => {
    expect(substituteEach(text, binding)).toEqual({ ok: true, value: expected, changed: true });
  });

  test.each([
    ["${each}", bind(200), 200],
    ["${each.status}", bind({ status: 404 }), 404],
    ["${each.on}", bind({ on: true }), true],
    ["${each}", bind(null), null],
  ])("keeps the YAML type of a whole-string token %j", (text, binding, expected) => {
    expect(substituteEach(text, binding)).toEqual({ ok: true, value: expected, changed: true });
  });

  test("leaves text without a reference untouched", () => {
    expect(substituteEach("Click ${ENV}", undefined)).toEqual({ ok: true, value: "Click ${ENV}", changed: false });
  });

  test.each([
    ["Type ${each} in", undefined, "`${each}` is only defined inside a `foreach:` block", 5, 7],
    ["x ${each.name}", bind("a"), "this foreach's value a is not a mapping, so `${each.name}` has no value", 2, 12],
    ["x ${each}", bind({ a: 1 }), "this foreach's values are mappings, so `${each}` has no single value", 2, 7],
    ["x ${each.b}", bind({ a: 1 }), "the foreach value {a: 1} has no key `b`", 2, 9],
    ["x ${each.}", bind("a"), "`${each.}` is not a foreach reference", 2, 8],
    ["x ${ each }", bind("a"), "`${ each }` is not a foreach reference", 2, 9],
  ])("refuses %j", (text, binding, message, offset, length) => {
    expect(substituteEach(text, binding)).toMatchObject({ ok: false, message, offset, length });
  });

  test("names the keys of a mapping value in the hint", () => {
    const r = substituteEach("${each}", bind({ name: "Ada", status: 1 }));
    expect(!r.ok && r.hint).toBe("name a key: `${each.name}`, `${each.status}`");
  });
});

describe("readEachValues", () => {
  const values = (yaml: string) => readEachValues(parseYaml("v.yaml", yaml).source.doc.contents);
  test("reads scalars and mappings of scalars", () => {
    expect(values("[mysql, 3, true, null]")).toEqual({ ok: true, values: ["mysql", 3, true, null] });
    expect(values("[{name: Ada, status: 200}]")).toEqual({ ok: true, values: [{ name: "Ada", status: 200 }] });
  });
  test.each([
    ["[]", "`values:` must be a non-empty list"],
    ["x", "`values:` must be a non-empty list"],
    ["[[1, 2]]", "a foreach value must be a scalar or a non-empty mapping of scalars"],
    ["[{a: [1]}]", "the value of `a` must be a scalar"],
  ])("refuses %s", (yaml, message) => {
    expect(values(yaml)).toMatchObject({ ok: false, message });
  });
});

describe("describeEach", () => {
  test("writes scalars as text and mappings as {key: value}", () => {
    expect(describeEach("a")).toBe("a");
    expect(describeEach({ a: 1, b: "x" })).toBe("{a: 1, b: x}");
  });
});

describe("foreach expansion in loadFlowText", () => {
  const flow = (steps: string) => `name: F\napp: web\nurl: http://x/\nsteps:\n${steps}`;

  test("expands each value into ordinary steps whose spans point at the template", () => {
    const text = flow(`  - rules: Click "Start"
  - foreach:
      values: [apple, pear, fig]
      steps:
        - rules: Type \${each} into the "Fruit" field
        - assert: the "Fruit" field contains \${each}
  - assert: page shows Done
`);
    const r = loadFlowText("f.flow.yaml", text);
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
    expect(r.flow.steps.map((s) => [s.index, s.text])).toEqual([
      [0, 'Click "Start"'],
      [1, 'Type apple into the "Fruit" field'],
      [2, 'the "Fruit" field contains apple'],
      [3, 'Type pear into the "Fruit" field'],
      [4, 'the "Fruit" field contains pear'],
      [5, 'Type fig into the "Fruit" field'],
      [6, 'the "Fruit" field contains fig'],
      [7, "page shows Done"],
    ]);
    expect(r.flow.body.every((n) => n.kind === "step")).toBe(true);
    expect(r.flow.steps[3]!.span).toEqual({
      file: "f.flow.yaml",
      line: 9,
      column: 18,
      length: 35,
      lineText: '        - rules: Type ${each} into the "Fruit" field',
    });
    expect(r.flow.steps[5]!.span).toEqual(r.flow.steps[1]!.span);
  });

  test("substitutes mapping keys, and into repeat/when conditions inside the foreach", () => {
    const r = loadFlowText(
      "f.flow.yaml",
      flow(`  - foreach:
      values: [{who: Ada, n: 2}, {who: Bo, n: 3}]
      steps:
        - rules: Type \${each.who} into the "Name" field
        - repeat:
            until: the "id:count" shows \${each.n}
            max: \${each.n}
            steps:
              - rules: Press the "Add" button
`),
    );
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
    expect(r.flow.body.map((n) => (n.kind === "step" ? n.step.text : `repeat ${n.kind === "repeat" ? `${n.until.text} max ${n.max}` : ""}`))).toEqual([
      'Type Ada into the "Name" field',
      'repeat the "id:count" shows 2 max 2',
      'Type Bo into the "Name" field',
      'repeat the "id:count" shows 3 max 3',
    ]);
  });

  test.each([
    [
      "an empty values list",
      '  - foreach:\n      values: []\n      steps:\n        - rules: Click "A"\n',
      "bad-value",
      "`values:` must be a non-empty list",
      6,
    ],
    ["no values", '  - foreach:\n      steps:\n        - rules: Click "A"\n', "missing-key", "a `foreach:` block needs `values:`, the list to repeat over", 5],
    ["empty steps", "  - foreach:\n      values: [a]\n      steps: []\n", "bad-value", "the `steps:` of a `foreach:` block must be a non-empty list", 7],
    [
      "a nested foreach",
      '  - foreach:\n      values: [a]\n      steps:\n        - foreach:\n            values: [b]\n            steps:\n              - rules: Click "${each}"\n',
      "bad-value",
      "a `foreach:` cannot be nested inside another `foreach:`",
      8,
    ],
    [
      "a foreach inside a repeat",
      '  - repeat:\n      until: page shows X\n      max: 2\n      steps:\n        - foreach:\n            values: [b]\n            steps:\n              - rules: Click "${each}"\n',
      "bad-value",
      "`foreach:` may only appear at the top level of `steps:` (or of an `in:` block), not inside a `repeat:` or `when:` block",
      9,
    ],
    ["${each} outside a foreach", '  - rules: Click "${each}"\n', "bad-reference", "`${each}` is only defined inside a `foreach:` block", 5],
    [
      "a missing key",
      '  - foreach:\n      values: [{a: 1}]\n      steps:\n        - rules: Click "${each.b}"\n',
      "bad-reference",
      "the foreach value {a: 1} has no key `b`",
      8,
    ],
  ])("refuses %s", (_name, steps, code, message, line) => {
    const r = loadFlowText("f.flow.yaml", flow(steps));
    if (r.ok) throw new Error("expected a refusal");
    expect(r.diagnostics.map((d) => [d.code, d.message, d.span?.line])).toEqual([[code, message, line]]);
  });

  test("refuses a misspelt key, suggesting the right one, and reports what is then missing", () => {
    const r = loadFlowText("f.flow.yaml", flow('  - foreach:\n      values: [a]\n      step:\n        - rules: Click "A"\n'));
    if (r.ok) throw new Error("expected a refusal");
    expect(r.diagnostics.map((d) => [d.code, d.message, d.span?.line, d.hint])).toEqual([
      ["unknown-key", "unknown key `step` in a `foreach:` block", 7, "did you mean `steps`? a `foreach:` block has `values`, `steps`"],
      ["missing-key", "a `foreach:` block needs a `steps:` list", 5, "`foreach: {values: [a, b, c], steps: [...]}`"],
    ]);
  });

  test("reports a template step's grammar error per distinct pass, at the template, naming the pass", () => {
    const r = loadFlowText("f.flow.yaml", flow("  - foreach:\n      values: [a, b]\n      steps:\n        - rules: Frobnicate ${each}\n"));
    if (r.ok) throw new Error("expected a refusal");
    expect(r.diagnostics.map((d) => [d.code, d.span?.line, d.span?.column, d.notes?.[0]?.message])).toEqual([
      ["unknown-step", 8, 18, "in foreach pass 1 of 2, where each = a"],
      ["unknown-step", 8, 18, "in foreach pass 2 of 2, where each = b"],
    ]);
  });

  test("refuses ${each} in url:, which no foreach reaches", () => {
    const r = loadFlowText("f.flow.yaml", 'name: F\napp: web\nurl: http://x/${each}\nsteps:\n  - rules: Click "A"\n');
    if (r.ok) throw new Error("expected a refusal");
    expect(r.diagnostics.map((d) => [d.code, d.span?.line])).toEqual([["bad-reference", 3]]);
  });

  test("reports the same problem once, however many passes hit it", () => {
    const r = loadFlowText("f.flow.yaml", flow('  - foreach:\n      values: [a, b, c]\n      steps:\n        - rules: Click "X" at 200%,5%\n'));
    if (r.ok) throw new Error("expected a refusal");
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]!.notes).toBeUndefined();
  });

  test("reports a structural problem in the body once, not once per value", () => {
    const r = loadFlowText("f.flow.yaml", flow("  - foreach:\n      values: [a, b, c]\n      steps:\n        - rules:\n"));
    if (r.ok) throw new Error("expected a refusal");
    expect(r.diagnostics.map((d) => d.message)).toEqual(["`rules:` takes the step's text"]);
  });
});
