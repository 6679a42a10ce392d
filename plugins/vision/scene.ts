// The OCR scene: words grouped into lines (phrases), put in reading order, and the text anchors
// steps name, found in it. Pure: OCR words in, boxes (window pixels) out. The rules are documented
// in docs/vision.md ("What it sees", "Reading order").
import type { Rect } from "../../src/plugins/api.ts";
import { occurrences as occurrencesIn } from "../desktop/text.ts";
import { collapse, labelText } from "./text.ts";

/** One OCR'd word, box in window pixels. */
export interface SceneWord {
  readonly text: string;
  readonly confidence: number;
  readonly box: Rect;
  /** Read as a lone caption on its own (see captions.ts): a symbol there (`+`, `=`) is a button's face. */
  readonly caption?: boolean;
}

/** A line: words on one baseline with word-sized gaps between them (a label, a button's caption). */
export interface SceneLine {
  readonly text: string;
  readonly words: readonly SceneWord[];
  readonly box: Rect;
  /** 0-based row in reading order: lines whose boxes overlap vertically share a row. */
  readonly row: number;
}

export interface Scene {
  /** Lines in reading order: rows top to bottom, left to right within a row. */
  readonly lines: readonly SceneLine[];
  /** What the window shows: rows joined by newlines, a row's lines by a space. */
  readonly text: string;
}

/** Words tesseract is less sure of than this (0–100) are noise: borders, icons, shadows. */
export const MIN_CONFIDENCE = 30;
/** Two words are one line when the gap between them is at most this many times the taller one's height. */
export const WORD_GAP_RATIO = 1.2;
/** Two boxes share a baseline (or a row) when they overlap vertically by at least this share of the shorter one. */
export const SAME_ROW_OVERLAP = 0.5;

