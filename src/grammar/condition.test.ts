import { at } from "../../test/support/surfaces.ts";
import { describe, expect, test } from "bun:test";
import type { Condition, Template } from "./ast.ts";
import { parseConditionText } from "./condition.ts";

const slice = (text: string) => ({ text, offset: 0 });
const id = (i: string) => ({ kind: "element", anchor: { kind: "id", id: i } }) as const;
const lit = (raw: string): Template => ({ raw, parts: [{ kind: "literal", text: raw }] });

describe("parseConditionText", () => {
  test.each<[string, Condition]>([
    ["page shows FINISHED", { kind: "page_shows", text: lit("FINISHED"), negate: false }],
    ["the page does not show Error", { kind: "page_shows", text: lit("Error"), negate: true }],
    ['the "id:button" shows Enough', { kind: "shows", target: id("button"), text: lit("Enough") }],
    ['the "id:go" is not visible', { kind: "visible", target: id("go"), negate: true }],
    ['the "id:b1" is visible', { kind: "visible", target: id("b1"), negate: false }],
    ['the "id:a" is greater than the "id:b"', { kind: "compare", left: id("a"), op: "gt", right: id("b") }],
    ['the "id:a" is less than the "id:b"', { kind: "compare", left: id("a"), op: "lt", right: id("b") }],
    [
      'the "Status" column of the row containing "Job 7" shows Done',
      { kind: "shows", target: { kind: "cell", column: "Status", rowAnchors: ["Job 7"] }, text: lit("Done") },
    ],
  ])("reads %s", (input, condition) => {
    expect(parseConditionText(slice(input), at("web"))).toEqual({ ok: true, value: condition });
  });

  test.each([
    ['the "id:a" is enabled', "refused-step", "`is enabled` is not allowed as a condition"],
    ['the "Row" appears 3 times', "refused-step", "not allowed as a condition"],
    ['the "A" field contains x', "refused-step", "not allowed as a condition"],
    ['cookie "sid" exists', "refused-step", "not allowed as a condition"],
    ["page url is /x", "refused-step", "not allowed as a condition"],
    ["page shows Row 3 times", "refused-step", "not allowed as a condition"],
    ["the moon is full", "refused-step", "not allowed as a condition"],
    ["page shows Done within 5s", "refused-step", "never waits"],
    ['the "id:a" is greater than 5', "unknown-step", "both sides"],
    ['the "${captured.x}" shows y', "bad-reference", "a capture may only be typed or compared"],
    ['the "Total" matching /\\d+/ shows 5', "refused-step", "pattern extraction"],
  ])("rejects %s", (input, code, words) => {
    const r = parseConditionText(slice(input), at("web"));
    if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
    expect<string>(r.error.code).toBe(code);
    expect(`${r.error.message} ${r.error.hint}`).toContain(words);
  });

  test("names the allowed forms in the hint of a refusal", () => {
    const r = parseConditionText(slice('the "id:a" is enabled'), at("web"));
    expect(r.ok ? "" : r.error.hint).toContain("is greater|less than");
  });
});
