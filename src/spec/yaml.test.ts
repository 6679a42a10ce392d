import { describe, expect, test } from "bun:test";
import { isMap, isScalar, isSeq, keyName, parseYaml, spanAtOffset, spanInScalar, spanOf, type Scalar, type YAMLMap } from "./yaml.ts";

/** The scalar value of a top-level key, asserting it is a scalar. */
function scalarAt(text: string, key: string): { source: ReturnType<typeof parseYaml>["source"]; node: Scalar } {
  const { source, diagnostics } = parseYaml("f.yaml", text);
  expect(diagnostics).toEqual([]);
  const root = source.doc.contents as YAMLMap;
  const pair = root.items.find((p) => keyName(p) === key)!;
  if (!isScalar(pair.value)) throw new Error(`${key} is not a scalar`);
  return { source, node: pair.value };
}

describe("parseYaml", () => {
  test("parses a mapping without diagnostics and keeps the lines", () => {
    const { source, diagnostics } = parseYaml("f.yaml", "name: A\nsteps:\n  - Click\r\n");
    expect(diagnostics).toEqual([]);
    expect(isMap(source.doc.contents)).toBe(true);
    expect(source.lines.slice(0, 3)).toEqual(["name: A", "steps:", "  - Click"]);
  });

  test.each([
    ["an unclosed flow sequence", "name: [unclosed\nsteps:\n  - x\n", 2, 1, "steps:"],
    ["a duplicate key", "a: b\na: c\n", 2, 1, "a: c"],
    ["a nested mapping after a quoted scalar", 'steps:\n  - rules: "quoted" x: y\n', 2, 12, '  - rules: "quoted" x: y'],
  ])("reports %s as yaml-syntax at its 1-based position", (_what, text, line, column, lineText) => {
    const { diagnostics } = parseYaml("bad.yaml", text);
    expect(diagnostics.length).toBeGreaterThan(0);
    const first = diagnostics[0]!;
    expect(first.code).toBe("yaml-syntax");
    expect(first.span).toMatchObject({ file: "bad.yaml", line, column, lineText });
    expect(first.message).not.toContain("\n");
    expect(first.hint).toContain("quote values");
  });
});

describe("spanAtOffset", () => {
  const { source } = parseYaml("f.yaml", "ab\ncdef\n");

  test.each([
    [0, 1, 1, "ab"],
    [1, 1, 2, "ab"],
    [3, 2, 1, "cdef"],
    [5, 2, 3, "cdef"],
  ])("maps offset %d to line %d column %d", (offset, line, column, lineText) => {
    expect(spanAtOffset(source, offset, 2)).toEqual({ file: "f.yaml", line, column, length: 2, lineText });
  });

  test("never returns a length below 1", () => {
    expect(spanAtOffset(source, 0, 0).length).toBe(1);
  });
});

describe("spanOf", () => {
  test("spans a key node exactly", () => {
    const { source } = parseYaml("f.yaml", "name: A\nmock: x\n");
    const root = source.doc.contents as YAMLMap;
    expect(spanOf(source, root.items[1]!.key as Scalar)).toEqual({ file: "f.yaml", line: 2, column: 1, length: 4, lineText: "mock: x" });
  });

  test("stops a multi-line node at the end of its first line", () => {
    const { source } = parseYaml("f.yaml", "steps:\n  - a\n  - bcd\n");
    const root = source.doc.contents as YAMLMap;
    const seq = root.items[0]!.value;
    if (!isSeq(seq)) throw new Error("expected a sequence");
    expect(spanOf(source, seq)).toEqual({ file: "f.yaml", line: 2, column: 3, length: 3, lineText: "  - a" });
  });

  test("falls back to the start of the file for a missing node", () => {
    const { source } = parseYaml("f.yaml", "a: 1\n");
    expect(spanOf(source, null)).toEqual({ file: "f.yaml", line: 1, column: 1, length: 1, lineText: "a: 1" });
  });
});

