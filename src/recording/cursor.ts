// The cursor overlay for --highlight-cursor: an arrow pointer and a bright halo drawn onto a frame
// that has ALREADY been redacted, so the overlay can never reveal masked pixels. Pure pixels.
import type { Image, Rgb } from "./image.ts";

export interface Point {
  readonly x: number;
  readonly y: number;
}

export const HALO_RGB: Rgb = [255, 0, 200];
const HALO_RADIUS = 26;
const HALO_RING = 4;
const HALO_ALPHA = 0.28;

/** Arrow outline relative to the hot spot (tip), in pixels. */
const ARROW: readonly Point[] = [
  { x: 0, y: 0 },
  { x: 0, y: 21 },
  { x: 5, y: 16 },
  { x: 9, y: 25 },
  { x: 13, y: 23 },
  { x: 9, y: 15 },
  { x: 16, y: 15 },
];

function blend(image: Image, x: number, y: number, rgb: Rgb, alpha: number): void {
  if (x < 0 || y < 0 || x >= image.width || y >= image.height) return;
  const i = (y * image.width + x) * 4;
  const d = image.data;
  d[i] = Math.round(d[i]! * (1 - alpha) + rgb[0] * alpha);
  d[i + 1] = Math.round(d[i + 1]! * (1 - alpha) + rgb[1] * alpha);
  d[i + 2] = Math.round(d[i + 2]! * (1 - alpha) + rgb[2] * alpha);
  d[i + 3] = 255;
}

/** A bright ring with a translucent fill centred on `at`: marks where a pointer event lands. */
export function drawHalo(image: Image, at: Point): void {
  const cx = Math.round(at.x);
  const cy = Math.round(at.y);
  for (let y = cy - HALO_RADIUS; y <= cy + HALO_RADIUS; y++) {
    for (let x = cx - HALO_RADIUS; x <= cx + HALO_RADIUS; x++) {
      const d = Math.hypot(x - cx, y - cy);
      if (d > HALO_RADIUS) continue;
      blend(image, x, y, HALO_RGB, d >= HALO_RADIUS - HALO_RING ? 1 : HALO_ALPHA);
    }
  }
}

function inside(poly: readonly Point[], x: number, y: number): boolean {
  let hit = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i]!;
    const b = poly[j]!;
    if (a.y > y !== b.y > y && x < ((b.x - a.x) * (y - a.y)) / (b.y - a.y) + a.x) hit = !hit;
  }
  return hit;
}

/** A white arrow with a black outline whose tip is at `at`. */
export function drawCursor(image: Image, at: Point): void {
  const ox = Math.round(at.x);
  const oy = Math.round(at.y);
  for (let y = -1; y <= 26; y++) {
    for (let x = -1; x <= 17; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      if (!inside(ARROW, px, py)) {
        // One-pixel outline around the arrow.
        const near = [
          [-1, 0],
          [1, 0],
          [0, -1],
          [0, 1],
        ].some(([dx, dy]) => inside(ARROW, px + dx!, py + dy!));
        if (near) blend(image, ox + x, oy + y, [0, 0, 0], 1);
        continue;
      }
      const edge = [
        [-1, 0],
        [1, 0],
        [0, -1],
        [0, 1],
      ].some(([dx, dy]) => !inside(ARROW, px + dx!, py + dy!));
      blend(image, ox + x, oy + y, edge ? [0, 0, 0] : [255, 255, 255], 1);
    }
  }
}

/** What a frame shows of the pointer: the event points (halos) and where the cursor rests. */
export interface CursorMarks {
  readonly halos: readonly Point[];
  readonly cursor?: Point;
}

export function drawMarks(image: Image, marks: CursorMarks): void {
  for (const h of marks.halos) drawHalo(image, h);
  if (marks.cursor) drawCursor(image, marks.cursor);
}
