// How messages list several names: "a, b or c", "a, b and c". Pure.

const listed = (words: readonly string[], last: string): string =>
  words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} ${last} ${words.at(-1)!}`;

/** "a", "a or b", "a, b or c". */
export const joinOr = (words: readonly string[]): string => listed(words, "or");

/** "a", "a and b", "a, b and c". */
export const joinAnd = (words: readonly string[]): string => listed(words, "and");