describe("spanInScalar", () => {
  test("points inside a plain scalar", () => {
    const { source, node } = scalarAt('step: Blur the "Email" field\n', "step");
    expect(spanInScalar(source, node, 0, 4)).toEqual({ file: "f.yaml", line: 1, column: 7, length: 4, lineText: 'step: Blur the "Email" field' });
    expect(spanInScalar(source, node, 5, 3)).toMatchObject({ line: 1, column: 12, length: 3 });
  });

  test("skips the opening double quote", () => {
    const { source, node } = scalarAt('x: 1\nstep: "Blur it"\n', "step");
    expect(spanInScalar(source, node, 5, 2)).toMatchObject({ line: 2, column: 13, length: 2 });
  });

  test("skips the opening single quote", () => {
    const { source, node } = scalarAt("step: 'Blur it'\n", "step");
    expect(spanInScalar(source, node, 0, 4)).toMatchObject({ line: 1, column: 8, length: 4 });
  });

  test("falls back to the whole node when escapes make offsets unreliable", () => {
    const { source, node } = scalarAt('step: "say \\"hi\\" now"\n', "step");
    expect(spanInScalar(source, node, 10, 3)).toEqual(spanOf(source, node));
  });

  test("falls back to the first line of a block scalar", () => {
    const { source, node } = scalarAt("step: |\n  Blur it\n", "step");
    expect(spanInScalar(source, node, 0, 4)).toEqual(spanOf(source, node));
  });
});

describe("keyName", () => {
  test("reads a scalar key as text", () => {
    const { source } = parseYaml("f.yaml", "steps: 1\n42: x\n");
    const root = source.doc.contents as YAMLMap;
    expect(root.items.map(keyName)).toEqual(["steps", "42"]);
  });
});

describe("comments that cut a value", () => {
  test.each([
    ["no space after #", "  - assert: page shows Invoice #1002", 3, 32, "` #1002`", '`- assert: "page shows Invoice #1002"`'],
    ["a URL fragment", "  - page url contains #/active", 3, 23, "` #/active`", '`- "page url contains #/active"`'],
    ["an unclosed double quote", '  - Click "Invoice #1001"', 3, 20, '` #1001"`', "`- 'Click \"Invoice #1001\"'`"],
    ["an unclosed quote before `# `", '  - rules: Click "Invoice # 1001"', 3, 27, '` # 1001"`', "`- rules: 'Click \"Invoice # 1001\"'`"],
    ["a block condition", "  - when: page shows #7\n    steps: [x]", 3, 22, "` #7`", '`- when: "page shows #7"`'],
  ])("refuses %s with the position and the quoted form", (_what, line, lineNo, column, comment, written) => {
    const { diagnostics } = parseYaml("f.flow.yaml", `name: T\nsteps:\n${line}\n`);
    const d = diagnostics[0]!;
    expect(d.code).toBe("yaml-comment");
    expect(d.message).toStartWith(`YAML read ${comment} as a comment`);
    expect(d.span).toMatchObject({ file: "f.flow.yaml", line: lineNo, column });
    expect(d.hint).toContain(written);
  });

  test("keeps `# note` after complete text a comment", () => {
    const { source, diagnostics } = parseYaml("f.yaml", 'steps:\n  - rules: Click "Save" # the main button\n  - "quoted" #x\n  - assert: page shows Done #\n');
    expect(diagnostics).toEqual([]);
    expect(source.doc.toJS()).toEqual({ steps: [{ rules: 'Click "Save"' }, "quoted", { assert: "page shows Done" }] });
  });

  test("quotes with single quotes when the text holds a backslash, doubling its single quotes", () => {
    const { diagnostics } = parseYaml("f.yaml", "a: it's C:\\dir #x\n");
    expect(diagnostics[0]!.hint).toContain("`a: 'it''s C:\\dir #x'`");
  });

  test("refuses a cut value in a suite key too, before YAML syntax errors", () => {
    const { diagnostics } = parseYaml("suite.yaml", "before_each: [setup #1.flow.yaml]\n");
    expect(diagnostics[0]!.code).toBe("yaml-comment");
  });
});
