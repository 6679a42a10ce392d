// `flowproof heal <flow>`: re-records the flow against the live app into `<stem>.proposed.jsonl`,
// diffs it against the trace by position (intent, action, surface, selectors) and writes the
// review page `<stem>.heal.html`. Never touches the trace without `apply`. Never prints. The
// governing suite.yaml applies as it does to record.
import { envOf, lifecycleOf } from "./common.ts";
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { readTraceFile, type Trace } from "../trace/read.ts";
import { sealPolicy } from "../trace/seal.ts";
import { diffSteps, effectChanges, type ChangedStep, type EffectChange } from "../trace/diff.ts";
import type { TraceStep } from "../trace/schema.ts";
import { healHtml, type StepFrames } from "../report/heal-html.ts";
import { FRAMES_DIR } from "../recording/bundle.ts";
import { writeFileAtomic } from "../diagnostics/atomic-write.ts";
import type { Clarification } from "../authoring/clarification.ts";
import { defaultTracePath, displayPath } from "./paths.ts";
import { loadFlowFile } from "./flow-load.ts";
import { createRunContext, loadPluginsFor } from "./project-plugins.ts";
import { withinRoot, type AuthorMode, type CommonOptions } from "./common.ts";
import { recordInSuite, type RoutingEntry } from "./record.ts";
import { suiteOfFlow, withSuiteServer, type FlowSuite } from "./suite-context.ts";
import type { ModelClient } from "../authoring/provider.ts";
import { healAgentFlow, type AgentRunChange } from "./heal-agent.ts";

export interface HealOptions extends CommonOptions {
  readonly spec: string;
  /** Trace to heal; default `<stem>.trace.jsonl` next to the flow. */
  readonly trace?: string;
  /** Copy the proposal over the trace (and delete the proposal). */
  readonly apply?: boolean;
  /** With `apply`: apply a proposal even when steps' effects changed (refused otherwise). */
  readonly acceptEffectChanges?: boolean;
  readonly author?: AuthorMode;
  /** `--allow-unsealed`: heal a trace without a whole-trace seal (written by an older flowproof); also FLOWPROOF_ALLOW_UNSEALED=1. */
  readonly allowUnsealed?: boolean;
  /** The authoring model (default: from the environment, as for record). */
  readonly model?: ModelClient;
}

