import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FakeScreen } from "./fake-screen.ts";
import { decodeFramePng, toGrey } from "./frame.ts";
import type { GreyImage, OcrLayout, OcrWord } from "./ocr/engine.ts";
import { darkOnLight } from "./polarity.ts";
import { drawnArea, OCR_SCALE, readScene, WindowReader } from "./view.ts";
import type { Frame } from "./frame.ts";

const fixture = (name: string) => decodeFramePng(new Uint8Array(readFileSync(join(import.meta.dir, "../../test/fixtures/vision", name))));
const FORM = fixture("form.png");
const SAVED = fixture("form-saved.png");

/** A reader that sees one word, "Save", where the form has it, and counts its runs. */
class OneWord {
  runs: GreyImage[] = [];
  async recognize(image: GreyImage, layout?: OcrLayout): Promise<OcrWord[]> {
    this.runs.push(image);
    if (layout === "lines") return [];
    return [{ text: "Save", confidence: 96, box: { x: 116, y: 530, width: 74, height: 24 } }];
  }
}

/** A white frame with two glyph-sized rings of ink on one row: a caption of two words, at x 10–17 and 22–29, y 10–21. */
function twoGlyphs(): Frame {
  const width = 60;
  const height = 32;
  const rgba = new Uint8Array(width * height * 4).fill(255);
  for (const x0 of [10, 22])
    for (let y = 10; y <= 21; y++)
      for (let x = x0; x <= x0 + 7; x++) if (y === 10 || y === 21 || x === x0 || x === x0 + 7) rgba.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
  return { width, height, rgba };
}

/**
 * An OCR whose first pass reads only the right-hand word, surely, and whose second reading of the
 * caption (scaled 3×, at 24,24 in the column) reads the left-hand word well, the right-hand one
 * badly, and `more`.
 */
function secondLook(more: readonly OcrWord[]) {
  return {
    async recognize(_image: GreyImage, layout?: OcrLayout): Promise<OcrWord[]> {
      if (layout !== "lines") return [{ text: "Hello,", confidence: 89, box: { x: 32, y: 8, width: 16, height: 24 } }];
      return [
        { text: "Greet", confidence: 96, box: { x: 36, y: 36, width: 24, height: 36 } },
        { text: "Hallo", confidence: 10, box: { x: 72, y: 36, width: 24, height: 36 } },
        ...more,
      ];
    },
  };
}

describe("readScene", () => {
  test("keeps the second reading's words where the first pass read nothing, when it keeps the first pass's surer words", async () => {
    // The first pass reads only the right-hand word, surely; the caption's second reading (scaled
    // 3×, at 24,24 in the column) reads the left-hand word well and the right-hand one badly.
    const scene = await readScene(secondLook([]), twoGlyphs());
    expect(scene.lines.flatMap((l) => l.words.map((w) => w.text))).toEqual(["Greet", "Hello,"]);
  });

  test("adds no word of the second reading that maps outside the caption it was read from", async () => {
    // "Stray" sits in the caption's row of the column but far right of the caption's copy: back in
    // the window it would be a line where nothing is drawn.
    const ocr = secondLook([{ text: "Stray", confidence: 96, box: { x: 300, y: 36, width: 24, height: 36 } }]);
    const scene = await readScene(ocr, twoGlyphs());
    expect(scene.lines.flatMap((l) => l.words.map((w) => w.text))).toEqual(["Greet", "Hello,"]);
  });
});

describe("WindowReader", () => {
  test("OCRs the area where something is drawn at twice the size and gives boxes in window pixels", async () => {
    const ocr = new OneWord();
    const view = await new WindowReader(new FakeScreen(FORM), { id: "1", title: "t" }, ocr).look();
    // The form's plain background around its widgets is left out (20, 18 to 432, 461).
    expect([ocr.runs[0]!.width, ocr.runs[0]!.height]).toEqual([412 * OCR_SCALE, 443 * OCR_SCALE]);
    expect(view.scene.lines[0]!.box).toEqual({ x: 58 + 20, y: 265 + 18, width: 37, height: 12 });
  });

  test("a dialog at its own size on a black remote desktop is OCR'd alone", () => {
    const frame = fixture("screens/gtk-form-black.png");
    expect(drawnArea(darkOnLight(toGrey(frame)))).toEqual({ x: 0, y: 0, width: 269, height: 207 });
    expect(drawnArea(toGrey(fixture("screens/xcalc.png")))).toEqual({ x: 0, y: 0, width: 226, height: 394 });
  });

  test("reuses the frame's OCR while the pixels hash the same; OCRs again when they change", async () => {
    const screen = new FakeScreen(FORM);
    const ocr = new OneWord();
    const reader = new WindowReader(screen, screen.window, ocr);
    const a = await reader.look();
    const b = await reader.look();
    expect(b).toBe(a);
    expect(reader.stats).toEqual({ captures: 2, ocrRuns: 1 });
    screen.show(SAVED);
    expect((await reader.look()).hash).not.toBe(a.hash);
    expect(reader.stats).toEqual({ captures: 3, ocrRuns: 2 });
  });

  test("says whether the pixels changed since it was last asked, and never misses a change", async () => {
    const screen = new FakeScreen(FORM);
    const reader = new WindowReader(screen, screen.window, new OneWord());
    expect(await reader.changed()).toBe(true);
    expect(await reader.changed()).toBe(false);
    screen.show(SAVED);
    expect(await reader.changed()).toBe(true);
    expect(await reader.changed()).toBe(false);
  });

  test("memoises the field a label names per view", async () => {
    const screen = new FakeScreen(FORM);
    const view = await new WindowReader(screen, screen.window, new OneWord()).look();
    const label = { x: 27, y: 69, width: 47, height: 15 };
    expect(view.field(label)).toBe(view.field(label));
    expect(view.field(label)).toMatchObject({ ok: true, box: { x: 140, y: 62 } });
  });
});
