// The one rule for "shows this text" on a desktop surface, the same as a web page's: white space
// runs read as one space; a text shows when it occurs as written or, failing that, ignoring case;
// `N times` holds when it occurs exactly N times as written, or exactly N times ignoring case.
// And how a number is read off a control's text, and how an ordinal is written. Pure.

/** White space runs as one space, trimmed. */
export const collapse = (text: string): string => text.replace(/\s+/g, " ").trim();

/** How often `needle` occurs in `text` (non-overlapping); 0 for an empty needle. */
export function occurrences(text: string, needle: string): number {
  if (needle === "") return 0;
  let n = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** Whether `text` shows `needle`: as written, else ignoring case (white space collapsed in both). */
export function shows(text: string, needle: string): boolean {
  const t = collapse(text);
  const w = collapse(needle);
  return t.includes(w) || t.toLowerCase().includes(w.toLowerCase());
}

/** `page shows <needle> <count> times`: the verdict, and how many times it was seen (as written, else ignoring case). */
export function showsTimes(text: string, needle: string, count: number): { readonly pass: boolean; readonly seen: number } {
  const t = collapse(text);
  const w = collapse(needle);
  const exact = occurrences(t, w);
  const anyCase = occurrences(t.toLowerCase(), w.toLowerCase());
  return { pass: exact === count || anyCase === count, seen: exact === 0 ? anyCase : exact };
}

/** The number a text shows (`Display is 1,234.5` → 1234.5, `4711` → 4711), or undefined when it shows none. */
export function readNumber(text: string): number | undefined {
  const m = /-?[\d,\u00a0\u202f ]*\d(?:\.\d+)?/.exec(text.replace(/\u2212/g, "-"));
  if (!m) return undefined;
  const n = Number(m[0].replace(/[,\u00a0\u202f ]/g, ""));
  return Number.isFinite(n) ? n : undefined;
}

/** `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`: how an ordinal is written in messages. */
export function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th");
  return `${n}${s}`;
}

/** Whether any of `texts` shows any of the `secrets`, letter case and whitespace ignored (a frame masks where it does). */
export function showsAny(texts: readonly string[], secrets: readonly string[]): boolean {
  const fold = (s: string) => s.toLowerCase().replace(/\s+/g, "");
  const wanted = secrets.map(fold).filter((s) => s !== "");
  return texts.some((t) => {
    const f = fold(t);
    return wanted.some((w) => f.includes(w));
  });
}
