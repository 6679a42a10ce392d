// Small shared helpers for the grammar parsers: result constructors, text slices that keep
// their offset into the step text, and quote-aware scanning. Pure: no I/O, no clock, no env.

import type { GrammarError, ParseResult } from "./ast.ts";
import { MAX_TIMEOUT_SECONDS, MAX_TIMEOUT_TEXT } from "../diagnostics/bounds.ts";
import { LIMITS } from "../diagnostics/limits.ts";

/** A failed parse; assignable to every `ParseResult<T>`. */
export interface Failure {
  readonly ok: false;
  readonly error: GrammarError;
}

/** A piece of the step text together with its 0-based offset into the whole step text. */
export interface Slice {
  readonly text: string;
  readonly offset: number;
}

export const ok = <T>(value: T): ParseResult<T> => ({ ok: true, value });

export function fail(code: GrammarError["code"], message: string, hint: string, offset: number, length: number): Failure {
  return { ok: false, error: { code, message, hint, offset, length: Math.max(length, 1) } };
}

/** The whole slice as the error location, for problems that have no narrower place. */
export const failAt = (code: GrammarError["code"], message: string, hint: string, s: Slice): Failure => fail(code, message, hint, s.offset, s.text.length);

/**
 * A number written in a step (`digits`, at `offset`) beyond the largest one flowproof accepts for
 * `what` (`a count`, `a scroll offset`), or undefined when it is within it.
 */
export function refuseLarge(digits: string, what: string, most: number, offset: number): Failure | undefined {
  if (Number(digits) <= most) return undefined;
  return fail(
    "limit-exceeded",
    `${digits} is larger than ${what} may be, ${most}.`,
    `write at most ${most}; see docs/flow-format.md, "Limits"`,
    offset,
    digits.length,
  );
}

/** The largest count, ordinal or amount a step may hold (docs/flow-format.md "Limits"). */
export const MAX_STEP_NUMBER = LIMITS.stepNumber.value;

/** Trims a slice, keeping the offset of its first remaining character. */
export function trimSlice(s: Slice): Slice {
  const lead = s.text.length - s.text.trimStart().length;
  return { text: s.text.trim(), offset: s.offset + lead };
}

/** The part of a slice from `start` (optionally up to `end`), with its offset. */
export const sub = (s: Slice, start: number, end?: number): Slice => ({
  text: s.text.slice(start, end),
  offset: s.offset + start,
});

/**
 * Matches `re` exactly at `index` (sticky). Regexes are written without flags; this applies
 * `iy` so every keyword is case-insensitive, as the grammar requires.
 */
export function matchAt(re: RegExp, text: string, index: number): RegExpExecArray | null {
  const sticky = new RegExp(re.source, "iy");
  sticky.lastIndex = index;
  return sticky.exec(text);
}

/**
 * Replaces the characters between paired double quotes with `x`, keeping the quotes and the
 * length, so keyword searches never fire inside a quoted label (`Click "Update between runs"`).
 * With `pairedOnly`, a last quote without a partner is text (`5" screen within 2s`) and masks
 * nothing after it; otherwise it masks the rest, as an unclosed label would.
 */
export function maskQuoted(text: string, pairedOnly = false): string {
  const odd = (text.split('"').length - 1) % 2 === 1;
  const lastOpen = pairedOnly && odd ? text.lastIndexOf('"') : text.length;
  let out = "";
  let inside = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"' && i < lastOpen) {
      inside = !inside;
      out += ch;
    } else {
      out += inside ? "x".repeat(ch.length) : ch;
    }
  }
  return out;
}

/** Index of every match of `re` (case-insensitive) outside quotes, left to right (`pairedOnly`: see maskQuoted). */
export function findOutsideQuotes(text: string, re: RegExp, pairedOnly = false): number[] {
  const masked = maskQuoted(text, pairedOnly);
  const global = new RegExp(re.source, "gi");
  const found: number[] = [];
  for (const m of masked.matchAll(global)) found.push(m.index);
  return found;
}

/** A text with its optional `within <N>s` bound split off. */
export interface Bounded {
  readonly body: Slice;
  readonly timeoutMs?: number;
}

/**
 * Splits a trailing `within <N>s` (`s`, `sec`, `second`, `seconds`; 0 < N ≤ MAX_TIMEOUT_SECONDS, decimals allowed).
 * A trailing `within` followed by something that is not a number stays part of the text
 * (`page shows within budget`); a number with a wrong unit is an error, never a silent text.
 */
export function splitWithin(s: Slice): ParseResult<Bounded> {
  // A lone quote is text (`page shows 5" screen within 2s`): the bound after it still counts.
  const hits = findOutsideQuotes(s.text, /\swithin\s+/, true);
  const last = hits[hits.length - 1];
  if (last === undefined) return ok({ body: s });
  const tailStart = last + (/^\s*within\s+/i.exec(s.text.slice(last))?.[0].length ?? 0);
  const tail = s.text.slice(tailStart).trim();
  if (!/^[-+.\d]/.test(tail)) return ok({ body: s });
  const m = /^(\d+(?:\.\d+)?)\s*(?:s|secs?|seconds?)$/i.exec(tail);
  const at = s.offset + last + 1;
  if (m?.[1] === undefined) {
    return fail("unknown-step", `\`within ${tail}\` is not a bound in seconds.`, "write the bound in seconds, e.g. `within 30s`", at, s.text.length - last - 1);
  }
  const seconds = Number(m[1]);
  if (!(seconds > 0)) {
    return fail("unknown-step", "A `within` bound must be more than 0 seconds.", "write a positive bound, e.g. `within 15s`", at, s.text.length - last - 1);
  }
  if (seconds > MAX_TIMEOUT_SECONDS) {
    return fail(
      "unknown-step",
      `\`within ${m[1]}s\` is longer than the longest bound flowproof can wait, ${MAX_TIMEOUT_TEXT}.`,
      `write a bound of at most ${MAX_TIMEOUT_SECONDS} seconds, e.g. \`within 30s\``,
      at,
      s.text.length - last - 1,
    );
  }
  return ok({ body: trimSlice(sub(s, 0, last)), timeoutMs: Math.round(seconds * 1000) });
}