export function union(boxes: readonly Rect[]): Rect {
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Whether two boxes overlap vertically by at least SAME_ROW_OVERLAP of the shorter one's height. */
export function sameRow(a: Rect, b: Rect): boolean {
  const overlap = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return overlap >= SAME_ROW_OVERLAP * Math.min(a.height, b.height);
}

/** A lone symbol read as a caption on its own is kept when tesseract is at least this sure of it. */
export const MIN_SYMBOL_CONFIDENCE = 60;

const meaningful = (w: SceneWord): boolean =>
  w.confidence >= MIN_CONFIDENCE &&
  (/[\p{L}\p{N}]/u.test(w.text) || (w.caption === true && w.confidence >= MIN_SYMBOL_CONFIDENCE && /^[^\s|]{1,3}$/u.test(w.text)));

/** A vertical bar glued to a word is a field's border or a text caret, not text: it is dropped. */
export function withoutBars(w: SceneWord): SceneWord {
  const text = w.text.replace(/^\|+|\|+$/g, "");
  return text === w.text ? w : { ...w, text };
}

/** A line's words with each box ended where the next word begins (a box that spans its successors is trimmed). */
function trimOverlaps(words: readonly SceneWord[]): SceneWord[] {
  return words.map((w, i) => {
    const next = words[i + 1];
    if (!next || w.box.x + w.box.width <= next.box.x || next.box.x <= w.box.x) return w;
    return { ...w, box: { ...w.box, width: Math.max(1, next.box.x - w.box.x - 1) } };
  });
}

/**
 * Words → lines in reading order. A word joins the line whose last word shares its baseline (see
 * `sameRow`) and ends at most WORD_GAP_RATIO × the taller height before it; lines are then put in
 * rows (a line joins the row whose first line it shares a baseline with, so a few pixels of jitter
 * between a label and the field beside it do not reorder them), rows top to bottom, each left to right.
 */
export function buildScene(words: readonly SceneWord[]): Scene {
  const kept = words
    .map(withoutBars)
    .filter(meaningful)
    .sort((a, b) => a.box.x - b.box.x || a.box.y - b.box.y);
  const open: SceneWord[][] = [];
  for (const w of kept) {
    let best: SceneWord[] | undefined;
    let bestGap = Infinity;
    for (const line of open) {
      const last = line[line.length - 1]!;
      const gap = w.box.x - (last.box.x + last.box.width);
      // Overlap (a negative gap) is allowed: tesseract sometimes gives a word the whole line's box.
      // A caption read on its own is a line of its own: it never lengthens a line the first pass read.
      if (!sameRow(last.box, w.box) || gap > WORD_GAP_RATIO * Math.max(last.box.height, w.box.height) || (last.caption === true) !== (w.caption === true))
        continue;
      if (gap < bestGap) {
        best = line;
        bestGap = gap;
      }
    }
    if (best) best.push(w);
    else open.push([w]);
  }
  const lines = open
    .map((ws) => ({ words: trimOverlaps(ws), box: union(ws.map((w) => w.box)) }))
    .sort((a, b) => a.box.y + a.box.height / 2 - (b.box.y + b.box.height / 2));
  const rows: { words: SceneWord[]; box: Rect }[][] = [];
  for (const line of lines) {
    const row = rows.find((r) => sameRow(r[0]!.box, line.box));
    if (row) row.push(line);
    else rows.push([line]);
  }
  rows.sort((a, b) => Math.min(...a.map((l) => l.box.y)) - Math.min(...b.map((l) => l.box.y)));
  const ordered: SceneLine[] = [];
  rows.forEach((row, r) => {
    for (const l of row.sort((a, b) => a.box.x - b.box.x)) ordered.push({ text: l.words.map((w) => w.text).join(" "), words: l.words, box: l.box, row: r });
  });
  const text = rows
    .map((_, r) =>
      ordered
        .filter((l) => l.row === r)
        .map((l) => l.text)
        .join(" "),
    )
    .join("\n");
  return { lines: ordered, text };
}

/** A place a text anchor names: the words it covers (a whole line or its first words), in reading order. */
export interface TextMatch {
  readonly line: SceneLine;
  /** How many of the line's words the anchor covers, from its first. */
  readonly wordCount: number;
  readonly box: Rect;
  /** 0 exact, 1 prefix, 2 case-insensitive exact, 3 case-insensitive prefix. */
  readonly tier: number;
}

/**
 * Every place `want` names, in reading order, from the best tier that has any: a line that reads
 * exactly `want`, then a line that starts with it (whole words), then the same ignoring case. A
 * label's trailing colon is ignored on both sides. The same tiers as the web surface's text anchors.
 */
export function findText(scene: Scene, want: string): TextMatch[] {
  const target = labelText(want);
  if (target === "") return [];
  const wantWords = target.split(" ").length;
  const tiers: TextMatch[][] = [[], [], [], []];
  for (const line of scene.lines) {
    const text = labelText(line.text);
    const head = collapse(
      line.words
        .slice(0, wantWords)
        .map((w) => w.text)
        .join(" "),
    ).replace(/\s*:$/, "");
    const whole = line.words.length === wantWords;
    const add = (tier: number) => tiers[tier]!.push({ line, wordCount: wantWords, box: union(line.words.slice(0, wantWords).map((w) => w.box)), tier });
    if (text === target) add(0);
    else if (!whole && head === target) add(1);
    else if (text.toLowerCase() === target.toLowerCase()) add(2);
    else if (!whole && head.toLowerCase() === target.toLowerCase()) add(3);
  }
  return tiers.find((t) => t.length > 0) ?? [];
}

/** Every text the scene shows that a miss may name as nearest: each line, and each word of a longer line. */
export function seenTexts(scene: Scene): string[] {
  const out: string[] = [];
  for (const l of scene.lines) {
    out.push(l.text);
    if (l.words.length > 1) for (const w of l.words) out.push(w.text);
  }
  return out;
}

/** How many times `needle` occurs in the scene's text (whitespace collapsed on both sides). */
export function occurrences(scene: Scene, needle: string): number {
  return occurrencesIn(collapse(scene.text), collapse(needle));
}

/** The lines after `line` in its row, in order (what a label is followed by on screen). */
export function restOfRow(scene: Scene, line: SceneLine): SceneLine[] {
  const i = scene.lines.indexOf(line);
  return scene.lines.slice(i + 1).filter((l) => l.row === line.row);
}

/** The words whose centre lies inside `box`, in reading order, as one string. */
export function textInside(scene: Scene, box: Rect): string {
  const inside = (r: Rect) => {
    const cx = r.x + r.width / 2;
    const cy = r.y + r.height / 2;
    return cx >= box.x && cx <= box.x + box.width && cy >= box.y && cy <= box.y + box.height;
  };
  return scene.lines
    .map((l) =>
      l.words
        .filter((w) => inside(w.box))
        .map((w) => w.text)
        .join(" "),
    )
    .filter((t) => t !== "")
    .join(" ");
}
