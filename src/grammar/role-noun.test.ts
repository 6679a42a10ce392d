import { at } from "../../test/support/surfaces.ts";
import { describe, expect, test } from "bun:test";
import { parseWholeTarget } from "./target.ts";
import { refuseNonRoleNoun, roleOf } from "./role-noun.ts";

const slice = (text: string) => ({ text, offset: 0 });

describe("role nouns", () => {
  test("roleOf reads a role noun in any case, and nothing else", () => {
    expect(roleOf("Button")).toBe("button");
    expect(roleOf("checkbox")).toBe("checkbox");
    expect(roleOf("toggle")).toBeUndefined();
    expect(roleOf(undefined)).toBeUndefined();
  });

  test("refuseNonRoleNoun lets a text without such a noun through", () => {
    expect(refuseNonRoleNoun(slice('"Save" in the item'), 6, "Save")).toBeUndefined();
  });

  test.each<[string, string, string, string, number, number]>([
    ['the "Completed" filter', "web", "refused-step", "`filter` is not a role noun", 16, 6],
    ['the "css:#x" toggle', "web", "refused-step", "a toggle is a checkbox", 13, 6],
  ])("rejects %s on %s", (input, app, code, words, offset, length) => {
    const r = parseWholeTarget(slice(input), at(app));
    if (r === undefined || r.ok) throw new Error("expected an error");
    expect<string>(r.error.code).toBe(code);
    expect(`${r.error.message} ${r.error.hint}`).toContain(words);
    expect([r.error.offset, r.error.length]).toEqual([offset, length]);
  });
});
