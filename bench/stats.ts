// What the benchmarks share: medians and their whole-number command-line options.

/** The median of `xs`; NaN for none. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** `--name N` from the command line: a whole number ≥ `min`, else the usage line and exit 2. */
export function wholeOption(name: string, fallback: number, usage: string, min = 0): number {
  const i = process.argv.indexOf(name);
  const n = i === -1 ? fallback : Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < min) {
    console.error(`usage: ${usage} (${name} needs a whole number ≥ ${min})`);
    process.exit(2);
  }
  return n;
}
