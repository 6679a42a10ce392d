// `getTrace`: reads a flow's recorded trace (header and steps) for the library, MCP and SDKs.
// Never prints; a missing or malformed trace throws TraceError.
import { resolve } from "node:path";
import { readTraceFile } from "../trace/read.ts";
import type { TraceHeader, TraceStep } from "../trace/schema.ts";
import { defaultTracePath, displayPath } from "./paths.ts";
import { readFlowFile } from "./flow-load.ts";

export interface GetTraceOptions {
  readonly spec: string;
  /** Trace to read; default `<stem>.trace.jsonl` next to the spec. */
  readonly trace?: string;
}

export interface GetTraceResult {
  /** Absolute path of the trace file. */
  readonly trace_path: string;
  readonly header: TraceHeader;
  readonly steps: readonly TraceStep[];
}

export function getTrace(options: GetTraceOptions): GetTraceResult {
  const { path } = readFlowFile(options.spec);
  const tracePath = resolve(options.trace ?? defaultTracePath(path));
  const trace = readTraceFile(tracePath, displayPath(path), displayPath(tracePath));
  return { trace_path: tracePath, header: trace.header, steps: trace.steps };
}
