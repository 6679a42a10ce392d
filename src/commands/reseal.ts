// `flowproof trace <flow.yaml> --reseal`: seals a trace a person trusts in place — one recorded by an
// older flowproof (no seal, or a seal over its steps only) — signed when FLOWPROOF_TRACE_KEY is
// set. It refuses a trace whose text does not match the seal it has, a signed trace it could not
// verify, a flow changed since recording, and a header that disagrees with the flow. Never prints.
import { resolve } from "node:path";
import { TraceError, diagnostic } from "../diagnostics/diagnostic.ts";
import { readTraceFile } from "../trace/read.ts";
import { checkSeal, sealKind, traceKey, TRACE_KEY_VAR, type SealKind } from "../trace/seal.ts";
import { writeTraceFile } from "../trace/write.ts";
import { defaultTracePath, displayPath } from "./paths.ts";
import { loadFlowFile, viewOf } from "./flow-load.ts";
import { loadPluginsFor } from "./project-plugins.ts";
import { checkTraceAgreement } from "./trace-agreement.ts";
import { checkTraceIdentity, staleness } from "./run.ts";

export interface ResealOptions {
  readonly spec: string;
  /** Trace to seal; default `<stem>.trace.jsonl` next to the spec. */
  readonly trace?: string;
  /** FLOWPROOF_TRACE_KEY is read from here (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface ResealResult {
  /** Absolute path of the trace file. */
  readonly trace_path: string;
  /** How it was sealed before, and how it is now. */
  readonly was: SealKind;
  readonly now: SealKind;
}

export async function resealTrace(options: ResealOptions): Promise<ResealResult> {
  const env = options.env ?? process.env;
  const key = traceKey(env);
  const plugins = await loadPluginsFor(options.spec, env);
  const view = viewOf(plugins);
  const flow = loadFlowFile(options.spec, view, false);
  const tracePath = resolve(options.trace ?? defaultTracePath(flow.file));
  const label = displayPath(tracePath);
  // Read as it is: a seal it has must match its text (parseTrace), whatever the policy.
  const trace = readTraceFile(tracePath, displayPath(flow.file), label);
  const was = sealKind(trace.header);
  if (was === "signed") {
    if (key === undefined) {
      throw new TraceError(
        diagnostic("trace-signature", `${label} is signed: sealing it again without ${TRACE_KEY_VAR} would drop its signature`, {
          hint: `set ${TRACE_KEY_VAR} to the key it was signed with, or leave it as it is`,
        }),
      );
    }
    checkSeal(trace.header, trace.steps, { allowUnsealed: false, key }, label, displayPath(flow.file));
  }
  checkTraceIdentity(trace.header, tracePath, flow);
  if (staleness(trace.header, flow)) {
    throw new TraceError(
      diagnostic("bad-trace", `${displayPath(flow.file)} changed since ${label} was recorded: a stale trace is recorded again, not sealed`, {
        hint: `record it again: flowproof record ${displayPath(flow.file)}`,
      }),
    );
  }
  checkTraceAgreement(trace.header, tracePath, flow, view.catalog);
  writeTraceFile(tracePath, trace.header, trace.steps, key);
  return { trace_path: tracePath, was, now: key !== undefined ? "signed" : "sealed" };
}
