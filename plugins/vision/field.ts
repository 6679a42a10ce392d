// The field rule: which input region a label names, found in the pixels around the label. Pure.
// A field is a box (a border, or a fill that differs from the background) that starts to the
// RIGHT of the label on the label's middle line, or else BELOW the label, overlapping it
// horizontally. The rule, with its bounds, is documented in docs/vision.md ("The field rule").
import type { Rect } from "../../src/plugins/api.ts";
import { colourDiffers, pixelAt, type Frame } from "./frame.ts";

/** How far right of a label its field may start, in pixels. */
export const MAX_RIGHT_GAP = 240;
/** How far below a label its field may start, in pixels. */
export const MAX_BELOW_GAP = 48;
/** Per-channel difference above which a pixel is not background. */
export const BACKGROUND_TOLERANCE = 12;
/** A box edge ends at this many background pixels in a row (so a dashed border still counts). */
const EDGE_BREAK = 3;

/** Where the field of a label is, or why there is none (one sentence, for failures). */
export type FieldAnswer = { readonly ok: true; readonly box: Rect; readonly side: "right" | "below" } | { readonly ok: false; readonly detail: string };

/** The most common colour on a ring `margin` pixels outside `box`: what the label is drawn on. */
export function backgroundAround(frame: Frame, box: Rect, margin = 3): number {
  const counts = new Map<number, number>();
  const count = (x: number, y: number) => {
    const c = pixelAt(frame, x, y);
    if (c >= 0) counts.set(c, (counts.get(c) ?? 0) + 1);
  };
  const x0 = box.x - margin;
  const y0 = box.y - margin;
  const x1 = box.x + box.width + margin;
  const y1 = box.y + box.height + margin;
  for (let x = x0; x <= x1; x++) {
    count(x, y0);
    count(x, y1);
  }
  for (let y = y0; y <= y1; y++) {
    count(x0, y);
    count(x1, y);
  }
  let best = -1;
  let n = 0;
  for (const [c, k] of counts) if (k > n) [best, n] = [c, k];
  return best;
}

const inside = (r: Rect, x: number, y: number): boolean => x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;

/**
 * How far inside an edge its trace also looks, in pixels: a rounded corner (GTK's entries, Windows
 * 11's), a 1–2 px anti-aliased border or a focus ring bends the edge inwards by up to this much, so
 * an edge is followed while any pixel of this band across it differs from the background.
 */
export const CORNER_BAND = 8;

/**
 * From (x, y), stepping by (dx, dy), the last step before EDGE_BREAK steps in a row where the band
 * of CORNER_BAND pixels across the way, towards (bx, by), is all background (or the frame's edge).
 */
function runEnd(frame: Frame, bg: number, x: number, y: number, dx: number, dy: number, bx: number, by: number): { x: number; y: number } {
  let last = { x, y };
  let gap = 0;
  for (let cx = x + dx, cy = y + dy; ; cx += dx, cy += dy) {
    if (pixelAt(frame, cx, cy) < 0) return last;
    let edge = false;
    for (let k = 0; k < CORNER_BAND && !edge; k++) {
      const c = pixelAt(frame, cx + k * bx, cy + k * by);
      edge = c >= 0 && colourDiffers(c, bg, BACKGROUND_TOLERANCE);
    }
    if (edge) {
      last = { x: cx, y: cy };
      gap = 0;
    } else if (++gap >= EDGE_BREAK) return last;
  }
}

/** Whether `box` is shaped like a field for a label `labelHeight` tall: wider than tall, about a line high or more. */
function fieldShaped(box: Rect, labelHeight: number): boolean {
  return box.width >= Math.max(24, 2 * labelHeight) && box.height >= 0.8 * labelHeight && box.height <= 4 * labelHeight + 16;
}

/** The box whose left edge passes through (x, y): that edge's extent, then the top edge's. */
function boxFromLeftEdge(frame: Frame, bg: number, x: number, y: number): Rect {
  const top = runEnd(frame, bg, x, y, 0, -1, 1, 0).y;
  const bottom = runEnd(frame, bg, x, y, 0, 1, 1, 0).y;
  const right = runEnd(frame, bg, x, top, 1, 0, 0, 1).x;
  return { x, y: top, width: right - x + 1, height: bottom - top + 1 };
}

/** The box whose top edge passes through (x, y): that edge's extent, then the left edge's. */
function boxFromTopEdge(frame: Frame, bg: number, x: number, y: number): Rect {
  const left = runEnd(frame, bg, x, y, -1, 0, 0, 1).x;
  const right = runEnd(frame, bg, x, y, 1, 0, 0, 1).x;
  const bottom = runEnd(frame, bg, left, y, 0, 1, 1, 0).y;
  return { x: left, y, width: right - left + 1, height: bottom - y + 1 };
}

