import { describe, expect, test } from "bun:test";
import { buildScene, findText, occurrences, restOfRow, seenTexts, textInside, withoutBars, type SceneWord } from "./scene.ts";

const w = (text: string, x: number, y: number, width: number, height = 12, confidence = 95): SceneWord => ({ text, confidence, box: { x, y, width, height } });

// A form as OCR reads it: words in no particular order, a little baseline jitter.
const WORDS = [
  w("Pay", 234, 356, 27, 15),
  w("Invoice", 28, 356, 57),
  w("1001", 93, 357, 40),
  w("Payee", 28, 70, 47, 15),
  w("ACME", 142, 72, 46),
  w("Ltd", 197, 71, 23),
  w("Invoice", 28, 396, 57),
  w("1002", 93, 396, 40),
  w("Pay", 234, 395, 27, 15),
  w("Save", 62, 266, 39),
  w("Clear", 187, 266, 43),
  w("|", 140, 60, 2, 28, 20),
  w("~", 300, 300, 5, 5, 80),
  w("Saved", 26, 310, 50),
  w("yet", 160, 310, 25, 15, 35),
];

describe("buildScene", () => {
  test("groups words into lines by baseline and gap, and puts lines in reading order", () => {
    const scene = buildScene(WORDS);
    expect(scene.lines.map((l) => [l.row, l.text])).toEqual([
      [0, "Payee"],
      [0, "ACME Ltd"],
      [1, "Save"],
      [1, "Clear"],
      [2, "Saved"],
      [2, "yet"],
      [3, "Invoice 1001"],
      [3, "Pay"],
      [4, "Invoice 1002"],
      [4, "Pay"],
    ]);
    expect(scene.text.split("\n")[0]).toBe("Payee ACME Ltd");
  });

  test("drops noise: low confidence, no letter or digit; a bar glued to a word is not text", () => {
    const texts = buildScene([...WORDS, w("|ACME", 142, 110, 46, 12, 33), w("42.50|", 300, 110, 40)]).lines.map((l) => l.text);
    expect(texts).not.toContain("|");
    expect(texts).not.toContain("~");
    expect(texts).toContain("ACME");
    expect(texts).toContain("42.50");
    expect(withoutBars(w("||x|", 0, 0, 1)).text).toBe("x");
  });

  test("a word whose box spans the whole line keeps its place and is trimmed to where the next begins", () => {
    const scene = buildScene([w("Saved", 27, 309, 183, 14), w("ACME", 84, 307, 37, 21), w("Ltd,", 129, 307, 31, 21), w("42.50", 168, 307, 44, 21)]);
    expect(scene.lines.map((l) => l.text)).toEqual(["Saved ACME Ltd, 42.50"]);
    expect(scene.lines[0]!.words[0]!.box.width).toBe(56);
  });
});

describe("findText", () => {
  const scene = buildScene([...WORDS, w("Save", 400, 20, 39), w("draft", 445, 20, 40), w("Notes:", 28, 190, 50)]);

  test("exact lines first, in reading order; a prefix or another case only when nothing is exact", () => {
    expect(findText(scene, "Pay").map((m) => [m.tier, m.box.y])).toEqual([
      [0, 356],
      [0, 395],
    ]);
    expect(findText(scene, "Save").map((m) => [m.tier, m.box.x])).toEqual([[0, 62]]);
    expect(findText(scene, "Invoice").map((m) => [m.tier, m.wordCount, m.box.width])).toEqual([
      [1, 1, 57],
      [1, 1, 57],
    ]);
    expect(findText(scene, "clear").map((m) => m.tier)).toEqual([2]);
    expect(findText(scene, "save DRAFT").map((m) => m.tier)).toEqual([2]);
    expect(findText(scene, "invoice").map((m) => m.tier)).toEqual([3, 3]);
    expect(findText(scene, "Notes").map((m) => m.tier)).toEqual([0]);
    expect(findText(scene, "Sav")).toEqual([]);
    expect(findText(scene, "  ")).toEqual([]);
  });

  test("counts, the rest of a row, text inside a box, and what a miss may name", () => {
    expect(occurrences(scene, "Pay")).toBe(3);
    expect(occurrences(scene, "Invoice  1001")).toBe(1);
    expect(occurrences(scene, "")).toBe(0);
    const payee = findText(scene, "Payee")[0]!.line;
    expect(restOfRow(scene, payee).map((l) => l.text)).toEqual(["ACME Ltd"]);
    expect(textInside(scene, { x: 140, y: 62, width: 290, height: 28 })).toBe("ACME Ltd");
    expect(seenTexts(scene)).toContain("1001");
  });

  test("a caption read on its own is a line of its own, and a lone symbol is kept only there", () => {
    const w = (text: string, x: number, caption?: true) => ({
      text,
      confidence: 90,
      box: { x, y: 10, width: 20, height: 10 },
      ...(caption ? { caption } : {}),
    });
    const s = buildScene([w("Pay", 10), w("J", 32, true), w("+", 100, true), w("=", 160)]);
    expect(s.lines.map((l) => l.text)).toEqual(["Pay", "J", "+"]);
    expect(findText(s, "Pay").map((m) => m.tier)).toEqual([0]);
  });
});
