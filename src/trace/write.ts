// Serialises a trace to JSON lines with a stable key order, sealed with the steps' count and hash
// (the header's `integrity`), and writes it atomically (temp file + rename) so a failed recording
// never leaves a half-written trace.
import { createHash } from "node:crypto";
import { dirname } from "node:path";
import { makeDir, writeFileAtomic } from "../diagnostics/atomic-write.ts";
import { TraceHeader, TraceStep, type TraceHeader as Header, type TraceStep as Step } from "./schema.ts";

const HEADER_ORDER = Object.keys(TraceHeader.properties);
const STEP_ORDER = Object.keys(TraceStep.properties);
/** Order of well-known nested keys (the rest sorted): the reading order of the format's docs. */
const NESTED_ORDER = ["type", "params", "tier", "provenance", "confidence", "payload", "pre", "post", "kind", "name", "adapter", "url", "os", "resolution", "path", "hash"];

/** JSON with object keys in `order` first (schema order), the rest sorted; nested objects sorted. */
export function stableJson(value: unknown, order: readonly string[] = []): string {
  return JSON.stringify(sortKeys(value, order));
}

function sortKeys(value: unknown, order: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => sortKeys(v, NESTED_ORDER));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  const rank = (k: string) => {
    const i = order.indexOf(k);
    return i === -1 ? order.length : i;
  };
  entries.sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) out[k] = sortKeys(v, NESTED_ORDER);
  return out;
}

/** Each step as its trace line: its JSON with keys in the format's order. */
export function stepLines(steps: readonly Step[]): string[] {
  return steps.map((s) => stableJson(s, STEP_ORDER));
}

/** The header's `integrity` for `steps`: their count and the SHA-256 of their lines joined by newlines. */
export function integrityOf(steps: readonly Step[]): NonNullable<Header["integrity"]> {
  return { steps: steps.length, sha256: createHash("sha256").update(stepLines(steps).join("\n")).digest("hex") };
}

/** The trace's text: the header (sealed with the steps' `integrity`), then one line per step. */
export function serializeTrace(header: Header, steps: readonly Step[]): string {
  const sealed: Header = { ...header, integrity: integrityOf(steps) };
  return [stableJson(sealed, HEADER_ORDER), ...stepLines(steps)].join("\n") + "\n";
}

/** Writes the whole trace or nothing. */
export function writeTraceFile(path: string, header: Header, steps: readonly Step[]): void {
  makeDir(dirname(path));
  writeFileAtomic(path, serializeTrace(header, steps));
}