/**
 * The horizontal extent of the ink inside `box`: pixels that differ from their own row's commonest
 * colour (so a face shaded top to bottom is no ink), looked for CORNER_BAND pixels in from the
 * left and right edges and a quarter of the height (at most 4 px) in from the top and bottom, clear
 * of a rounded corner, a border or a focus ring. Null unless the ink looks like a line of text:
 * plain rows above and below it, and no more than 60 % of its own extent inked.
 */
function inkSpan(frame: Frame, box: Rect): { left: number; right: number } | null {
  const insetY = Math.min(4, Math.floor(box.height / 4));
  const x0 = box.x + CORNER_BAND;
  const x1 = box.x + box.width - 1 - CORNER_BAND;
  let left = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  let inked = 0;
  let top = Number.POSITIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  const y0 = box.y + insetY;
  const y1 = box.y + box.height - 1 - insetY;
  for (let y = y0; y <= y1; y++) {
    const counts = new Map<number, number>();
    for (let x = x0; x <= x1; x++) {
      const c = pixelAt(frame, x, y);
      if (c >= 0) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    let face = -1;
    let n = 0;
    for (const [c, k] of counts) if (k > n) [face, n] = [c, k];
    if (face < 0) continue;
    for (let x = x0; x <= x1; x++) {
      const c = pixelAt(frame, x, y);
      if (c < 0 || !colourDiffers(c, face, BACKGROUND_TOLERANCE)) continue;
      inked += 1;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  // A stray pixel or two (dithering, a lossy picture) is not a caption, and neither is ink that
  // fills the inside from top to bottom or fills most of its own extent (a window over the box).
  if (inked < 3 || top <= y0 || bottom >= y1) return null;
  return inked <= 0.6 * (right - left + 1) * (bottom - top + 1) ? { left, right: right + 1 } : null;
}

/**
 * The field `label` names. Right: along the label's middle row, the first non-background pixel
 * within MAX_RIGHT_GAP starts the field, unless it belongs to other text (`texts`: every OCR'd
 * line's box). Below: down the column a few pixels inside the label's left edge, the first
 * non-background pixel within MAX_BELOW_GAP starts it, on the same condition. Either way the box
 * must be field-shaped (see `fieldShaped`) and must not hold a centred caption (a button's),
 * whether OCR read the caption or only its ink is there.
 */
export function findField(frame: Frame, label: Rect, texts: readonly Rect[]): FieldAnswer {
  const bg = backgroundAround(frame, label);
  const overlaps = (t: Rect) => t.x < label.x + label.width && label.x < t.x + t.width && t.y < label.y + label.height && label.y < t.y + t.height;
  const others = texts.filter((t) => !overlaps(t));
  const isText = (x: number, y: number) => others.some((t) => inside(t, x, y));
  const accept = (box: Rect): boolean => {
    if (!fieldShaped(box, label.height)) return false;
    // A button's caption is centred in its box; a field's text starts at its left edge. The caption
    // is the OCR'd text inside the box, or else its ink: OCR can miss a small or faint caption.
    const caption = others.filter((t) => inside(box, t.x + t.width / 2, t.y + t.height / 2));
    const ink =
      caption.length > 0 ? { left: Math.min(...caption.map((t) => t.x)), right: Math.max(...caption.map((t) => t.x + t.width)) } : inkSpan(frame, box);
    if (ink === null) return true;
    const left = ink.left - box.x;
    const right = box.x + box.width - ink.right;
    return left <= Math.max(16, 1.5 * label.height) || Math.abs(left - right) > Math.max(8, 0.2 * box.width);
  };
  const midY = Math.round(label.y + label.height / 2);
  const startX = label.x + label.width + 1;
  for (let x = startX; x <= startX + MAX_RIGHT_GAP; x++) {
    const c = pixelAt(frame, x, midY);
    if (c < 0) break;
    if (!colourDiffers(c, bg, BACKGROUND_TOLERANCE)) continue;
    if (isText(x, midY)) break;
    const box = boxFromLeftEdge(frame, bg, x, midY);
    if (accept(box) && box.y <= midY && box.y + box.height >= midY) return { ok: true, box, side: "right" };
    break;
  }
  const colX = label.x + Math.min(6, Math.floor(label.width / 2));
  const startY = label.y + label.height + 1;
  for (let y = startY; y <= startY + MAX_BELOW_GAP; y++) {
    const c = pixelAt(frame, colX, y);
    if (c < 0) break;
    if (!colourDiffers(c, bg, BACKGROUND_TOLERANCE)) continue;
    if (isText(colX, y)) break;
    const box = boxFromTopEdge(frame, bg, colX, y);
    if (accept(box)) return { ok: true, box, side: "below" };
    break;
  }
  return { ok: false, detail: `no input box starts within ${MAX_RIGHT_GAP} px right of the label or ${MAX_BELOW_GAP} px below it` };
}
