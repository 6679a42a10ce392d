// A trace file (JSON lines) as tests read it: line 1 the header, every further non-empty line a
// step. Types are the test's to state: a test reads the fields it checks.
import { readFileSync } from "node:fs";

export interface TraceLines<H, S> {
  readonly header: H;
  readonly steps: S[];
}

/** The parsed lines of trace text. */
export function parseTrace<H = Record<string, unknown>, S = Record<string, unknown>>(text: string): TraceLines<H, S> {
  const [header, ...steps] = text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as unknown);
  if (header === undefined) throw new Error("an empty trace: no header line");
  return { header: header as H, steps: steps as S[] };
}

/** The parsed lines of the trace file at `path`. */
export function readTrace<H = Record<string, unknown>, S = Record<string, unknown>>(path: string): TraceLines<H, S> {
  return parseTrace<H, S>(readFileSync(path, "utf8"));
}
