import { describe, expect, test } from "bun:test";
import type { TemplatePart } from "./ast.ts";
import { hasCapture, parseTemplate, parseTemplateAt } from "./template.ts";

describe("parseTemplate", () => {
  test.each<[string, TemplatePart[]]>([
    ["plain text", [{ kind: "literal", text: "plain text" }]],
    ["", []],
    ["${API_TOKEN}", [{ kind: "env", name: "API_TOKEN" }]],
    ["${_x1}", [{ kind: "env", name: "_x1" }]],
    [
      "order-${captured.oid}",
      [
        { kind: "literal", text: "order-" },
        { kind: "captured", name: "oid" },
      ],
    ],
    [
      "${captured.first} ${captured.last}",
      [
        { kind: "captured", name: "first" },
        { kind: "literal", text: " " },
        { kind: "captured", name: "last" },
      ],
    ],
    ["costs $5 or {x}", [{ kind: "literal", text: "costs $5 or {x}" }]],
  ])("parses %j into parts", (raw, parts) => {
    expect(parseTemplate(raw)).toEqual({ ok: true, value: { raw, parts } });
  });

  test.each([
    ["${date:tomorrow}", "refused-step", "date expression", 0, 16],
    ["Due ${DATE:today}", "refused-step", "pin the clock", 4, 13],
    ["${unclosed", "bad-reference", "never closed", 0, 10],
    ["${}", "bad-reference", "not a valid reference", 0, 3],
    ["${a.b}", "bad-reference", "cannot contain dots", 0, 6],
    ["${captured.Bad}", "bad-reference", "not a valid capture name", 0, 15],
    ["${captured.}", "bad-reference", "not a valid capture name", 0, 12],
    ["${each}", "bad-reference", "foreach", 0, 7],
    ["${each.name}", "bad-reference", "foreach", 0, 12],
    ["${1X}", "bad-reference", "not a valid reference", 0, 5],
  ])("rejects %s as %s", (raw, code, words, offset, length) => {
    const r = parseTemplate(raw);
    if (r.ok) throw new Error("expected an error");
    expect<string>(r.error.code).toBe(code);
    expect(`${r.error.message} ${r.error.hint}`).toContain(words);
    expect([r.error.offset, r.error.length]).toEqual([offset, length]);
  });

  test("reports offsets relative to the step when given one", () => {
    const r = parseTemplateAt("x ${a.b}", 10);
    expect(r.ok ? undefined : r.error.offset).toBe(12);
  });
});

describe("hasCapture", () => {
  test.each([
    ["${captured.x}", true],
    ["${X}", false],
    ["plain", false],
  ])("tells whether %s reads a capture", (raw, expected) => {
    const r = parseTemplate(raw);
    expect(r.ok && hasCapture(r.value)).toBe(expected);
  });
});
