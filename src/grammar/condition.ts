// Conditions of `repeat: until:` and `when:` blocks: page shows / does not show, the "…" shows,
// is [not] visible, and the numeric `is greater|less than` comparison. Everything else is refused
// by name. Pure: conditions are read once at record time; this module only reads the words.

import type { Condition, ParseContext, ParseResult } from "./ast.ts";
import { findTextRefusal } from "./refusal.ts";
import { fail, failAt, findOutsideQuotes, matchAt, ok, sub, trimSlice, type Slice } from "./result.ts";
import { parseTargetPrefix, parseWholeTarget } from "./target.ts";
import { parseTemplateAt } from "./template.ts";

const ALLOWED =
  'a condition is one of `page shows <text>`, `page does not show <text>`, `the "<t>" shows <text>`, `the "<t>" is [not] visible`, or `the "<a>" is greater|less than the "<b>"`, e.g. `the "id:button" shows Enough`';

function refuse(s: Slice, what: string): ParseResult<never> {
  return failAt("refused-step", `\`${what}\` is not allowed as a condition.`, ALLOWED, s);
}

/** Parses a `repeat: until:` / `when:` condition (trimmed, non-empty). */
export function parseConditionText(s: Slice, ctx: ParseContext): ParseResult<Condition> {
  const refused = findTextRefusal(s);
  if (refused !== undefined) return refused;
  const within = findOutsideQuotes(s.text, /\swithin\s+\d/);
  const w = within[0];
  if (w !== undefined) {
    return fail(
      "refused-step",
      "A condition reads the app once and never waits, so it takes no `within` bound.",
      `drop the bound, e.g. \`${s.text.slice(0, w).trim()}\``,
      s.offset + w + 1,
      s.text.length - w - 1,
    );
  }
  const t = s.text;
  const notShow = matchAt(/(?:the\s+)?page\s+does\s+not\s+show\s+/, t, 0);
  const shows = notShow === null ? matchAt(/(?:the\s+)?page\s+shows\s+/, t, 0) : null;
  const page = notShow ?? shows;
  if (page !== null) {
    const rest = trimSlice(sub(s, page[0].length));
    if (/^.*\S\s+\d+\s+times?$/i.test(rest.text)) return refuse(s, "page shows … times");
    const text = parseTemplateAt(rest.text, rest.offset);
    return text.ok ? ok({ kind: "page_shows", text: text.value, negate: notShow !== null }) : text;
  }
  const target = parseTargetPrefix(s, ctx);
  if (target === undefined) return refuse(s, t);
  if (!target.ok) return target;
  const left = target.value.target;
  const tail = trimSlice(sub(s, target.value.end));
  const showsText = /^shows\s+(.+)$/i.exec(tail.text);
  if (showsText?.[1] !== undefined) {
    const text = parseTemplateAt(showsText[1], tail.offset + tail.text.length - showsText[1].length);
    return text.ok ? ok({ kind: "shows", target: left, text: text.value }) : text;
  }
  const visible = /^is\s+(not\s+)?visible$/i.exec(tail.text);
  if (visible !== null) return ok({ kind: "visible", target: left, negate: visible[1] !== undefined });
  const compare = /^is\s+(greater|less)\s+than\s+/i.exec(tail.text);
  if (compare?.[1] !== undefined) {
    const rightSlice = sub(tail, compare[0].length);
    const right = parseWholeTarget(rightSlice, ctx);
    if (right === undefined) {
      return failAt("unknown-step", "A comparison needs a quoted element on both sides.", 'write `the "id:a" is greater than the "id:b"`', rightSlice);
    }
    if (!right.ok) return right;
    return ok({ kind: "compare", left, op: compare[1].toLowerCase() === "greater" ? "gt" : "lt", right: right.value });
  }
  return refuse(tail, tail.text === "" ? t : tail.text);
}
