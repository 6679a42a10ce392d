// A trace file (JSON lines) as tests read it: line 1 the header, every further non-empty line a
// step. Types are the test's to state: a test reads the fields it checks. Tests that simulate a
// drifted app by editing a recorded trace seal the edit again (`resealed`), as a new record would.
import { readFileSync, writeFileSync } from "node:fs";
import { sealOf } from "../../src/trace/seal.ts";
import type { TraceHeader, TraceStep } from "../../src/trace/schema.ts";

export interface TraceLines<H, S> {
  readonly header: H;
  readonly steps: S[];
}

/** The parsed lines of trace text. */
export function parseTrace<H = Record<string, unknown>, S = Record<string, unknown>>(text: string): TraceLines<H, S> {
  const [header, ...steps] = text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as unknown);
  if (header === undefined) throw new Error("an empty trace: no header line");
  return { header: header as H, steps: steps as S[] };
}

/** The parsed lines of the trace file at `path`. */
export function readTrace<H = Record<string, unknown>, S = Record<string, unknown>>(path: string): TraceLines<H, S> {
  return parseTrace<H, S>(readFileSync(path, "utf8"));
}

/** Trace text whose seal (`integrity`) is recomputed for its header and steps as they are now (signed with `key` when given); text without a seal is returned as it is. */
export function resealed(text: string, key?: string): string {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  const [first, ...rest] = lines;
  if (first === undefined) return text;
  const header = JSON.parse(first) as Record<string, unknown>;
  if (header["integrity"] === undefined) return text;
  header["integrity"] = sealOf(
    header as unknown as TraceHeader,
    rest.map((l) => JSON.parse(l) as TraceStep),
    key,
  );
  return `${[JSON.stringify(header), ...rest].join("\n")}\n`;
}

/** Edits the trace file at `path` with `edit` and seals it again. */
export function editTrace(path: string, edit: (text: string) => string): void {
  writeFileSync(path, resealed(edit(readFileSync(path, "utf8"))));
}
