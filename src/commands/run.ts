// `flowproof run <flow.yaml>`: replays the flow's trace with zero model calls and writes the run
// bundle (result.json, junit.xml, report.html). Never prints; a failing flow is a result.
import { realpathSync } from "node:fs";
import { resolve, dirname } from "node:path";
import { readTraceFile, type Trace } from "../trace/read.ts";
import { sealPolicy } from "../trace/seal.ts";
import { checkTraceAgreement } from "./trace-agreement.ts";
import type { TraceHeader, TraceStep } from "../trace/schema.ts";
import { failureDifference, otherFailureDetail } from "../engine/known-failure.ts";
import { TraceError, diagnostic } from "../diagnostics/diagnostic.ts";
import type { Flow } from "../spec/flow.ts";
import { executeSteps, reportLines, type StepResult } from "../engine/loop.ts";
import { systemClock, redact } from "../engine/context.ts";
import { UnresolvedReferenceError } from "../engine/templates.ts";
import { AdapterUnavailableError } from "../plugins/api.ts";
import type { Lifecycle } from "../plugins/lifecycle.ts";
import { OutputError } from "../diagnostics/atomic-write.ts";
import type { RunOutcome, RunReport } from "../report/schema.ts";
import { createRunDir, writeRunBundle } from "../report/bundle.ts";
import { FLOWPROOF_VERSION } from "../version.ts";
import { defaultTracePath, displayPath } from "./paths.ts";
import { ranOnOf, releaseSurface, type OpenedSurface } from "./surface.ts";
import { openExecution, targetOfTrace } from "./execution.ts";
import { assertHeaderBlocks } from "./header-blocks.ts";
import { runContextsOf } from "./project-plugins.ts";
import { loadFlowForReplay, type ReplayFlow } from "./flow-load.ts";
import { headedFor, lifecycleOf, withinRoot, type CommonOptions, envOf } from "./common.ts";
import type { RecordingControls } from "../recording/controls.ts";
import type { RecordingReport } from "../report/schema.ts";
import { recorderObserver, recordingReport, withTimeline } from "./recording.ts";
import type { SuiteDefaults } from "./suite-context.ts";
import { unmetGate } from "../spec/suite-keys.ts";
import { resolveExports, skippedReport } from "./flow-outcome.ts";
import type { SessionPool } from "./session-pool.ts";
import { captureDebug } from "./debug-bundle.ts";

export interface RunOptions extends CommonOptions, RecordingControls {
  readonly spec: string;
  /** Trace to replay; default `<stem>.trace.jsonl` next to the spec. */
  readonly trace?: string;
  /** A suite run's shared adapter sessions (one browser per run); default: a session of this run's own. */
  readonly pool?: SessionPool;
  /** Where to write the run bundle; default a new `.flowproof/runs/<id>/` next to the flow. */
  readonly runDir?: string;
  /** The governing suite's `browser` defaults and `identities`, passed through for the flow's own keys. */
  readonly suiteDefaults?: SuiteDefaults;
  /** The flow and run context the caller already loaded (`loadFlowForReplay`), so the flow is read and its plugins are viewed once per run. */
  readonly loaded?: ReplayFlow;
  /** `--allow-unsealed`: replay a trace without a whole-trace seal (written by an older flowproof); also FLOWPROOF_ALLOW_UNSEALED=1. */
  readonly allowUnsealed?: boolean;
  /** A suite matrix entry this run is one of (`browsers:`): the result is named `<flow name> [<label>]`. */
  readonly label?: string;
  /** Called as each replayed step finishes (its position from 1, the step count, the step and its result): progress for the library and MCP. */
  readonly onStep?: (index: number, total: number, intent: string, result: StepResult) => void;
}

export interface RunResult {
  readonly report: RunReport;
  /** Path of result.json (named `report_path` on every wire: --json, MCP, the Python SDK). */
  readonly report_path: string;
  readonly run_dir: string;
  readonly junit_path: string;
  readonly html_path: string;
  readonly warnings: readonly string[];
  /** Set when the flow could not run at all (exit code 2): the hint that fixes it. */
  readonly error_hint?: string;
  /** Why the flow was skipped (`skip_unless_env` unmet); the report then holds one skipped step. */
  readonly skipped?: string;
  /** The flow's `exports:` resolved after its last step passed: in memory only, never written anywhere. */
  readonly exported?: Readonly<Record<string, string>>;
}

export function run(options: RunOptions): Promise<RunResult> {
  return withinRoot(options.root, { "the flow": options.spec, "the trace": options.trace }, () => runConfined(options));
}

