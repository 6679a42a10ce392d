import { at } from "../../test/support/surfaces.ts";
import { describe, expect, test } from "bun:test";
import { parseWholeTarget } from "./target.ts";
import { readAnchors, readQuoted, toAnchor } from "./quoted-label.ts";

const web = at("web");
const slice = (text: string) => ({ text, offset: 0 });

describe("readQuoted, toAnchor and readAnchors", () => {
  test("read a quoted label into a text, css: or id: anchor", () => {
    const s = slice('"css:#save" and more');
    const q = readQuoted(s, 0);
    if ("ok" in q) throw new Error("expected a quoted label");
    expect(q).toEqual({ text: "css:#save", start: 0, end: 11 });
    expect(toAnchor(s, q, web)).toEqual({ kind: "css", selector: "#save" });
    expect(toAnchor(slice('"id:x"'), { text: "id:x", start: 0, end: 6 }, web)).toEqual({ kind: "id", id: "x" });
    expect(toAnchor(slice('"Save"'), { text: "Save", start: 0, end: 6 }, web)).toEqual({ kind: "text", text: "Save" });
  });

  test("read a list of anchors joined by `and` or commas", () => {
    expect(readAnchors(slice('"A", "B" and "C" rest'), 0)).toEqual({ anchors: ["A", "B", "C"], end: 16 });
  });

  test.each<[string, string, string, string, number, number]>([
    ['the "Pay" in the item containing X', "web", "unknown-step", "quoted anchor", 33, 1],
    ['the "${captured.x}" field', "web", "bad-reference", "a capture may only be typed or compared", 4, 15],
    ['the "A" in the item containing "${captured.x}"', "web", "bad-reference", "a capture may only be typed or compared", 31, 15],
    ['the "" field', "web", "unknown-step", "empty", 4, 2],
    ['the "css:" field', "web", "unknown-step", "no selector", 4, 6],
    ['the "id:"', "web", "unknown-step", "no id", 4, 5],
    ['the "Save', "web", "unknown-step", "never closed", 4, 5],
    ['"css:#save"', "windows", "unsupported-step", "id:<AutomationId>", 0, 11],
    ['"css:#save"', "calc", "unsupported-step", "id:<AutomationId>", 0, 11],
    ['"css:#save"', "sap", "unsupported-step", "scripting id", 0, 11],
  ])("rejects %s on %s", (input, app, code, words, offset, length) => {
    const r = parseWholeTarget(slice(input), at(app));
    if (r === undefined || r.ok) throw new Error("expected an error");
    expect<string>(r.error.code).toBe(code);
    expect(`${r.error.message} ${r.error.hint}`).toContain(words);
    expect([r.error.offset, r.error.length]).toEqual([offset, length]);
  });
});
