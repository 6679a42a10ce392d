// Adversarial inputs of 10^5 characters for the parsers that read user text, and a time bound to
// hold each to: the shapes that make a backtracking regular expression super-linear (one long
// word, a long run of one separator, nested or unclosed quotes, a keyword followed by either), each
// behind the prefixes that steer a parser into the branch worth attacking.

/** Characters in each generated input. */
export const FUZZ_CHARS = 100_000;
/** The most one parse of one input may take, on a busy machine (a linear parse takes milliseconds). */
export const FUZZ_BOUND_MS = 2_000;

const FILLERS: readonly string[] = [
  "a",
  "A1",
  "9",
  " ",
  "\t",
  "\n",
  "\r\n",
  ".",
  ",",
  ";",
  ":",
  "-",
  "/",
  "\\",
  "#",
  "%",
  "$",
  "{",
  "}",
  "[",
  "]",
  "(",
  ")",
  '"',
  "'",
  "`",
  "${",
  "${a",
  "${}",
  '"a"',
  "'a'",
  "\"'",
  "a ",
  'a"',
  '" ',
  "a,",
  "a;",
  "<",
  "<a>",
  "<a",
  "&",
  "a=",
  "=&",
  "1 ",
  "1.",
  "x\t",
  '""',
  "''",
  "*",
  "_-A",
  "/A/",
  "é",
  "\u0000",
];

/** Every filler repeated to `chars` characters (cut to length). */
export function fillers(chars = FUZZ_CHARS): string[] {
  return FILLERS.map((f) => f.repeat(Math.ceil(chars / f.length)).slice(0, chars));
}

/**
 * The inputs for a parser: each filler alone, behind each of `prefixes` (the words that lead the
 * parser into one of its forms), before each of `suffixes`, and between each `[prefix, suffix]` of `around`.
 */
export function adversarialInputs(
  prefixes: readonly string[],
  suffixes: readonly string[] = [],
  around: readonly (readonly [string, string])[] = [],
  chars = FUZZ_CHARS,
): string[] {
  const out: string[] = [];
  for (const body of fillers(chars)) {
    out.push(body);
    for (const p of prefixes) out.push(`${p}${body}`);
    for (const s of suffixes) out.push(`${body}${s}`);
    for (const [p, s] of around) out.push(`${p}${body}${s}`);
  }
  return out;
}

/**
 * Runs `parse` on each input and returns the ones over `boundMs` (empty when every parse was in
 * time), each as its first 40 characters and its time: the test asserts the list is empty, so a
 * failure names the shape that backtracks. An input over the bound is timed once more and judged
 * by the faster run: a pause of a busy machine does not repeat, a super-linear parse does.
 */
export async function slowInputs(inputs: readonly string[], parse: (input: string) => unknown, boundMs = FUZZ_BOUND_MS): Promise<string[]> {
  const slow: string[] = [];
  const timed = async (input: string) => {
    const started = performance.now();
    try {
      await parse(input);
    } catch {
      // A refusal is an answer: only the time is judged.
    }
    return performance.now() - started;
  };
  for (const input of inputs) {
    let ms = await timed(input);
    if (ms > boundMs) ms = Math.min(ms, await timed(input));
    if (ms > boundMs) slow.push(`${JSON.stringify(input.slice(0, 40))}… (${input.length} chars): ${Math.round(ms)} ms`);
  }
  return slow;
}
