// The second look at a window: short captions the sparse first pass did not read (a calculator's
// one-character buttons, `+`, `=`, a lone label beside a field). Ink that no read word covers is
// grouped into caption-sized clusters; the clusters are cut out, scaled to one text height and
// stacked in a column, and that column is read once as lines. Pure: the OCR call is the caller's.
import type { Rect } from "../../src/plugins/api.ts";
import type { GreyImage, OcrWord } from "./ocr/engine.ts";

/** A pixel darker than this (0–255, on a dark-on-light image) is ink. */
export const INK = 140;
/** Clusters read in one second look, at most (the first ones in reading order). */
export const MAX_CAPTIONS = 60;
/** Each caption is scaled to about this many pixels high (what tesseract reads best). */
export const CAPTION_HEIGHT = 32;
/** Margin around a caption's cut-out, and white space between two in the column (in column pixels). */
const PAD = 4;
const GAP = 24;

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Connected runs of ink (8-neighbours), as bounding boxes (inclusive). */
function inkComponents(image: GreyImage): Box[] {
  const { width, height, grey } = image;
  const seen = new Uint8Array(width * height);
  const out: Box[] = [];
  const stack: number[] = [];
  for (let start = 0; start < grey.length; start++) {
    if (seen[start] || grey[start]! >= INK) continue;
    seen[start] = 1;
    stack.push(start);
    const b: Box = { x0: width, y0: height, x1: -1, y1: -1 };
    let count = 0;
    while (stack.length > 0) {
      const p = stack.pop()!;
      const x = p % width;
      const y = (p - x) / width;
      count++;
      if (x < b.x0) b.x0 = x;
      if (x > b.x1) b.x1 = x;
      if (y < b.y0) b.y0 = y;
      if (y > b.y1) b.y1 = y;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const q = ny * width + nx;
          if (!seen[q] && grey[q]! < INK) {
            seen[q] = 1;
            stack.push(q);
          }
        }
      }
    }
    // Glyph-sized only: a border, a frame or a filled area is not a character, nor is a speck of
    // 1–2 pixels (noise of a lossy remote desktop; an `i`'s dot is read with its stem anyway).
    const w = b.x1 - b.x0 + 1;
    const h = b.y1 - b.y0 + 1;
    if (count > 2 && h <= 40 && w <= 40 && count < 0.9 * w * h + 4) out.push(b);
  }
  return out;
}

/**
 * Caption-sized clusters of glyphs, those with a glyph that no rectangle of `covered` (the words
 * read well, in the image's pixels) holds: glyphs on one row with gaps under a glyph's height are
 * one cluster, so a letter the first pass dropped is read again with the rest of its word. A
 * cluster is 5–40 px high and 3–300 px wide (a thinner one is a bar: a border's piece, a caret;
 * so a lone `l` or `|` is not read), or a flat sign (`-`, `=`, `.`: 3–12 px wide,
 * given the height of the other captions so it is read at their size); at most MAX_CAPTIONS, in
 * reading order.
 */
export function uncoveredCaptions(image: GreyImage, covered: readonly Rect[]): Rect[] {
  // A word's box may end a pixel short of its first or last glyph (the boxes come from twice the size).
  const holds = (r: Rect, x: number, y: number) => x >= r.x - 2 && x <= r.x + r.width + 2 && y >= r.y - 2 && y <= r.y + r.height + 2;
  const glyphs = inkComponents(image).sort((a, b) => a.x0 - b.x0);
  const clusters: (Box & { open: boolean })[] = [];
  for (const g of glyphs) {
    const h = g.y1 - g.y0 + 1;
    const open = !covered.some((k) => holds(k, (g.x0 + g.x1) / 2, (g.y0 + g.y1) / 2));
    const c = clusters.find((k) => {
      const kh = k.y1 - k.y0 + 1;
      const overlap = Math.min(k.y1, g.y1) - Math.max(k.y0, g.y0) + 1;
      const beside = overlap > 0.3 * Math.min(kh, h) && g.x0 - k.x1 <= Math.max(4, 0.8 * Math.max(kh, h));
      // Stacked parts of one sign: `=`'s bars, an `i`'s dot, `:`.
      const across = Math.min(k.x1, g.x1) - Math.max(k.x0, g.x0) + 1;
      const stacked =
        across >= 0.5 * Math.min(k.x1 - k.x0 + 1, g.x1 - g.x0 + 1) && Math.max(k.y0, g.y0) - Math.min(k.y1, g.y1) <= Math.max(4, 0.5 * Math.max(kh, h));
      return (beside || stacked) && g.x0 >= k.x0;
    });
    if (c) {
      c.x1 = Math.max(c.x1, g.x1);
      c.y0 = Math.min(c.y0, g.y0);
      c.y1 = Math.max(c.y1, g.y1);
      c.open ||= open;
    } else clusters.push({ ...g, open });
  }
  const boxes = clusters.filter((c) => c.open).map((c) => ({ x: c.x0, y: c.y0, width: c.x1 - c.x0 + 1, height: c.y1 - c.y0 + 1 }));
  // A caption 1–2 px wide is a bar (a border's piece, a caret, a separator), not a caption.
  const tall = boxes.filter((r) => r.height >= 5 && r.height <= 40 && r.width <= 300 && r.width > 2);
  const heights = tall.map((r) => r.height).sort((x, y) => x - y);
  const line = heights[Math.floor(heights.length / 2)] ?? 10;
  const signs = boxes
    .filter((r) => r.height < 5 && r.width >= 3 && r.width <= 12)
    .map((r) => ({ ...r, y: Math.round(r.y + r.height / 2 - line / 2), height: line }));
  return [...tall, ...signs].sort((a, b) => a.y - b.y || a.x - b.x).slice(0, MAX_CAPTIONS);
}

