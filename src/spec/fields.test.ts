import { describe, expect, test } from "bun:test";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { entries, integer, literal, template, type Fields } from "./fields.ts";
import { parseYaml, type Node } from "./yaml.ts";

function fieldsOf(text: string): { f: Fields; root: Node } {
  const { source } = parseYaml("f.yaml", text);
  return { f: { source, problems: [] as Diagnostic[] }, root: source.doc.contents as Node };
}

describe("entries", () => {
  test("returns known keys and reports unknown ones with a did-you-mean", () => {
    const { f, root } = fieldsOf("widht: 1\nheight: 2\n");
    const e = entries(f, root, "`viewport`", ["width", "height"], "viewport: {width: 1, height: 1}");
    expect([...e!.keys()]).toEqual(["height"]);
    expect(f.problems[0]).toMatchObject({ code: "unknown-key", message: "unknown key `widht` in `viewport`", span: { line: 1, column: 1 } });
    expect(f.problems[0]!.hint).toContain("did you mean `width`?");
  });

  test("reports a value that is not a mapping", () => {
    const { f, root } = fieldsOf("[1]");
    expect(entries(f, root, "`clock`", ["at"], "clock: {at: …}")).toBeUndefined();
    expect(f.problems[0]!.message).toBe("`clock` must be a mapping");
  });
});

describe("scalar readers", () => {
  test("literal refuses a ${VAR} reference, template keeps it and refuses captures", () => {
    const { f, root } = fieldsOf("a: ${X}\nb: ${X}\nc: ${captured.y}\n");
    const e = entries(f, root, "m", ["a", "b", "c"], "")!;
    expect(literal(f, e.get("a")!, "a", "a: x")).toBeUndefined();
    expect(template(f, e.get("b")!, "b", "b: x")).toBe("${X}");
    expect(template(f, e.get("c")!, "c", "c: x")).toBeUndefined();
    expect(f.problems.map((p) => p.code)).toEqual(["bad-reference", "bad-reference"]);
  });

  test("integer checks the range", () => {
    const { f, root } = fieldsOf("n: 11\nm: 3\n");
    const e = entries(f, root, "m", ["n", "m"], "")!;
    expect(integer(f, e.get("n")!, "n", 0, 10, "n: 1")).toBeUndefined();
    expect(integer(f, e.get("m")!, "m", 0, 10, "m: 1")).toBe(3);
    expect(f.problems[0]!.message).toBe("`n` must be a whole number from 0 to 10");
  });
});
