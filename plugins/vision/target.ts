// Which place on the window a step's selector ladder names: a text anchor (`Click "Save"`, the 2nd
// "Pay"), or the field a label names (`Type … into the "Payee" field`). Ordinals count in reading
// order; a miss names the text expected and the nearest texts seen. Pure over a View.
import { cssOf, payloadOf, type Rect, type Selector } from "../../src/plugins/api.ts";
import { findText, restOfRow, seenTexts, textInside, type Scene, type TextMatch } from "./scene.ts";
import { ordinal } from "../desktop/text.ts";
import { nearestTexts } from "../desktop/match.ts";
import type { View } from "./view.ts";

/** What a step needs of its target: any text, or a field to type into. */
export type Want = "any" | "field";

type Failure = { readonly ok: false; readonly failed: "not-found" | "unsupported" | "ambiguous"; readonly detail: string; readonly retryable: boolean };

/** A resolved target: the text matched, the box an action goes to (the field's, for a field), and the rung that named it. */
export type Resolved =
  | { readonly ok: true; readonly match: TextMatch; readonly box: Rect; readonly field?: Rect; readonly rung: Selector; readonly text: string }
  | Failure;

const at = (r: Rect): string => `${r.x},${r.y}`;

/** The rung's text anchor: its text, 1-based ordinal, role and the box it was recorded at. */
export function anchorOf(rung: Selector): { text: string; nth?: number; role?: string; box?: Rect } | undefined {
  const p = payloadOf(rung, "text_anchor");
  if (!p) return undefined;
  return {
    text: p.text,
    ...(p.nth !== undefined ? { nth: p.nth } : {}),
    ...(p.role !== undefined ? { role: p.role } : {}),
    ...(p.box !== undefined ? { box: { x: p.box.x, y: p.box.y, width: p.box.width, height: p.box.height } } : {}),
  };
}

/** The line nearest to where a text was recorded (its centre within the recorded box, grown by the box's height). */
export function atRecordedPlace(scene: Scene, recorded: Rect): string | undefined {
  const grow = recorded.height;
  const cx = recorded.x + recorded.width / 2;
  const cy = recorded.y + recorded.height / 2;
  const near = scene.lines
    .filter(
      (l) =>
        l.box.x < recorded.x + recorded.width + grow &&
        recorded.x - grow < l.box.x + l.box.width &&
        l.box.y < recorded.y + recorded.height + grow &&
        recorded.y - grow < l.box.y + l.box.height,
    )
    .map((l) => ({ l, d: Math.hypot(l.box.x + l.box.width / 2 - cx, l.box.y + l.box.height / 2 - cy) }))
    .sort((a, b) => a.d - b.d);
  return near[0]?.l.text;
}

/** The "not found" sentence: the text, where it was recorded and what is there now, the nearest texts seen. */
export function missDetail(scene: Scene, text: string, recorded?: Rect): string {
  const near = nearestTexts(text, seenTexts(scene), 3);
  const there = recorded ? atRecordedPlace(scene, recorded) : undefined;
  const where = recorded
    ? ` (recorded at ${at(recorded)}, ${recorded.width}×${recorded.height}; ${there !== undefined ? `the window shows ${JSON.stringify(there)} there now` : "nothing is written there now"})`
    : "";
  return `no text ${JSON.stringify(text)} in the window${where}; nearest texts seen: ${near.length > 0 ? near.map((t) => JSON.stringify(t)).join(", ") : "none (the window shows no text)"}`;
}

/**
 * The one place the ladder names (its first rung that names any). A text rung without an ordinal
 * that matches several places is ambiguous; a field rung (role `field`, or `want` field) needs
 * the field rule to find an input box beside or below the label.
 */
export function resolveTarget(view: View, ladder: readonly Selector[], want: Want): Resolved {
  if (ladder.length === 0) return { ok: false, failed: "not-found", detail: "the step names no text", retryable: false };
  let firstMiss: string | undefined;
  for (const rung of ladder) {
    const anchor = anchorOf(rung);
    if (!anchor) continue;
    const matches = findText(view.scene, anchor.text);
    if (matches.length === 0) {
      firstMiss ??= missDetail(view.scene, anchor.text, anchor.box);
      continue;
    }
    let match: TextMatch;
    if (anchor.nth !== undefined) {
      const m = matches[anchor.nth - 1];
      if (!m)
        return {
          ok: false,
          failed: "not-found",
          detail: `${JSON.stringify(anchor.text)} appears ${matches.length} time${matches.length === 1 ? "" : "s"}, so there is no ${ordinal(anchor.nth)}`,
          retryable: true,
        };
      match = m;
    } else if (matches.length > 1) {
      return {
        ok: false,
        failed: "ambiguous",
        detail: `${matches.length} texts read ${JSON.stringify(anchor.text)} (at ${matches
          .slice(0, 5)
          .map((m) => at(m.box))
          .join("; ")}); name one with an ordinal, in reading order (the 2nd ${JSON.stringify(anchor.text)})`,
        retryable: false,
      };
    } else match = matches[0]!;
    if (want === "field" || anchor.role === "field") {
      const field = view.field(match.box);
      if (!field.ok)
        return { ok: false, failed: "not-found", detail: `${JSON.stringify(anchor.text)} is at ${at(match.box)}, but ${field.detail}`, retryable: true };
      return { ok: true, match, box: field.box, field: field.box, rung, text: anchor.text };
    }
    return { ok: true, match, box: match.box, rung, text: anchor.text };
  }
  if (firstMiss !== undefined) return { ok: false, failed: "not-found", detail: firstMiss, retryable: true };
  const tiers = [...new Set(ladder.map((r) => (cssOf(r) !== undefined ? "css" : r.tier)))].join(", ");
  return {
    ok: false,
    failed: "unsupported",
    detail: `a vision app is seen only as text; it cannot resolve ${tiers} targets: name what the window shows, e.g. \`Click "Save"\``,
    retryable: false,
  };
}

/** Every place a ladder's first matching text rung names (for counts and `candidates`). */
export function allMatches(view: View, ladder: readonly Selector[]): TextMatch[] {
  for (const rung of ladder) {
    const anchor = anchorOf(rung);
    if (!anchor) continue;
    const matches = findText(view.scene, anchor.text);
    if (matches.length > 0) return matches;
  }
  return [];
}

/**
 * What a resolved target shows: a field's contents (the words inside its box); else the matched
 * line when the anchor is only its start (`Saved ACME Ltd`); else, for a label alone on its line,
 * the field it names, or failing that the rest of its row (`Total` | `42.50`).
 */
export function shownBy(view: View, target: Extract<Resolved, { ok: true }>): string {
  if (target.field) return textInside(view.scene, target.field);
  const line = target.match.line;
  if (target.match.wordCount < line.words.length) return line.text;
  const field = view.field(target.match.box);
  if (field.ok) return textInside(view.scene, field.box);
  return [line.text, ...restOfRow(view.scene, line).map((l) => l.text)].join(" ");
}

export { ordinal };
