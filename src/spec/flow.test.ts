import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import type { Flow } from "./flow.ts";
import { builtinCatalog, loadFlowText } from "../../test/support/surfaces.ts";

const GOOD = `name: Sign in
app: web
url: http://127.0.0.1:3000/\${PATH_PART}
steps:
  - rules: Type Ada into the "Name" field
  - Click "Save"
  - assert: page shows Saved
`;

function loaded(text: string, file = "a.flow.yaml"): Flow {
  const r = loadFlowText(file, text);
  if (!r.ok) throw new Error(`expected the flow to load, got ${JSON.stringify(r.diagnostics)}`);
  return r.flow;
}

function problems(text: string, options?: { plainStepsAreRules: boolean }): readonly Diagnostic[] {
  const r = loadFlowText("a.flow.yaml", text, options);
  if (r.ok) throw new Error("expected the flow to be refused");
  return r.diagnostics;
}

const flowWith = (head: string, steps = ['  - rules: Click "Save"']) => `${head}\nsteps:\n${steps.join("\n")}\n`;
const HEAD = "name: Demo\napp: web\nurl: http://x/";

describe("loadFlowText", () => {
  test("loads a good flow with name, app, url template and steps", () => {
    const flow = loaded(GOOD);
    expect(flow.file).toBe("a.flow.yaml");
    expect(flow.name).toBe("Sign in");
    expect(flow.app).toBe("web");
    expect(flow.url?.raw).toBe("http://127.0.0.1:3000/${PATH_PART}");
    expect(flow.url?.parts).toEqual([
      { kind: "literal", text: "http://127.0.0.1:3000/" },
      { kind: "env", name: "PATH_PART" },
    ]);
    expect(flow.steps.map((s) => [s.index, s.form, s.text, s.ast.kind])).toEqual([
      [0, "rules", 'Type Ada into the "Name" field', "type"],
      [1, "plain", 'Click "Save"', "click"],
      [2, "assert", "page shows Saved", "assert"],
    ]);
  });

  test("gives each step a span over its text", () => {
    const flow = loaded(GOOD);
    expect(flow.steps.map((s) => s.span)).toEqual([
      { file: "a.flow.yaml", line: 5, column: 12, length: 30, lineText: '  - rules: Type Ada into the "Name" field' },
      { file: "a.flow.yaml", line: 6, column: 5, length: 12, lineText: '  - Click "Save"' },
      { file: "a.flow.yaml", line: 7, column: 13, length: 16, lineText: "  - assert: page shows Saved" },
    ]);
  });

  test("hashes the exact file text as sha256:<hex>", () => {
    const expected = `sha256:${createHash("sha256").update(GOOD).digest("hex")}`;
    expect(loaded(GOOD).hash).toBe(expected);
    expect(loaded(GOOD + "\n").hash).not.toBe(expected);
    expect(expected).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  test.each<[string, string, string, string, number, number]>([
    ["an unknown key with did-you-mean", flowWith(`${HEAD}\nnmae: X`), "unknown-key", "did you mean `name`?", 4, 1],
    ["a later-version key", flowWith(`${HEAD}\nexplore: x`), "unsupported-feature", "remove `explore:` for now", 4, 1],
    [
      "a start page on an app that has none",
      flowWith("name: Demo\napp: vision\nwindow: {title: Payments}\nurl: http://x/"),
      "unknown-key",
      "remove `url:`; name the window with",
      4,
      1,
    ],
    ["an unknown app", flowWith("name: Demo\napp: webb\nurl: http://x/"), "bad-value", "use one of the app kinds there are (web, api", 2, 6],
    ["a non-string url", flowWith("name: Demo\napp: web\nurl: 42"), "bad-value", "url: http://", 3, 6],
    ["an empty name", flowWith("name: ''\napp: web\nurl: http://x/"), "bad-value", "write `name:", 1, 7],
    ["a steps value that is not a list", `${HEAD}\nsteps: Click "Save"\n`, "bad-value", "one step per line", 4, 8],
    ["an empty steps list", `${HEAD}\nsteps: []\n`, "bad-value", "one step per line", 4, 8],
    ["a step mapping with two keys", flowWith(HEAD, ['  - rules: Click "A"', "    assert: page shows B"]), "bad-value", "one step per list item", 5, 5],
    ["an unknown step key with did-you-mean", flowWith(HEAD, ['  - rule: Click "A"']), "unknown-key", "did you mean `rules`?", 5, 5],
    ["an assert_api step", flowWith(HEAD, ["  - assert_api: {get: /x}"]), "unsupported-feature", "use `rules:` and `assert:` steps", 5, 5],
    ["a rules key without text", flowWith(HEAD, ["  - rules:"]), "bad-value", "- rules: Press", 5, 5],
    ["a numeric plain step", flowWith(HEAD, ["  - 42"]), "bad-value", "quote it", 5, 5],
    ["a list as a step", flowWith(HEAD, ["  - [a, b]"]), "bad-value", "- rules: Click", 5, 5],
  ])("refuses %s", (_what, text, code, hint, line, column) => {
    const list = problems(text);
    expect(list).toHaveLength(1);
    const d = list[0]!;
    expect<string>(d.code).toBe(code);
    expect(d.hint).toContain(hint);
    expect(d.span).toMatchObject({ file: "a.flow.yaml", line, column });
  });

  test.each([
    ["name", "app: web\nurl: http://x/"],
    ["app", "name: Demo\nurl: http://x/"],
  ])("reports a missing `%s` as missing-key", (key, head) => {
    const d = problems(flowWith(head));
    expect(d.map((x) => [x.code, x.message])).toEqual([["missing-key", `a flow needs \`${key}\``]]);
  });

  test("reports a web flow without a url", () => {
    const d = problems(flowWith("name: Demo\napp: web"));
    expect(d.map((x) => x.code)).toEqual(["missing-key"]);
    expect(d[0]!.message).toContain("`url`");
    expect(d[0]!.hint).toContain("relative path");
  });

  test("reports a missing steps list", () => {
    const d = problems(`${HEAD}\n`);
    expect(d.map((x) => [x.code, x.message])).toEqual([["missing-key", "a flow needs a `steps:` list"]]);
  });

  test("refuses a file that is not a mapping", () => {
    const d = problems('- Click "Save"\n');
    expect(d.map((x) => x.code)).toEqual(["bad-value"]);
    expect(d[0]!.message).toContain("must be a mapping");
  });

  test("turns YAML syntax errors into yaml-syntax diagnostics and stops there", () => {
    const d = problems("name: [unclosed\nsteps:\n  - x\n");
    expect(d.every((x) => x.code === "yaml-syntax")).toBe(true);
    expect(d[0]!.span).toMatchObject({ line: 2, column: 1 });
  });

  test("refuses a step YAML cut at a comment, in every step position, and keeps `# note` comments", () => {
    const d = problems(
      [
        HEAD,
        "steps:",
        "  - assert: page shows Invoice #1002",
        "  - repeat:",
        "      until: page shows #done",
        "      max: 3",
        "      steps:",
        '        - rules: Click "Next #2"',
        "  - foreach:",
        "      values: [a, b]",
        "      steps:",
        "        - page url contains #/active",
        '  - rules: Click "Save" # the main button',
        "",
      ].join("\n"),
    );
    expect(d.map((x) => [x.code, x.span?.line, x.span?.column])).toEqual([
      ["yaml-comment", 5, 32],
      ["yaml-comment", 7, 25],
      ["yaml-comment", 10, 30],
      ["yaml-comment", 14, 29],
    ]);
    expect(d[0]!.message).toBe("YAML read ` #1002` as a comment, so the text ends at `page shows Invoice`");
  });

  test("says the grammar's refusal with its hint and a span on the offending word", () => {
    const d = problems(flowWith(HEAD, ['  - rules: Blur the "Email" field']));
    expect(d).toEqual([
      {
        code: "refused-step",
        message: expect.stringContaining("Blur is not something a user does"),
        hint: expect.stringContaining("`Press Tab`"),
        span: { file: "a.flow.yaml", line: 5, column: 12, length: 4, lineText: '  - rules: Blur the "Email" field' },
      },
    ]);
  });

  test("points into a quoted step past its opening quote and leading spaces", () => {
    const d = problems(flowWith(HEAD, ["  - rules: '  Blur the \"Email\" field'"]));
    expect(d[0]!.code).toBe("refused-step");
    expect(d[0]!.span).toMatchObject({ line: 5, column: 15, length: 4 });
  });

  test("refuses a `within` bound a timer cannot hold at its place, for a Wait and an assertion", () => {
    const d = problems(flowWith(HEAD, ["  - rules: Wait until page shows Finished within 2200000s", "  - assert: page shows Finished within 90000s"]));
    expect(d.map((x) => [x.code, x.span?.line, x.span?.column, x.message])).toEqual([
      ["unknown-step", 5, 43, "`within 2200000s` is longer than the longest bound flowproof can wait, 86400 s (24 h)."],
      ["unknown-step", 6, 33, "`within 90000s` is longer than the longest bound flowproof can wait, 86400 s (24 h)."],
    ]);
  });

  test("points an unknown plain step at its text", () => {
    const d = problems(flowWith(HEAD, ["  - Fill in the form"]));
    expect(d[0]!.code).toBe("unknown-step");
    expect(d[0]!.span).toMatchObject({ line: 5, column: 5 });
    expect(d[0]!.hint).toBeDefined();
  });

  test("points a bad url reference inside the url", () => {
    const d = problems(flowWith("name: Demo\napp: web\nurl: http://x/${captured.}"));
    expect(d[0]!.code).toBe("bad-reference");
    expect(d[0]!.span).toMatchObject({ line: 3 });
    expect(d[0]!.span!.column).toBeGreaterThanOrEqual(15);
  });

  test("reports every problem of the file together, in file order", () => {
    const text = [
      "name: Demo",
      "app: web",
      "url: http://x/",
      "stpes: []",
      "explore: x",
      "steps:",
      '  - rules: Blur the "Email" field',
      '  - Click "Save"',
      "  - assert_sql: x",
      "  - Fill in the form",
      "",
    ].join("\n");
    const d = problems(text);
    expect(d.map((x) => [x.code, x.span?.line])).toEqual([
      ["unknown-key", 4],
      ["unsupported-feature", 5],
      ["refused-step", 7],
      ["unsupported-feature", 9],
      ["unknown-step", 10],
    ]);
    expect(d[0]!.hint).toContain("did you mean `steps`?");
  });
});

describe("loadFlowText with an app of a later version", () => {
  test("reports only that the app is not available, not a missing url", () => {
    const r = loadFlowText("a.flow.yaml", "name: A\napp: hologram\nsteps:\n  - assert: page shows x\n", { catalog: builtinCatalog([], ["hologram"]) });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostics.map((d) => d.code)).toEqual(["unsupported-feature"]);
  });
});
