// Where typed secrets are on the window, for masking frames: every field a `${VAR}` value was typed
// into (where it was, and where its label's field is now), and every OCR'd line that shows a
// secret (allowing OCR's misreadings). Secret values stay in memory only. Pure over a View.
import type { Rect } from "../../src/plugins/api.ts";
import { findText } from "./scene.ts";
import { showsFuzzy } from "./text.ts";
import type { View } from "./view.ts";

/** A field a secret was typed into: the label that named it and the box it had then. */
export interface SecretField {
  readonly anchor: string;
  readonly nth?: number;
  readonly box: Rect;
}

/** Pixels added around a line that shows a secret (anti-aliased edges). */
const PAD = 2;

const pad = (r: Rect): Rect => ({ x: r.x - PAD, y: r.y - PAD, width: r.width + 2 * PAD, height: r.height + 2 * PAD });

/** Whether `text` shows any of `secrets`, in any letter case (allowing OCR's misreadings). */
export function showsSecret(text: string, secrets: readonly string[]): boolean {
  const seen = text.toLowerCase();
  return secrets.some((s) => showsFuzzy(seen, s.toLowerCase()));
}

/** Every rectangle to mask on `view` so no typed secret shows. */
export function secretRects(view: View, fields: readonly SecretField[], secrets: readonly string[]): Rect[] {
  const rects: Rect[] = [];
  for (const f of fields) {
    rects.push(f.box);
    const matches = findText(view.scene, f.anchor);
    const label = f.nth !== undefined ? matches[f.nth - 1] : matches.length === 1 ? matches[0] : undefined;
    const now = label ? view.field(label.box) : undefined;
    if (now?.ok && (now.box.x !== f.box.x || now.box.y !== f.box.y || now.box.width !== f.box.width || now.box.height !== f.box.height)) rects.push(now.box);
  }
  for (const line of view.scene.lines) if (showsSecret(line.text, secrets)) rects.push(pad(line.box));
  return rects;
}
