// `flowproof heal <flow>`: re-records the flow against the live app into `<stem>.proposed.jsonl`,
// diffs it against the trace by position (intent, action, surface, selectors) and writes the
// review page `<stem>.heal.html`. Never touches the trace without `apply`. Never prints.
import { existsSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { readTraceFile, type Trace } from "../trace/read.ts";
import { diffSteps, type ChangedStep } from "../trace/diff.ts";
import type { TraceStep } from "../trace/schema.ts";
import { healHtml, type StepFrames } from "../report/heal-html.ts";
import { FRAMES_DIR } from "../recording/bundle.ts";
import type { Clarification } from "../authoring/clarification.ts";
import { defaultTracePath, displayPath } from "./paths.ts";
import { loadFlowFile } from "./flow-load.ts";
import { loadPluginsFor } from "./project-plugins.ts";
import type { AuthorMode, CommonOptions } from "./common.ts";
import { record, type RoutingEntry } from "./record.ts";
import type { ModelClient } from "../authoring/provider.ts";

export interface HealOptions extends CommonOptions {
  readonly spec: string;
  /** Trace to heal; default `<stem>.trace.jsonl` next to the flow. */
  readonly trace?: string;
  /** Copy the proposal over the trace (and delete the proposal). */
  readonly apply?: boolean;
  readonly author?: AuthorMode;
  /** The authoring model (default: from the environment, as for record). */
  readonly model?: ModelClient;
}

export interface HealReport {
  readonly changed: boolean;
  readonly steps_changed: readonly ChangedStep[];
  readonly steps_added: number;
  readonly steps_removed: number;
  /** The proposal, when there is one left to review (not after apply, not when healthy). */
  readonly proposed_path?: string;
  readonly diff_html?: string;
  readonly routing: readonly RoutingEntry[];
}

export type HealResult =
  | { readonly ok: true; readonly name: string; readonly trace_path: string; readonly report: HealReport; readonly applied: boolean }
  /** The re-record could not complete: `error` says why; `clarification` when a step was too ambiguous. */
  | { readonly ok: false; readonly name: string; readonly trace_path: string; readonly error: string; readonly clarification?: Clarification };

/** `<dir>/<stem>.<suffix>` for the flow `<stem>.flow.yaml`. */
function sibling(tracePath: string, flowFile: string, suffix: string): string {
  const stem = basename(defaultTracePath(flowFile)).replace(/\.trace\.jsonl$/, "");
  return join(dirname(tracePath), `${stem}.${suffix}`);
}

export async function heal(options: HealOptions): Promise<HealResult> {
  const log = options.log ?? (() => undefined);
  const plugins = await loadPluginsFor(options.spec, options.env ?? process.env);
  const flow = loadFlowFile(options.spec, plugins.adapters.map((a) => a.kind), plugins.assertions, false);
  const tracePath = resolve(options.trace ?? defaultTracePath(flow.file));
  const old = readTraceFile(tracePath, displayPath(flow.file), displayPath(tracePath));
  const proposedPath = sibling(tracePath, flow.file, "proposed.jsonl");
  const htmlPath = sibling(tracePath, flow.file, "heal.html");
  log(`heal: re-recording ${displayPath(flow.file)} against the live app`);
  const rec = await record({
    spec: options.spec, out: proposedPath, log,
    ...(options.env ? { env: options.env } : {}),
    ...(options.author ? { author: options.author } : {}),
    ...(options.model ? { model: options.model } : {}),
  });
  if (!rec.ok || !rec.trace_path) {
    return { ok: false, name: flow.name, trace_path: tracePath, error: `the flow could not be re-recorded: ${rec.error ?? "unknown error"}`, ...(rec.clarification ? { clarification: rec.clarification } : {}) };
  }
  const proposed = readTraceFile(proposedPath, displayPath(flow.file), displayPath(proposedPath));
  const diff = diffSteps(old.steps, proposed.steps);
  if (!diff.changed) {
    // Nothing to review: the proposal and its frames are dropped; the trace stays as it is.
    rmSync(proposedPath, { force: true });
    if (rec.recording_dir) rmSync(rec.recording_dir, { recursive: true, force: true });
    rmSync(htmlPath, { force: true });
    return { ok: true, name: flow.name, trace_path: tracePath, applied: false, report: { ...diff, routing: rec.routing } };
  }
  const frames = new Map<string, StepFrames>();
  const byId = (t: Trace) => new Map(t.steps.map((s, i) => [s.id, { step: s, i }]));
  const oldById = byId(old);
  for (const c of diff.steps_changed) {
    const at = oldById.get(c.id);
    const newStep = at ? proposed.steps[at.i] : undefined;
    frames.set(c.id, {
      old: at ? stepFrames(old, at.step, dirname(htmlPath)) : [],
      new: newStep ? stepFrames(proposed, newStep, dirname(htmlPath)) : [],
    });
  }
  writeFileSync(htmlPath, healHtml({ name: flow.name, tracePath: displayPath(tracePath), proposedPath: displayPath(proposedPath), diff, frames }));
  if (options.apply) {
    renameSync(proposedPath, tracePath);
    return { ok: true, name: flow.name, trace_path: tracePath, applied: true, report: { ...diff, diff_html: htmlPath, routing: rec.routing } };
  }
  return { ok: true, name: flow.name, trace_path: tracePath, applied: false, report: { ...diff, proposed_path: proposedPath, diff_html: htmlPath, routing: rec.routing } };
}

const FRAME_FILE = /^frame-(\d+)-[0-9a-f]{8}\.png$/;

/** A step's frames in its trace's authoring bundle (offsets within its recording range), relative to `fromDir`. */
export function stepFrames(trace: Trace, step: TraceStep, fromDir: string): string[] {
  const rec = trace.header.recording;
  const range = step.artifacts.recording;
  if (!rec || !range) return [];
  const dir = join(resolve(dirname(trace.path), rec.dir), FRAMES_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((f) => ({ f, m: FRAME_FILE.exec(f) }))
    .filter((x): x is { f: string; m: RegExpExecArray } => x.m !== null && Number(x.m[1]) >= range.start_ms && Number(x.m[1]) <= range.end_ms)
    .sort((a, b) => Number(a.m[1]) - Number(b.m[1]))
    .map((x) => relative(fromDir, join(dir, x.f)));
}
