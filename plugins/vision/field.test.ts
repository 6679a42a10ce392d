import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Rect } from "../../src/plugins/api.ts";
import { backgroundAround, findField, MAX_BELOW_GAP, MAX_RIGHT_GAP } from "./field.ts";
import { decodeFramePng, type Frame } from "./frame.ts";

const FORM = decodeFramePng(new Uint8Array(readFileSync(join(import.meta.dir, "../../test/fixtures/vision/form.png"))));
// The form's OCR'd lines (x, y, width, height), as the scene reads them.
const LINES: Record<string, Rect> = {
  "Vendor payment": { x: 26, y: 22, width: 195, height: 20 },
  Payee: { x: 27, y: 69, width: 47, height: 15 },
  Amount: { x: 26, y: 109, width: 63, height: 12 },
  Token: { x: 26, y: 149, width: 48, height: 12 },
  Notes: { x: 27, y: 189, width: 45, height: 12 },
  Save: { x: 58, y: 265, width: 37, height: 12 },
  "Invoice 1001": { x: 28, y: 355, width: 99, height: 12 },
  Pay: { x: 229, y: 354, width: 28, height: 15 },
};
const texts = Object.values(LINES);

/** A canvas of `bg` with boxes drawn: an outline of `border`, filled with `fill`. */
function canvas(boxes: { rect: Rect; border: number; fill?: number }[], bg = 0xe8e8e8, width = 600, height = 200): Frame {
  const rgba = new Uint8Array(width * height * 4);
  const put = (x: number, y: number, c: number) => rgba.set([(c >> 16) & 255, (c >> 8) & 255, c & 255, 255], (y * width + x) * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) put(x, y, bg);
  for (const b of boxes) {
    for (let y = b.rect.y; y < b.rect.y + b.rect.height; y++) {
      for (let x = b.rect.x; x < b.rect.x + b.rect.width; x++) {
        const edge = x === b.rect.x || y === b.rect.y || x === b.rect.x + b.rect.width - 1 || y === b.rect.y + b.rect.height - 1;
        put(x, y, edge ? b.border : (b.fill ?? bg));
      }
    }
  }
  return { width, height, rgba };
}

describe("findField on the form's pixels", () => {
  test.each<[string, Rect, "right" | "below"]>([
    ["Payee", { x: 140, y: 62, width: 264, height: 28 }, "right"],
    ["Amount", { x: 140, y: 102, width: 264, height: 28 }, "right"],
    ["Token", { x: 140, y: 142, width: 264, height: 28 }, "right"],
    ["Notes", { x: 24, y: 210, width: 404, height: 28 }, "below"],
  ])("the field of %p is %p (%s of it)", (label, box, side) => {
    expect(findField(FORM, LINES[label]!, texts)).toEqual({ ok: true, box, side });
  });

  test.each(["Save", "Invoice 1001", "Vendor payment"])("%p names no field (a button's caption, a button beside it, nothing near)", (label) => {
    const answer = findField(FORM, LINES[label]!, texts);
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.detail).toBe(`no input box starts within ${MAX_RIGHT_GAP} px right of the label or ${MAX_BELOW_GAP} px below it`);
  });

  test("a button whose caption OCR did not read is still no field: its ink is centred", () => {
    const unread = texts.filter((t) => t !== LINES["Pay"]);
    expect(findField(FORM, LINES["Invoice 1001"]!, unread).ok).toBe(false);
  });

  test("a field with text in it is still a field when OCR did not read the text; the same text centred is a button's caption", () => {
    const label = { x: 20, y: 40, width: 50, height: 14 };
    const field = { x: 100, y: 33, width: 220, height: 28 };
    // A word's strokes: 2 px bars 12 px tall, 5 px apart.
    const word = (x: number) => Array.from({ length: 12 }, (_, i) => ({ rect: { x: x + 5 * i, y: 41, width: 2, height: 12 }, border: 0x202020 }));
    const frame = canvas([{ rect: field, border: 0x808080, fill: 0xffffff }, ...word(110)]);
    expect(findField(frame, label, [label])).toEqual({ ok: true, side: "right", box: field });
    const button = canvas([{ rect: field, border: 0x808080, fill: 0xffffff }, ...word(180)]);
    expect(findField(button, label, [label]).ok).toBe(false);
  });

  test("a window lying over the middle of a field is no caption: the field is still found", () => {
    const label = { x: 20, y: 40, width: 50, height: 14 };
    const field = { x: 100, y: 33, width: 220, height: 28 };
    const covered = canvas([
      { rect: field, border: 0x808080, fill: 0xffffff },
      { rect: { x: 180, y: 20, width: 80, height: 50 }, border: 0x000000, fill: 0x3060a0 },
    ]);
    expect(findField(covered, label, [label])).toMatchObject({ ok: true, side: "right", box: { x: 100 } });
  });

  test("reads the background a label is drawn on", () => {
    expect(backgroundAround(FORM, LINES["Payee"]!)).toBe(0xe8e8e8);
  });
});