async function runConfined(options: RunOptions): Promise<RunResult> {
  const env = envOf(options);
  const log = options.log ?? (() => undefined);
  // Replay reads the trace, not the step text: plain steps need not parse under the rules grammar
  // (a model-authored flow's steps are intent).
  const { flow, context } = options.loaded ?? (await loadFlowForReplay(options.spec, runContextsOf(env, lifecycleOf(options)), options.suiteDefaults));
  const unmet = unmetGate(flow.skip_unless_env, env);
  if (unmet.length > 0) {
    const reason = `skip_unless_env: ${unmet.join(", ")} ${unmet.length === 1 ? "is" : "are"} not set`;
    const report = withEntry(
      skippedReport(labelled(flow.name, options.label), displayPath(flow.file), displayPath(resolve(options.trace ?? defaultTracePath(flow.file))), reason),
      options.label,
    );
    const dir = options.runDir ?? createRunDir(dirname(flow.file), new Date());
    const paths = writeRunBundle(dir, report);
    return { report, report_path: paths.result, run_dir: dir, junit_path: paths.junit, html_path: paths.html, warnings: [], skipped: reason };
  }
  const tracePath = resolve(options.trace ?? defaultTracePath(flow.file));
  const trace: Trace = readTraceFile(tracePath, displayPath(flow.file), displayPath(tracePath), sealPolicy(env, options.allowUnsealed));
  checkTraceIdentity(trace.header, tracePath, flow);
  // Every adapter block of the header is checked against its adapter's own schema before anything opens from it.
  const catalog = context.catalog;
  assertHeaderBlocks(trace.header, catalog);
  const stale = staleness(trace.header, flow);
  // A flow that changed since recording is stale (never a pass); one that did not must agree with its trace's header.
  if (!stale) checkTraceAgreement(trace.header, tracePath, flow, catalog);
  const warnings: string[] = [...(trace.warnings ?? [])];
  for (const w of warnings) log(`WARNING: ${w}`);

  const startedAt = new Date();
  const t0 = systemClock.now();
  const dir = options.runDir ?? createRunDir(dirname(flow.file), startedAt);
  let recording: RecordingReport | undefined;
  const secrets = new Map<string, string>();
  let results: StepResult[] = [];
  let error: string | undefined;
  let errorHint: string | undefined;
  let exported: Record<string, string> | undefined;
  let ranOn: Pick<RunReport, "ran_on"> = {};
  /** With --keep-open: the surface left open until the results are written. */
  let held: OpenedSurface | undefined;
  try {
    // The app is shaped from the trace header alone, never from the (possibly edited) spec.
    const execution = await openExecution({
      flow,
      target: targetOfTrace(trace.header, catalog),
      env,
      secrets,
      log,
      context,
      headed: headedFor(options, env),
      pool: options.pool,
    });
    const surface = execution.surface;
    ranOn = ranOnOf(surface.driver);
    try {
      const opened = await execution.start(trace.steps[0]?.surface);
      if (!opened.ok) {
        error = `could not open the flow's url: ${opened.detail}`;
        errorHint = /answered HTTP 5\d\d/.test(opened.detail)
          ? "the app under test answered with a server error: its log says why"
          : "start the app under test first, or fix `url:` in the flow";
      } else {
        // Replays mask with the rules recorded into the trace, never the (possibly edited) spec's.
        const { recorder, structured, ctx } = execution.begin({
          mode: "replay",
          artifactDir: dir,
          controls: options,
          redaction: trace.header.redaction ?? [],
          steps: trace.steps,
          effects: trace.header.effects ?? "on",
        });
        await recorder.start();
        const observer = recorderObserver(recorder);
        results = await executeSteps(trace.steps, ctx, {
          ...observer,
          // Each recorded step runs on its recorded surface.
          stepStarted: async (step, index) => {
            await execution.activate(step.surface);
            return observer.stepStarted?.(step, index);
          },
          stepFinished: async (step, result) => {
            options.onStep?.(trace.steps.indexOf(step) + 1, trace.steps.length, step.intent, result);
            return observer.stepFinished?.(step, result);
          },
        });
        // The first failure leaves the page as it was: snapshot it for the person debugging.
        results = await captureDebug(surface.driver, dir, trace.steps, results, secrets);
        // assert_no_secret_leak is whole-run: a leak after its step passed still fails the run.
        error = structured.leaks.lateLeak();
        const summary = await recorder.finish();
        results = withTimeline(results, summary.steps);
        recording = recordingReport(summary, options);
        // A stale replay exports nothing: its values come from steps the flow may no longer have.
        if (flow.exports && !stale && results.length > 0 && results.every((r) => r.status === "passed")) {
          const resolved = resolveExports(flow.exports, ctx, results);
          results = resolved.results;
          exported = resolved.values;
        }
      }
    } finally {
      if (options.keepOpen) held = surface;
      else await releaseSurface(surface, undefined);
    }
  } catch (e) {
    if (e instanceof AdapterUnavailableError) {
      error = e.message;
      errorHint = e.hint;
    } else if (e instanceof UnresolvedReferenceError) {
      error = e.message;
    } else if (e instanceof OutputError) {
      // The run's frames could not be written (a full disk): say so, with what to do, not as a driver fault.
      error = e.message;
      errorHint = e.diagnostics[0]?.hint;
    } else if (context.lifecycle.signal.aborted && e instanceof Error) {
      // Stopping: no browser opens any more, and that is the reason, not a driver fault.
      error = e.message;
    } else {
      error = `driver fault: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  if (stale && error === undefined) {
    // Fail closed: the replay ran the trace as recorded, which is not the flow as written now.
    error = `${displayPath(flow.file)} changed since ${displayPath(tracePath)} was recorded: the trace is stale (it replays the flow as it was, not as it is written now)`;
    errorHint = `re-record the trace: flowproof record ${displayPath(flow.file)}`;
  }
  if (error !== undefined && results.length === 0) {
    results = trace.steps.map((s) => ({
      id: s.id,
      intent: s.intent,
      status: "skipped" as const,
      detail: "not run: the flow could not start",
      started_ms: 0,
      duration_ms: 0,
    }));
  }

  const known = knownFailure(trace.header, trace.steps, results, error, displayPath(flow.file));
  results = known.results;
  const interrupted = interruptedBy(context.lifecycle, results, error);
  const outcome = known.expected
    ? "expected_failure"
    : runOutcome({ steps: results, error, stale: stale !== undefined, interrupted: interrupted !== undefined });
  // An agent run reports how many model calls it made (none at replay, by construction).
  const agentRuns = results.filter((r) => r.agent !== undefined);
  const report: RunReport = {
    name: labelled(flow.name, options.label),
    ...(options.label ? { browser: options.label } : {}),
    trace_id: trace.header.trace_id,
    passed: outcome === "passed" || outcome === "expected_failure",
    outcome,
    ...(stale ? { stale } : {}),
    steps: reportLines(results),
    ...(agentRuns.length > 0 ? { model_calls: agentRuns.reduce((n, r) => n + (r.agent?.model_calls ?? 0), 0) } : {}),
    duration_ms: Math.round(systemClock.now() - t0),
    started_at: startedAt.toISOString(),
    flowproof_version: FLOWPROOF_VERSION,
    spec_path: displayPath(flow.file),
    trace_path: displayPath(tracePath),
    ...(error !== undefined ? { error: redact(error, secrets) } : {}),
    ...(recording ? { recording } : {}),
    ...ranOn,
    ...(interrupted !== undefined ? { interrupted } : {}),
    ...(known.expected ? { expected_failure: known.expected } : {}),
  };
  const paths = writeRunBundle(dir, report);
  if (held) await releaseSurface(held, options.keepOpen);
  return {
    report,
    report_path: paths.result,
    run_dir: dir,
    junit_path: paths.junit,
    html_path: paths.html,
    warnings,
    ...(errorHint ? { error_hint: errorHint } : {}),
    ...(exported ? { exported } : {}),
  };
}

/**
 * A known failure (`expect` in the header) at replay: expected while its step is the first to fail
 * and fails the same way as recorded (engine/known-failure.ts); failing another way, the step
 * fails naming both failures; once it passes, it fails naming the marker to remove. Anything else
 * (another step failing first, an error) is the replay's own verdict.
 */
export function knownFailure(
  header: TraceHeader,
  steps: readonly TraceStep[],
  results: StepResult[],
  error: string | undefined,
  flowPath: string,
): { results: StepResult[]; expected?: NonNullable<RunReport["expected_failure"]> } {
  const known = header.expect;
  if (!known || error !== undefined) return { results };
  const first = results.find((r) => r.status !== "passed");
  if (first?.id === known.step && first.status === "failed") {
    const step = steps.find((s) => s.id === first.id);
    const why = step ? failureDifference(known, step, first) : "the step is not in the trace";
    if (why === undefined)
      return { results, expected: { reason: known.fail, step: first.id, ...(first.detail !== undefined ? { detail: first.detail } : {}) } };
    return { results: results.map((r) => (r === first ? { ...r, detail: otherFailureDetail(known, first, why) } : r)) };
  }
  if (first !== undefined) return { results };
  const gone = `expected to fail (${known.fail}), but it passed: the known failure is gone; remove \`expect:\` from ${flowPath} and record it again`;
  return { results: results.map((r) => (r.id === known.step ? { ...r, status: "failed" as const, detail: gone } : r)) };
}

/** Where a trace header says its flow file is (its `spec.path` is relative to the trace's folder). */
function recordedFlowPath(header: TraceHeader, tracePath: string): string | undefined {
  return header.spec?.path !== undefined ? resolve(dirname(tracePath), header.spec.path) : undefined;
}

function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/**
 * A trace recorded from another flow (another `name:` or another file) never replays for this
 * one: a TraceError (exit code 2) naming both. Traces without a `spec` header are not checked.
 */
export function checkTraceIdentity(header: TraceHeader, tracePath: string, flow: Pick<Flow, "name" | "file" | "app" | "apps">): void {
  const spec = header.spec;
  if (!spec) return;
  const recordedApps = appsOf(
    header.app.adapter,
    Object.entries(header.apps ?? {}).map(([name, a]) => [name, a.adapter] as const),
  );
  const flowApps = appsOf(
    flow.app,
    Object.entries(flow.apps ?? {}).map(([name, a]) => [name, a.app] as const),
  );
  if (recordedApps !== flowApps) {
    throw new TraceError(
      diagnostic("bad-trace", `${displayPath(tracePath)} was recorded for ${recordedApps}, but ${displayPath(flow.file)} is ${flowApps}`, {
        hint: `record the flow again: flowproof record ${displayPath(flow.file)}`,
      }),
    );
  }
  const recordedPath = recordedFlowPath(header, tracePath);
  const otherName = spec.name !== flow.name;
  const otherFile = recordedPath !== undefined && !samePath(recordedPath, flow.file);
  if (!otherName && !otherFile) return;
  const recorded = `${JSON.stringify(spec.name)}${recordedPath !== undefined ? ` (${displayPath(recordedPath)})` : ""}`;
  const wanted = `${JSON.stringify(flow.name)} (${displayPath(flow.file)})`;
  throw new TraceError(
    diagnostic("bad-trace", `${displayPath(tracePath)} was recorded from the flow ${recorded}, not from ${wanted}`, {
      hint: `replay the flow's own trace (${displayPath(defaultTracePath(flow.file))}), or record one for it: flowproof record ${displayPath(flow.file)}`,
    }),
  );
}

/** A flow's app as a phrase: `an app: web flow`, or its surfaces `apps: gui (sap), portal (web)`. */
function appsOf(app: string, surfaces: readonly (readonly [string, string])[]): string {
  if (app !== "multi") return `an \`app: ${app}\` flow`;
  return `a flow with \`apps: ${[...surfaces]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, kind]) => `${name} (${kind})`)
    .join(", ")}\``;
}

/** The recorded and current hashes when the flow file changed since its trace was recorded. */
export function staleness(header: TraceHeader, flow: Pick<Flow, "hash">): { trace_hash: string; flow_hash: string } | undefined {
  const recorded = header.spec?.hash;
  return recorded !== undefined && recorded !== flow.hash ? { trace_hash: recorded, flow_hash: flow.hash } : undefined;
}

/**
 * A replayed flow's one outcome. Stale wins over everything (the replay is not of the flow as
 * written); then interrupted (the process was stopped: a step errored as interrupted, or the flow
 * could not start); then an error of the run or an errored step; then a failed step.
 */
export function runOutcome(run: {
  readonly steps: readonly Pick<StepResult, "status">[];
  readonly error: string | undefined;
  readonly stale: boolean;
  readonly interrupted: boolean;
}): RunOutcome {
  if (run.stale) return "stale";
  if (run.interrupted) return "interrupted";
  if (run.error !== undefined || run.steps.some((s) => s.status === "errored")) return "errored";
  return run.steps.length > 0 && run.steps.every((s) => s.status === "passed") ? "passed" : "failed";
}

/** What stopped the process, when it stopped this flow (a step errored as interrupted, or the flow could not start). */
function interruptedBy(lifecycle: Lifecycle, results: readonly StepResult[], error: string | undefined): string | undefined {
  const request = lifecycle.stopRequest;
  return request && (error !== undefined || results.some((r) => r.status === "errored")) ? request.reason : undefined;
}

/** `report` with the suite matrix entry it ran as (result.json's `browser`), when it has one. */
export function withEntry(report: RunReport, label: string | undefined): RunReport {
  return label ? { ...report, browser: label } : report;
}

/** A flow's name as a result shows it: with its suite matrix entry, `Checkout [firefox]`. */
export function labelled(name: string, label: string | undefined): string {
  return label ? `${name} [${label}]` : name;
}
