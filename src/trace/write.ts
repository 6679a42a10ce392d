// Serialises a trace to JSON lines with a stable key order, sealed whole (the header's `integrity`:
// see seal.ts; signed when a key is given), and writes it atomically (temp file + rename) so a
// failed recording never leaves a half-written trace. Every trace flowproof writes goes through
// `serializeTrace`.
import { dirname } from "node:path";
import { makeDir, writeFileAtomic } from "../diagnostics/atomic-write.ts";
import type { TraceHeader as Header, TraceStep as Step } from "./schema.ts";
import { headerLine, sealOf, stepLines } from "./seal.ts";

export { stableJson } from "./stable-json.ts";
export { stepLines } from "./seal.ts";

/** The trace's text: the header (sealed with `integrity` over header and steps; signed with `key`), then one line per step. */
export function serializeTrace(header: Header, steps: readonly Step[], key?: string): string {
  const sealed: Header = { ...header, integrity: sealOf(header, steps, key) };
  return [headerLine(sealed), ...stepLines(steps)].join("\n") + "\n";
}

/** Writes the whole trace or nothing; `key` (FLOWPROOF_TRACE_KEY) signs it. */
export function writeTraceFile(path: string, header: Header, steps: readonly Step[], key?: string): void {
  makeDir(dirname(path));
  writeFileAtomic(path, serializeTrace(header, steps, key));
}
