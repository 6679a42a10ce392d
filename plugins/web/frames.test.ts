import { describe, expect, test } from "bun:test";
import { rectsExpression } from "./frames.ts";

describe("rectsExpression", () => {
  test("is one self-contained call carrying the selectors as JSON", () => {
    const expr = rectsExpression([{ css: "input[type=password i]" }, { css: '#a"b' }]);
    expect(expr.startsWith("(function locate(") || expr.startsWith("(locate(") || expr.startsWith("(function")).toBe(true);
    expect(expr.endsWith(`)(${JSON.stringify(["input[type=password i]", '#a"b'])})`)).toBe(true);
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
});
