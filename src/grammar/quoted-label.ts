// Quoted labels of targets: `"…"` read from a step, turned into a text/css:/id: anchor, and the
// `containing "A" and "B"` anchor lists of scopes. Refuses captures and empty labels.

import type { Anchor, ParseContext } from "./ast.ts";
import { lackedForm, lacks } from "./vocabulary.ts";
import { fail, matchAt, type Failure, type Slice } from "./result.ts";

const CAPTURE = /\$\{\s*captured\./;
export const CAPTURE_HINT =
  'a capture may only be typed or compared: write `Type ${captured.name} into the "Name" field` or `assert: the "Total" shows ${captured.name}`';

export interface Quoted {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** Reads `"…"` starting at `i` (which must be a quote). */
export function readQuoted(s: Slice, i: number): Quoted | Failure {
  const close = s.text.indexOf('"', i + 1);
  if (close < 0) {
    return fail("unknown-step", "The quote opened here is never closed.", 'close the label with `"`, e.g. `Click "Save"`', s.offset + i, s.text.length - i);
  }
  return { text: s.text.slice(i + 1, close), start: i, end: close + 1 };
}

/** Turns the text of a quoted label into an anchor, refusing captures, and css on a surface that lacks it. */
export function toAnchor(s: Slice, q: Quoted, ctx: ParseContext): Anchor | Failure {
  const at = s.offset + q.start;
  const length = q.end - q.start;
  if (CAPTURE.test(q.text)) {
    return fail("bad-reference", "A capture cannot name a target: a capture may only be typed or compared.", CAPTURE_HINT, at, length);
  }
  if (q.text.trim() === "") {
    return fail("unknown-step", "The quoted label is empty.", 'put the visible text between the quotes, e.g. `Click "Save"`', at, length);
  }
  if (q.text.startsWith("css:")) {
    const selector = q.text.slice(4).trim();
    if (lacks(ctx, "css")) return cssRefused(ctx, at, length);
    if (selector === "") return fail("unknown-step", "The `css:` label has no selector.", 'write a selector after `css:`, e.g. `"css:#save"`', at, length);
    return { kind: "css", selector };
  }
  if (q.text.startsWith("id:")) {
    const id = q.text.slice(3).trim();
    if (id === "") return fail("unknown-step", "The `id:` label has no id.", 'write the native id after `id:`, e.g. `"id:save"`', at, length);
    return { kind: "id", id };
  }
  return { kind: "text", text: q.text };
}

function cssRefused(ctx: ParseContext, offset: number, length: number): Failure {
  const hint = ctx.surface.cssHint ?? 'use the visible text, e.g. `Click "Save"`';
  return fail("unsupported-step", lackedForm(ctx, "A `css:` selector", "used", "css"), hint, offset, length);
}

/** `"A" [and|, "B"]…` starting at `i`. */
export function readAnchors(s: Slice, i: number): { anchors: string[]; end: number } | Failure {
  const anchors: string[] = [];
  let at = i;
  for (;;) {
    if (s.text[at] !== '"') {
      return fail(
        "unknown-step",
        "`containing` must be followed by a quoted anchor.",
        'quote the anchor, e.g. `in the item containing "Invoice 4711"`',
        s.offset + at,
        Math.max(s.text.length - at, 1),
      );
    }
    const q = readQuoted(s, at);
    if ("ok" in q) return q;
    if (CAPTURE.test(q.text))
      return fail(
        "bad-reference",
        "A capture cannot name a target: a capture may only be typed or compared.",
        CAPTURE_HINT,
        s.offset + q.start,
        q.end - q.start,
      );
    if (q.text.trim() === "")
      return fail(
        "unknown-step",
        "The quoted anchor is empty.",
        'quote text the row or item contains, e.g. `containing "Invoice 4711"`',
        s.offset + q.start,
        2,
      );
    anchors.push(q.text);
    at = q.end;
    const more = matchAt(/(?:\s*,\s*(?:and\s+)?|\s+and\s+)(?=")/, s.text, at);
    if (more === null) return { anchors, end: at };
    at += more[0].length;
  }
}
