import { describe, expect, test } from "bun:test";
import { captionColumn, captionWords, uncoveredCaptions } from "./captions.ts";

/** A white grey image with black rectangles (glyph stand-ins) drawn. */
function page(width: number, height: number, marks: { x: number; y: number; w: number; h: number }[]) {
  const grey = new Uint8Array(width * height).fill(255);
  for (const m of marks) for (let y = m.y; y < m.y + m.h; y++) for (let x = m.x; x < m.x + m.w; x++) grey[y * width + x] = 0;
  return { width, height, grey };
}
/** A hollow glyph stand-in (an outline, so it is not a filled area). */
const glyph = (x: number, y: number, w = 6, h = 9) => [
  { x, y, w, h: 1 },
  { x, y: y + h - 1, w, h: 1 },
  { x, y, w: 1, h },
  { x: x + w - 1, y, w: 1, h },
];

describe("uncoveredCaptions", () => {
  test("glyphs close together on a row are one caption; a far one is another; covered ones are not read again", () => {
    const img = page(300, 60, [...glyph(10, 10), ...glyph(18, 10), ...glyph(100, 10), ...glyph(200, 10)]);
    expect(uncoveredCaptions(img, [])).toEqual([
      { x: 10, y: 10, width: 14, height: 9 },
      { x: 100, y: 10, width: 6, height: 9 },
      { x: 200, y: 10, width: 6, height: 9 },
    ]);
    expect(uncoveredCaptions(img, [{ x: 95, y: 5, width: 20, height: 20 }])).toEqual([
      { x: 10, y: 10, width: 14, height: 9 },
      { x: 200, y: 10, width: 6, height: 9 },
    ]);
  });

  test("a letter the first pass dropped is read again with the word it belongs to", () => {
    const img = page(300, 60, [...glyph(10, 10), ...glyph(18, 10), ...glyph(26, 10)]);
    expect(uncoveredCaptions(img, [{ x: 17, y: 8, width: 20, height: 14 }])).toEqual([{ x: 10, y: 10, width: 22, height: 9 }]);
  });

  test("`=` is one sign, read at its neighbours' height; borders, a border's piece and filled areas are not captions", () => {
    const img = page(300, 80, [
      ...glyph(10, 10),
      { x: 60, y: 13, w: 6, h: 1 },
      { x: 60, y: 16, w: 6, h: 1 },
      { x: 100, y: 5, w: 150, h: 1 },
      { x: 120, y: 30, w: 30, h: 30 },
      { x: 280, y: 40, w: 1, h: 18 },
    ]);
    expect(uncoveredCaptions(img, [])).toEqual([
      { x: 10, y: 10, width: 6, height: 9 },
      { x: 60, y: 11, width: 6, height: 9 },
    ]);
  });
});

describe("captionColumn and captionWords", () => {
  test("captions are stacked one per row, scaled up, and words read there map back to the window", () => {
    const img = page(300, 60, [...glyph(100, 10), ...glyph(200, 30)]);
    const captions = uncoveredCaptions(img, []);
    const { image, places } = captionColumn(img, captions);
    expect(places.map((p) => p.scale)).toEqual([4, 4]);
    expect(places[1]!.top).toBeGreaterThan(places[0]!.bottom);
    expect(image.height).toBeGreaterThan(places[1]!.bottom);
    // The glyph's outline is dark in the column where it was put (margin 4 px, scale 4).
    expect(image.grey[(places[0]!.top + 4 * 4 + 1) * image.width + places[0]!.left + 4 * 4 + 1]).toBeLessThan(128);
    const read = captionWords(
      [
        { text: "1", confidence: 90, box: { x: places[1]!.left + 16, y: places[1]!.top + 16, width: 24, height: 36 } },
        { text: "stray", confidence: 90, box: { x: 0, y: 0, width: 10, height: 10 } },
      ],
      places,
    );
    expect(read).toEqual([{ text: "1", confidence: 90, box: { x: 200, y: 30, width: 6, height: 9 }, caption: true, place: 1 }]);
  });
});