export interface HealReport {
  readonly changed: boolean;
  readonly steps_changed: readonly ChangedStep[];
  readonly steps_added: number;
  readonly steps_removed: number;
  /** Steps whose effect (navigation, write requests, dialog, download, target change) differs in the proposal. */
  readonly effect_changes: readonly EffectChange[];
  /** Why `apply` left the trace as it is: steps' effects changed and they were not accepted. */
  readonly refused?: string;
  /** The proposal, when there is one left to review (not after apply, not when healthy). */
  readonly proposed_path?: string;
  readonly diff_html?: string;
  readonly routing: readonly RoutingEntry[];
  /** An agent flow: each agent run whose conversation changed — turns kept from the recording, turns recorded, turns now. */
  readonly agent_runs?: readonly AgentRunChange[];
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

/**
 * `flowproof heal`, as the CLI, the MCP tool and `Flow.heal` all run it: the nearest suite.yaml
 * applies as it does to record (min_version, env_from, env, server, hooks around the re-record,
 * browser defaults, identities).
 */
export function heal(options: HealOptions): Promise<HealResult> {
  return withinRoot(options.root, { "the flow": options.spec, "the trace": options.trace }, () => {
    const log = options.log ?? (() => undefined);
    const suite = suiteOfFlow(options.spec, envOf(options), log);
    const lifecycle = lifecycleOf(options);
    return withSuiteServer(suite, log, () => healInSuite({ ...options, lifecycle }, suite, log), lifecycle);
  });
}

async function healInSuite(options: HealOptions, suite: FlowSuite, log: (line: string) => void): Promise<HealResult> {
  const context = createRunContext(await loadPluginsFor(options.spec, suite.env), lifecycleOf(options));
  const flow = loadFlowFile(options.spec, context, false, suite.defaults);
  const tracePath = resolve(options.trace ?? defaultTracePath(flow.file));
  const policy = sealPolicy(suite.env, options.allowUnsealed);
  const old = readTraceFile(tracePath, displayPath(flow.file), displayPath(tracePath), policy);
  for (const w of old.warnings ?? []) log(`WARNING: ${w}`);
  const proposedPath = sibling(tracePath, flow.file, "proposed.jsonl");
  const htmlPath = sibling(tracePath, flow.file, "heal.html");
  // An agent flow is re-recorded from each run's first diverging turn, not from scratch.
  if (old.steps.some((s) => s.action.type === "agent_run"))
    return healAgentFlow(options, suite, log, flow.name, old, { tracePath, proposedPath, htmlPath }, context);
  log(`heal: re-recording ${displayPath(flow.file)} against the live app`);
  const rec = await recordInSuite(
    {
      spec: options.spec,
      out: proposedPath,
      log,
      env: suite.env,
      ...(options.author ? { author: options.author } : {}),
      ...(options.model ? { model: options.model } : {}),
      lifecycle: context.lifecycle,
    },
    suite,
    context,
  );
  if (!rec.ok || !rec.trace_path) {
    return {
      ok: false,
      name: flow.name,
      trace_path: tracePath,
      error: `the flow could not be re-recorded: ${rec.error ?? "unknown error"}`,
      ...(rec.clarification ? { clarification: rec.clarification } : {}),
    };
  }
  // The proposal was just written by record, sealed (and signed with the key, when set).
  const proposed = readTraceFile(proposedPath, displayPath(flow.file), displayPath(proposedPath), { ...policy, allowUnsealed: false });
  const stepDiff = diffSteps(old.steps, proposed.steps);
  const effects = effectChanges(old.steps, proposed.steps);
  // A step that now does something else (or nothing) is a change even when its target is the same.
  const diff = { ...stepDiff, changed: stepDiff.changed || effects.length > 0 };
  if (!diff.changed) {
    // Nothing to review: the proposal and its frames are dropped; the trace stays as it is.
    rmSync(proposedPath, { force: true });
    if (rec.recording_dir) rmSync(rec.recording_dir, { recursive: true, force: true });
    rmSync(htmlPath, { force: true });
    return { ok: true, name: flow.name, trace_path: tracePath, applied: false, report: { ...diff, effect_changes: effects, routing: rec.routing } };
  }
  const frames = new Map<string, StepFrames>();
  const byId = (t: Trace) => new Map(t.steps.map((s, i) => [s.id, { step: s, i }]));
  const oldById = byId(old);
  for (const c of [...diff.steps_changed, ...effects.filter((e) => !diff.steps_changed.some((c) => c.id === e.id))]) {
    const at = oldById.get(c.id);
    const newStep = at ? proposed.steps[at.i] : undefined;
    frames.set(c.id, {
      old: at ? stepFrames(old, at.step, dirname(htmlPath)) : [],
      new: newStep ? stepFrames(proposed, newStep, dirname(htmlPath)) : [],
    });
  }
  writeFileAtomic(htmlPath, healHtml({ name: flow.name, tracePath: displayPath(tracePath), proposedPath: displayPath(proposedPath), diff, effects, frames }));
  if (options.apply && (effects.length === 0 || options.acceptEffectChanges)) {
    renameSync(proposedPath, tracePath);
    return {
      ok: true,
      name: flow.name,
      trace_path: tracePath,
      applied: true,
      report: { ...diff, effect_changes: effects, diff_html: htmlPath, routing: rec.routing },
    };
  }
  const refused = options.apply
    ? `the proposal changes what ${effects.length === 1 ? "a step does" : `${effects.length} steps do`} (${effects.map((e) => e.id).join(", ")}): review ${displayPath(htmlPath)}, then apply with --accept-effect-changes if the app is meant to behave so`
    : undefined;
  return {
    ok: true,
    name: flow.name,
    trace_path: tracePath,
    applied: false,
    report: { ...diff, effect_changes: effects, ...(refused ? { refused } : {}), proposed_path: proposedPath, diff_html: htmlPath, routing: rec.routing },
  };
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
