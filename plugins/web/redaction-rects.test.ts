import { describe, expect, test } from "bun:test";
import { rectsExpression } from "./redaction-rects.ts";

describe("rectsExpression", () => {
  test("is one self-contained call carrying the selectors as JSON; the page's password fields are its password inputs, whatever the case of their type", () => {
    const expr = rectsExpression([{ passwordFields: true }, { css: '#a"b' }]);
    expect(expr.startsWith("(function locate(") || expr.startsWith("(locate(") || expr.startsWith("(function")).toBe(true);
    expect(expr.endsWith(`)(${JSON.stringify(["input[type=password i]", '#a"b'])}, "__flowproofSecretFields")`)).toBe(true);
  });

  test("answers every selector in a document, and an invalid one as unresolved", () => {
    // Evaluate against a tiny DOM stand-in: one document, no frames.
    const el = { getClientRects: () => [{ left: 1, top: 2, width: 3, height: 4 }] };
    const doc = { querySelectorAll: (css: string) => { if (css === "[[") throw new Error("not a valid selector"); return css === "iframe, frame" ? [] : [el]; } };
    const run = new Function("window", "document", "getComputedStyle", `return ${rectsExpression([{ css: "#a" }, { css: "[[" }])};`);
    expect(run({ devicePixelRatio: 2 }, doc, () => ({}))).toEqual([
      { ok: true, rects: [{ x: 2, y: 4, width: 6, height: 8 }] },
      { ok: false, detail: "not a valid selector" },
    ]);
  });

  test("locates a text target at the innermost elements holding the text", () => {
    const leaf = { tagName: "SPAN", textContent: "Last  synced", children: [], getClientRects: () => [{ left: 5, top: 6, width: 7, height: 8 }] };
    const parent = { tagName: "DIV", textContent: "Last  synced now", children: [leaf], getClientRects: () => [{ left: 0, top: 0, width: 100, height: 100 }] };
    const doc = { body: { querySelectorAll: () => [parent, leaf] }, querySelectorAll: () => [] };
    const run = new Function("window", "document", "getComputedStyle", `return ${rectsExpression([{ text: "Last synced" }])};`);
    expect(run({ devicePixelRatio: 1 }, doc, () => ({}))).toEqual([{ ok: true, rects: [{ x: 5, y: 6, width: 7, height: 8 }] }]);
  });

  test("locates the fields a secret was typed into while they hold a value, and forgets them once cleared or gone", () => {
    class Field {
      constructor(public value: string, public isConnected: boolean, public ownerDocument: unknown) {}
      textContent = "";
      getClientRects = () => [{ left: 1, top: 2, width: 30, height: 10 }];
    }
    const doc: Record<string, unknown> = { querySelectorAll: () => [] };
    const typed = new Field("s3cret", true, doc);
    const cleared = new Field("", true, doc);
    const gone = new Field("s3cret", false, doc);
    const held = new Set<unknown>([typed, cleared, gone]);
    doc["defaultView"] = { __flowproofSecretFields: held };
    const run = new Function("window", "document", "getComputedStyle", "HTMLInputElement", "HTMLTextAreaElement", `return ${rectsExpression([{ secretFields: true }])};`);
    expect(run({ devicePixelRatio: 1 }, doc, () => ({}), Field, Field)).toEqual([{ ok: true, rects: [{ x: 1, y: 2, width: 30, height: 10 }] }]);
    expect([...held]).toEqual([typed]);
  });
});