/**
 * A canvas of `bg` with one rounded rectangle: corners of `radius`, a border `thickness` px wide
 * whose outer pixel is anti-aliased (half way between border and background), filled with `fill`.
 */
function rounded(rect: Rect, radius: number, thickness: number, border: number, fill: number, bg: number, width = 600, height = 200): Frame {
  const rgba = new Uint8Array(width * height * 4);
  const mix = (a: number, b: number, t: number) => [16, 8, 0].map((s) => Math.round(((a >> s) & 255) * (1 - t) + ((b >> s) & 255) * t));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Distance inside the rounded rectangle's outline (negative outside).
      const cx = Math.min(Math.max(x + 0.5, rect.x + radius), rect.x + rect.width - radius);
      const cy = Math.min(Math.max(y + 0.5, rect.y + radius), rect.y + rect.height - radius);
      const d = radius - Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
      const c = d < 0 ? mix(bg, bg, 0) : d < 1 ? mix(bg, border, 0.5) : d < thickness ? mix(border, border, 0) : mix(fill, fill, 0);
      rgba.set([...c, 255], (y * width + x) * 4);
    }
  }
  return { width, height, rgba };
}

describe("findField on rounded boxes", () => {
  const label = { x: 20, y: 40, width: 50, height: 14 };

  test.each<[string, number, number, number, number, number]>([
    ["GTK's light entry (radius 5, 1 px border, white inside)", 5, 1, 0xcdc7c2, 0xffffff, 0xf6f5f4],
    ["a focus ring (radius 8, 2 px)", 8, 2, 0x3584e4, 0xffffff, 0xf6f5f4],
    ["a dark entry (radius 6, 2 px, filled)", 6, 2, 0x1b1b1b, 0x2d2d2d, 0x353535],
  ])("%s is the label's field, with its whole extent", (_, radius, thickness, border, fill, bg) => {
    const box = { x: 90, y: 32, width: 220, height: 32 };
    expect(findField(rounded(box, radius, thickness, border, fill, bg), label, [label])).toEqual({ ok: true, side: "right", box });
    const below = { x: 18, y: 64, width: 260, height: 30 };
    expect(findField(rounded(below, radius, thickness, border, fill, bg), label, [label])).toEqual({ ok: true, side: "below", box: below });
  });
});

describe("findField on a real GTK 3 form (zenity --forms)", () => {
  const screen = (file: string) => decodeFramePng(new Uint8Array(readFileSync(join(import.meta.dir, "../../test/fixtures/vision/screens", file))));
  const GTK_LABELS: Record<string, Rect> = {
    Name: { x: 21, y: 48, width: 38, height: 11 },
    Amount: { x: 20, y: 88, width: 52, height: 11 },
    Note: { x: 21, y: 128, width: 30, height: 11 },
  };
  test.each([
    ["gtk-form.png", "Name", 37],
    ["gtk-form.png", "Amount", 77],
    ["gtk-form.png", "Note", 117],
    ["gtk-dark.png", "Amount", 77],
  ])("in %p, the field of %p is the rounded entry right of it", (file, label, top) => {
    const answer = findField(screen(file), GTK_LABELS[label]!, Object.values(GTK_LABELS));
    expect(answer).toMatchObject({ ok: true, side: "right", box: { x: 81, y: top } });
    if (answer.ok) expect(answer.box.width).toBeGreaterThan(160);
  });
});

describe("findField's bounds", () => {
  const label = { x: 20, y: 40, width: 50, height: 14 };

  test("a filled box without a border counts; one too far right does not", () => {
    const near = canvas([{ rect: { x: 70 + MAX_RIGHT_GAP - 10, y: 33, width: 200, height: 28 }, border: 0xffffff, fill: 0xffffff }]);
    expect(findField(near, label, [label])).toMatchObject({ ok: true, side: "right", box: { x: 70 + MAX_RIGHT_GAP - 10, width: 200 } });
    const far = canvas([{ rect: { x: 72 + MAX_RIGHT_GAP, y: 33, width: 200, height: 28 }, border: 0 }]);
    expect(findField(far, label, [label]).ok).toBe(false);
  });

  test("other text between the label and a box stops the search to the right; the box below is taken instead", () => {
    const other = { x: 90, y: 40, width: 40, height: 14 };
    const frame = canvas([
      { rect: { x: 88, y: 42, width: 44, height: 10 }, border: 0x000000, fill: 0x000000 },
      { rect: { x: 200, y: 33, width: 200, height: 28 }, border: 0 },
      { rect: { x: 18, y: 70, width: 300, height: 26 }, border: 0 },
    ]);
    expect(findField(frame, label, [label, other])).toEqual({ ok: true, side: "below", box: { x: 18, y: 70, width: 300, height: 26 } });
  });

  test("a box too short or too narrow for a field is not one", () => {
    expect(findField(canvas([{ rect: { x: 100, y: 44, width: 200, height: 6 }, border: 0 }]), label, [label]).ok).toBe(false);
    expect(findField(canvas([{ rect: { x: 100, y: 30, width: 20, height: 30 }, border: 0 }]), label, [label]).ok).toBe(false);
  });
});
