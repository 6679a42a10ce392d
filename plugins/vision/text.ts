// Text as the vision surface compares it: whitespace collapsed, a label's trailing colon dropped,
// and OCR's misreadings allowed (the nearest texts a miss reports are the desktop kit's). Pure.
import { editDistance } from "../../src/plugins/api.ts";
import { collapse } from "../desktop/text.ts";

/** Whitespace collapsed to single spaces, trimmed (the desktop surfaces' rule). */
export { collapse };

/** A phrase as a label reads: collapsed, with one trailing `:` (and the space before it) dropped. */
export function labelText(text: string): string {
  return collapse(text).replace(/\s*:$/, "");
}

/** The edit distance OCR's misreadings are allowed by (the contract's). */
export { editDistance };

/**
 * Whether `haystack` shows `needle`, allowing OCR's misreadings: exactly, or (for a needle of four
 * characters or more) some stretch of about its length within one edit per five characters.
 */
export function showsFuzzy(haystack: string, needle: string): boolean {
  const hay = collapse(haystack);
  const n = collapse(needle);
  if (n === "") return false;
  if (hay.includes(n)) return true;
  if (n.length < 4) return false;
  const allowed = Math.floor(n.length / 5);
  for (let len = n.length - 1; len <= n.length + 1; len++) {
    for (let i = 0; i + len <= hay.length; i++) if (editDistance(hay.slice(i, i + len), n) <= allowed) return true;
  }
  return false;
}
