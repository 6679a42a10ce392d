// Native dialog suffixes folded into the triggering action:
// `, accepting ["<msg>"] dialog`, `, dismissing ["<msg>"] dialog`, `, answering the prompt with "<text>"`.
// Pure: no I/O. The engine arms the handler before dispatch; this module only reads the words.

import type { DialogSuffix, ParseContext, ParseResult } from "./ast.ts";
import { fail, maskQuoted, ok, sub, trimSlice, type Slice } from "./result.ts";
import { parseTemplateAt } from "./template.ts";
import { lackedForm, lacks } from "./vocabulary.ts";

export interface SuffixSplit {
  /** The step text before the suffix (the whole text when there is none). */
  readonly body: Slice;
  readonly dialog?: DialogSuffix;
}

const SHAPES =
  'write one of `, accepting the "Are you sure?" dialog` (or `, accepting the dialog`), `, dismissing the dialog`, or `, answering the prompt with "New name"`';

/**
 * Splits a trailing dialog suffix off a trigger step (Click, Press … button, Right-click,
 * Double-click, Hover). The suffix starts at the first comma outside quotes that is followed by
 * a word, so `Click "Save" at 75%,50%` keeps its comma.
 */
export function splitDialogSuffix(s: Slice, ctx: ParseContext): ParseResult<SuffixSplit> {
  const masked = maskQuoted(s.text);
  const m = /,\s*(?=[A-Za-z])/.exec(masked);
  if (m === null) return ok({ body: s });
  const body = trimSlice(sub(s, 0, m.index));
  const suffix = trimSlice(sub(s, m.index + m[0].length));
  const dialog = parseSuffix(suffix);
  if (!dialog.ok) return dialog;
  if (lacks(ctx, "dialog")) {
    return fail(
      "unsupported-step",
      lackedForm(ctx, "A native dialog suffix (`, accepting the dialog`)", "used", "dialog"),
      'drop the suffix and answer the box with its own step, e.g. `Press the "OK" button`',
      suffix.offset,
      suffix.text.length,
    );
  }
  return ok({ body, dialog: dialog.value });
}

function parseSuffix(s: Slice): ParseResult<DialogSuffix> {
  const decide = /^(accepting|dismissing)\s+the\s+(?:"([^"]*)"\s+)?dialog$/i.exec(s.text);
  if (decide !== null) {
    const disposition = decide[1]?.toLowerCase() === "accepting" ? "accept" : "dismiss";
    const message = decide[2];
    return ok(message === undefined || message === "" ? { disposition } : { disposition, message });
  }
  // The reply is everything between the first and the last quote, so it may hold quotes itself.
  const answer = /^answering\s+the\s+prompt\s+with\s+"(.*)"$/i.exec(s.text);
  if (answer?.[1] !== undefined) {
    const replyAt = s.offset + s.text.indexOf('"') + 1;
    const reply = parseTemplateAt(answer[1], replyAt);
    if (!reply.ok) return reply;
    return ok({ disposition: "accept", reply: reply.value });
  }
  return fail("unknown-step", `\`${s.text}\` is not a dialog suffix.`, SHAPES, s.offset, s.text.length);
}