/** Where each caption went in the column: its rectangle in the image, its row's top and bottom and left, its scale. */
export interface CaptionPlace {
  readonly caption: Rect;
  readonly top: number;
  readonly bottom: number;
  readonly left: number;
  readonly scale: number;
}

/** The most common grey on the ring one pixel outside `r`: what the caption is drawn on. */
function ringColour(image: GreyImage, r: Rect): number {
  const counts = new Uint32Array(256);
  const count = (x: number, y: number) => {
    if (x >= 0 && y >= 0 && x < image.width && y < image.height) counts[image.grey[y * image.width + x]!]!++;
  };
  for (let x = r.x - 1; x <= r.x + r.width; x++) {
    count(x, r.y - 1);
    count(x, r.y + r.height);
  }
  for (let y = r.y; y < r.y + r.height; y++) {
    count(r.x - 1, y);
    count(r.x + r.width, y);
  }
  let best = 255;
  for (let v = 0; v < 256; v++) if (counts[v]! > counts[best]!) best = v;
  return best;
}

/** The captions cut out of `image` (with a margin), each scaled to about CAPTION_HEIGHT (bilinear), stacked on white. */
export function captionColumn(image: GreyImage, captions: readonly Rect[]): { image: GreyImage; places: CaptionPlace[] } {
  const places: CaptionPlace[] = [];
  let width = 0;
  let y = GAP;
  for (const c of captions) {
    const scale = Math.max(2, Math.min(6, Math.round(CAPTION_HEIGHT / c.height)));
    const h = (c.height + 2 * PAD) * scale;
    places.push({ caption: c, top: y, bottom: y + h, left: GAP, scale });
    width = Math.max(width, (c.width + 2 * PAD) * scale + 2 * GAP);
    y += h + GAP;
  }
  const out = new Uint8Array(width * y).fill(255);
  // Bilinear: a small bitmap font scaled up smooth reads as the smooth fonts the model learnt.
  const pixel = (sx: number, sy: number) => image.grey[Math.min(image.height - 1, Math.max(0, sy)) * image.width + Math.min(image.width - 1, Math.max(0, sx))]!;
  for (const p of places) {
    const { caption: c, scale } = p;
    // Only the caption and a pixel around it are copied; the margin is its background (so a
    // border or a neighbour next to it is not read as part of it).
    const fill = ringColour(image, c);
    const at = (sx: number, sy: number) => (sx < c.x - 1 || sy < c.y - 1 || sx > c.x + c.width || sy > c.y + c.height ? fill : pixel(sx, sy));
    for (let oy = 0; oy < (c.height + 2 * PAD) * scale; oy++) {
      const v = c.y - PAD + (oy + 0.5) / scale - 0.5;
      const y0 = Math.floor(v);
      const fy = v - y0;
      for (let ox = 0; ox < (c.width + 2 * PAD) * scale; ox++) {
        const u = c.x - PAD + (ox + 0.5) / scale - 0.5;
        const x0 = Math.floor(u);
        const fx = u - x0;
        const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
        const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
        out[(p.top + oy) * width + p.left + ox] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  }
  return { image: { width, height: y, grey: out }, places };
}

/** A word read in the column: `caption` (a lone symbol there is a button's face, not noise), and the index of its place. */
export type CaptionWord = OcrWord & { readonly caption: true; readonly place: number };

/** The column's words back in the image's pixels, each on the caption whose row holds its middle. */
export function captionWords(words: readonly OcrWord[], places: readonly CaptionPlace[]): CaptionWord[] {
  const out: CaptionWord[] = [];
  for (const w of words) {
    const mid = w.box.y + w.box.height / 2;
    const place = places.findIndex((q) => mid >= q.top && mid < q.bottom);
    const p = places[place];
    if (!p) continue;
    const x = p.caption.x - PAD + (w.box.x - p.left) / p.scale;
    const y = p.caption.y - PAD + (w.box.y - p.top) / p.scale;
    const box = { x: Math.floor(x), y: Math.floor(y), width: Math.ceil(w.box.width / p.scale), height: Math.ceil(w.box.height / p.scale) };
    out.push({ ...w, box, caption: true, place });
  }
  return out;
}
