// "Did you mean …?" for unknown keys and flags: nearest candidate by edit distance. Pure.
import { editDistance } from "../diagnostics/edit-distance.ts";

/** The closest candidate within a distance of max(2, a third of the word), or undefined. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

export { editDistance };
