// `flowproof run <dir>`: every flow of a suite in one run — one browser (a context per flow),
// suite env and hooks, exports handed to later flows, retries, `--workers`, `--shard`, a merged
// junit and a run record. A broken flow is recorded as errored and the others still run.
// Typed options in, typed result out; progress goes to callbacks, never to stdout.
import { envOf, lifecycleOf } from "./common.ts";
import { runContextsOf } from "./project-plugins.ts";
import type { Lifecycle } from "../plugins/lifecycle.ts";
import { existsSync, mkdirSync } from "node:fs";
import { createHash } from "node:crypto";
import { join, relative, resolve } from "node:path";
import { FlowproofError } from "../diagnostics/diagnostic.ts";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import type { RunReport } from "../report/schema.ts";
import type { Flow } from "../spec/flow.ts";
import { controlRecord, flowReason, flowStatus, type FlowRecord, type RunRecord } from "../report/run-record.ts";
import { junitXml } from "../report/junit.ts";
import { suiteHtml } from "../report/suite-html.ts";
import { writeRunBundle } from "../report/bundle.ts";
import { checkRepeatOptions, combineRepeats } from "./repeat.ts";
import { FLOWPROOF_VERSION } from "../version.ts";
import { defaultTracePath, displayPath } from "./paths.ts";
import { loadFlowForReplay, type ReplayFlow } from "./flow-load.ts";
import { withinRoot, type AuthorMode, type CommonOptions } from "./common.ts";
import type { RecordingControls } from "../recording/controls.ts";
import { run } from "./run.ts";
import { recordInSuite } from "./record.ts";
import { SessionPool, sharesBrowser } from "./session-pool.ts";
import { findSuiteFile, prepareSuite, runHook, startAppServer, type Env, type SuiteContext } from "./suite-context.ts";
import { checkControlsUnique, discoverFlows, orderFlows, selectShard, type PlannedFlow, type Shard } from "./suite-plan.ts";
import { byFlow, expandMatrix, unitKey, type MatrixUnit } from "./suite-matrix.ts";
import { labelled, withEntry } from "./run.ts";
import { createRecordDir, logPruned, pruneRecords, writeRecord } from "./run-records.ts";
import { writeFileAtomic } from "../diagnostics/atomic-write.ts";
import { erroredReport, skippedReport } from "./flow-outcome.ts";
import { runWithWorkers } from "./workers.ts";

export interface SuiteOptions extends CommonOptions, RecordingControls {
  readonly dir: string;
  /** Re-run a failed flow up to this many more times, with a fresh driver. */
  readonly retries?: number;
  /** Replay each flow this many times (`--repeat-each`): FLAKY when its repeats disagree. */
  readonly repeatEach?: number;
  /** A missing trace is an error instead of a visible skip (also when `CI` is set in the environment). */
  readonly strict?: boolean;
  /** Record traceless flows in place, then replay them. */
  readonly recordMissing?: boolean;
  readonly author?: AuthorMode;
  /** `--allow-unsealed`: replay traces without a whole-trace seal (written by an older flowproof); also FLOWPROOF_ALLOW_UNSEALED=1. */
  readonly allowUnsealed?: boolean;
  /** Flows run at once (default 1). `order:` flows always run one after another, first. */
  readonly workers?: number;
  readonly shard?: Shard;
  /** Called once per flow as it finishes (in completion order). */
  readonly onFlow?: (flow: SuiteFlowResult) => void;
}

/** `stale`: the flow changed since its trace was recorded (an error of the run, exit code 2). */
/** `expected_failure`: a known failure (`expect: {fail: …}`) that failed as recorded; counts as no failure. */
export type FlowOutcome = "passed" | "failed" | "skipped" | "errored" | "stale" | "expected_failure" | "flaky";

export interface SuiteFlowResult {
  /** Flow file relative to the suite directory. */
  readonly spec: string;
  /** The flow's name; with a `browsers:` matrix, with its browser: `Checkout [firefox]`. */
  readonly name: string;
  /** The entry of the suite's `browsers:` matrix this run ran in; absent without a matrix. */
  readonly browser?: string;
  readonly outcome: FlowOutcome;
  readonly report: RunReport;
  readonly report_path: string | null;
  readonly attempts: number;
  /** Recorded by --record-missing before it replayed. */
  readonly recorded?: boolean;
  /** Names of the variables the flow exported (never values). */
  readonly exports: readonly string[];
  /** Why it did not pass (skip reason, error, first failing step). */
  readonly reason?: string;
  readonly position: number;
}

export interface SuiteResult {
  readonly dir: string;
  readonly flows: readonly SuiteFlowResult[];
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly errored: number;
  readonly stale: number;
  /** Flows with a known failure that failed as recorded (outcome `expected_failure`). */
  readonly expected_failures: number;
  /** Flows whose repeats disagreed (`--repeat-each`). */
  readonly flaky: number;
  readonly junit_path: string;
  readonly run_id: string;
  readonly run_dir: string;
  readonly record_path: string;
  readonly html_path: string;
  readonly warnings: readonly string[];
}

interface Loaded {
  readonly plan: MatrixUnit;
  readonly path: string;
  readonly flow?: Flow;
  /** The flow with its plugins, as replay reads it (loaded once, handed to every attempt). */
  readonly replay?: ReplayFlow;
  readonly loadError?: string;
}

/** One line for a flow-file problem: the first diagnostic with its place and hint. */
export function errorLine(error: unknown): string {
  if (error instanceof FlowproofError) {
    const d = error.diagnostics[0];
    if (d)
      return `${d.span ? `${d.span.file}:${d.span.line}:${d.span.column}: ` : ""}${d.message}${d.hint ? ` (hint: ${d.hint.split("\n")[0]})` : ""}${error.diagnostics.length > 1 ? ` (+${error.diagnostics.length - 1} more)` : ""}`;
  }
  return error instanceof Error ? error.message : String(error);
}

export function runSuite(options: SuiteOptions): Promise<SuiteResult> {
  return withinRoot(options.root, { "the suite directory": options.dir }, () => runSuiteConfined(options));
}

async function runSuiteConfined(options: SuiteOptions): Promise<SuiteResult> {
  checkRepeatOptions(options);
  const log = options.log ?? (() => undefined);
  const dir = resolve(options.dir);
  // The nearest suite.yaml at or above the directory governs the run (as for a single flow).
  const suiteFile = findSuiteFile(dir);
  const ctx: SuiteContext = suiteFile
    ? prepareSuite(suiteFile, envOf(options), log)
    : { dir, config: { file: "", env: [], order: [] }, env: { ...envOf(options) } };
  if (suiteFile) log(`suite: ${displayPath(suiteFile)}`);
  // `order:` is relative to the suite.yaml; entries outside the directory being run are not part of this run.
  const order = ctx.config.order.map((e) => relative(dir, resolve(ctx.dir, e))).filter((e) => !e.startsWith(".."));
  const files = orderFlows(dir, discoverFlows(dir), order, suiteFile && displayPath(suiteFile));
  if (files.length === 0 && !options.shard) {
    throw new SpecError(
      diagnostic("io-error", `no *.flow.yaml files below ${displayPath(dir) || "."}`, {
        hint: "a suite is a directory of flow files; `flowproof init` writes an example",
      }),
    );
  }
  // One lifecycle and one run context per project for the whole run: every flow, surface and
  // check of the run sees the same catalogue, registry and assertion map.
  const lifecycle = lifecycleOf(options);
  const contextFor = runContextsOf(ctx.env, lifecycle);
  // Each flow is loaded once, as replay reads it: with the project's plugins, plain steps as
  // intent (a model-authored flow's steps are not rules text; replay reads the trace).
  const load = async (plan: PlannedFlow): Promise<Loaded> => {
    const path = join(dir, plan.rel);
    try {
      const replay = await loadFlowForReplay(path, contextFor, ctx.defaults);
      return { plan, path, flow: replay.flow, replay };
    } catch (error) {
      return { plan, path, loadError: errorLine(error) };
    }
  };
  // A `browsers:` matrix needs every flow loaded to know its units (which flows are web flows),
  // and every shard splits the same units; without one, a shard loads only its own flows.
  let whole: readonly MatrixUnit[] = files;
  let loaded: Loaded[];
  if (ctx.config.matrix) {
    const all = await Promise.all(files.map(load));
    whole = expandMatrix(all, ctx.config.matrix, ctx.env);
    loaded = selectShard(whole, options.shard).map((plan) => ({ ...all.find((l) => l.plan.rel === plan.rel)!, plan }));
  } else loaded = await Promise.all(selectShard(files, options.shard).map(load));
  checkControlsUnique(loaded);

  const server = ctx.config.server ? await startAppServer(ctx.config.server, ctx.dir, ctx.env, log, lifecycle) : undefined;
  const startedAt = new Date();
  const { runId, dir: runDir } = createRecordDir(dir, startedAt);
  const pool = new SessionPool({ shared: sharesBrowser(ctx.env) });
  const exportedEnv: Record<string, string> = {};
  const results: SuiteFlowResult[] = [];
  const warnings: string[] = [];
  try {
    const runOne = async (item: Loaded): Promise<void> => {
      let r: Awaited<ReturnType<typeof runFlow>>;
      try {
        r = await runFlow(item, ctx, { ...options, log, lifecycle }, pool, runDir, { ...ctx.env, ...exportedEnv });
      } catch (error) {
        // Whatever breaks one flow (even writing its bundle) errors that flow only.
        const [title, at] = [labelled(item.flow?.name ?? item.plan.rel, item.plan.variant), displayPath(item.path)];
        const report = withEntry(erroredReport(title, at, displayPath(defaultTracePath(item.path)), `harness fault: ${errorLine(error)}`), item.plan.variant);
        r = {
          result: {
            spec: item.plan.rel,
            name: report.name,
            ...(item.plan.variant ? { browser: item.plan.variant } : {}),
            outcome: outcomeOf(report),
            report,
            report_path: null,
            attempts: 1,
            exports: [],
            position: item.plan.position,
            reason: report.error!,
          },
        };
      }
      if (r.exported) Object.assign(exportedEnv, r.exported);
      results.push(r.result);
      options.onFlow?.(r.result);
    };
    // The `order:` group is a sequence (exports flow along it); everything else may run in parallel.
    for (const item of loaded.filter((l) => l.plan.pinned)) await runOne(item);
    // A flow's runs in a `browsers:` matrix go one after another (a missing trace is recorded once).
    await runWithWorkers(byFlow(loaded.filter((l) => !l.plan.pinned)), Math.max(1, options.workers ?? 1), async (runs) => {
      for (const item of runs) await runOne(item);
    });
  } finally {
    await pool.close();
    await server?.stop();
  }

  results.sort((a, b) => a.position - b.position);
  const reports = results.map((r) => r.report);
  const junit = junitXml(reports);
  writeFileAtomic(join(runDir, "junit.xml"), junit);
  const junitPath = join(dir, ".flowproof", "suite-junit.xml");
  writeFileAtomic(junitPath, junit);
  const htmlPath = join(runDir, "report.html");
  writeFileAtomic(
    htmlPath,
    suiteHtml(
      displayPath(dir) || ".",
      runId,
      results.map((r) => ({
        spec: r.spec,
        name: r.name,
        outcome: r.outcome,
        duration_ms: r.report.duration_ms,
        ...(r.reason ? { reason: r.reason } : {}),
        ...(r.report.ran_on?.node ? { node: r.report.ran_on.node } : {}),
        ...(r.report_path ? { report: relativeTo(runDir, r.report_path.replace(/result\.json$/, "report.html")) } : {}),
      })),
    ),
  );
  const record: RunRecord = {
    run_id: runId,
    started_at: startedAt.toISOString(),
    flowproof_version: FLOWPROOF_VERSION,
    env: { os: process.platform },
    suite: displayPath(dir) || ".",
    // What `merge` checks: every shard of the same flow list, and all of its flows accounted for.
    ...(options.shard ? { shard: { index: options.shard.index, total: options.shard.total, flows: whole.length, plan: planHash(whole) } } : {}),
    flows: results.map((r) => flowRecord(r, loaded.find((l) => l.plan.rel === r.spec)?.flow, runDir, dir)),
  };
  let recordPath = join(runDir, "report.json");
  try {
    recordPath = writeRecord(runDir, record);
    logPruned(pruneRecords(dir), (line) => {
      if (line.startsWith("WARNING:")) warnings.push(line);
      log(line);
    });
  } catch (error) {
    // A run record that cannot be written never changes the verdict.
    const w = `WARNING: could not write the run record: ${(error as Error).message}`;
    warnings.push(w);
    log(w);
  }
  const count = (o: FlowOutcome) => results.filter((r) => r.outcome === o).length;
  return {
    dir,
    flows: results,
    passed: count("passed"),
    failed: count("failed"),
    skipped: count("skipped"),
    errored: count("errored"),
    stale: count("stale"),
    expected_failures: count("expected_failure"),
    flaky: count("flaky"),
    junit_path: junitPath,
    run_id: runId,
    run_dir: runDir,
    record_path: recordPath,
    html_path: htmlPath,
    warnings,
  };
}

/** sha256 of the suite's ordered flow list (the `order:` group marked): the same for every shard of one suite. */
function planHash(flows: readonly MatrixUnit[]): string {
  return `sha256:${createHash("sha256")
    .update(flows.map((f) => `${unitKey(f)}${f.pinned ? "\t(order)" : ""}`).join("\n"))
    .digest("hex")}`;
}

function relativeTo(from: string, path: string): string {
  const abs = resolve(path);
  return abs.startsWith(from + "/") ? abs.slice(from.length + 1) : abs;
}

function flowRecord(r: SuiteFlowResult, flow: Flow | undefined, runDir: string, suiteDir: string): FlowRecord {
  const status = flowStatus(r.report);
  const control = flow?.control;
  return {
    flow: r.spec,
    name: r.name,
    ...(r.browser ? { browser: r.browser } : {}),
    status,
    ...(r.report.degraded ? { degraded: true } : {}),
    position: r.position,
    duration_ms: r.report.duration_ms,
    ...(r.attempts > 1 ? { attempts: r.attempts } : {}),
    ...(r.reason ? { reason: r.reason } : {}),
    ...(r.report_path ? { result: relativeTo(runDir, r.report_path) } : {}),
    ...(r.exports.length > 0 ? { exports: [...r.exports] } : {}),
    ...(control ? { control: controlRecord(control, status, r.reason, r.report, relativeTo(suiteDir, defaultTracePath(join(suiteDir, r.spec)))) } : {}),
  };
}

/**
 * The bundle directory of one flow inside the run directory: `flows/<path without .flow.yaml>` for
 * its first attempt, `attempts/<k>/<path without .flow.yaml>` for a retry. Every flow file name maps
 * into `flows/`, so a retry's bundle can never be another flow's (a suffix such as `-attempt-2`
 * could: a flow may be named that).
 */
function flowBundleDir(runDir: string, unit: MatrixUnit, attempt: number, repeat = 1): string {
  const stem = unit.rel.replace(/\.flow\.ya?ml$/i, "");
  // A matrix entry's runs live under `matrix/<entry>/`, apart from every flow file's folder.
  const base = unit.variant ? join(runDir, "matrix", unit.variant) : runDir;
  if (repeat > 1) return join(base, "repeats", String(repeat), stem);
  return attempt > 1 ? join(base, "attempts", String(attempt), stem) : join(base, "flows", stem);
}

/** True when `CI` is set to anything but empty, `0` or `false`, as CI services set it. */
export function inCi(env: Readonly<Record<string, string | undefined>>): boolean {
  const ci = env["CI"]?.trim().toLowerCase();
  return ci !== undefined && ci !== "" && ci !== "0" && ci !== "false";
}

/** A suite counts an interrupted flow as errored. */
function outcomeOf(report: RunReport): FlowOutcome {
  return report.outcome === "interrupted" ? "errored" : report.outcome;
}

async function runFlow(
  item: Loaded,
  ctx: SuiteContext,
  options: SuiteOptions & { log: (line: string) => void; lifecycle: Lifecycle },
  pool: SessionPool,
  runDir: string,
  env: Env,
): Promise<{ result: SuiteFlowResult; exported?: Readonly<Record<string, string>> }> {
  const { plan, path } = item;
  const spec = displayPath(path);
  const tracePath = defaultTracePath(path);
  const name = labelled(item.flow?.name ?? plan.rel, plan.variant);
  const synthetic = (unlabelled: RunReport, extra: Partial<SuiteFlowResult> = {}) => {
    const report = withEntry(unlabelled, plan.variant);
    const dir = flowBundleDir(runDir, plan, 1);
    const paths = writeRunBundle(mkdirp(dir), report);
    return {
      result: {
        spec: plan.rel,
        name,
        ...(plan.variant ? { browser: plan.variant } : {}),
        outcome: outcomeOf(report),
        report,
        report_path: paths.result,
        attempts: 1,
        exports: [],
        position: plan.position,
        ...(flowReason(report) ? { reason: flowReason(report)! } : {}),
        ...extra,
      },
    };
  };
  if (item.loadError !== undefined) return synthetic(erroredReport(name, spec, displayPath(tracePath), item.loadError));
  let recorded = false;
  if (!existsSync(tracePath) && !item.flow?.skip_unless_env?.some((n) => !env[n])) {
    if (options.recordMissing) {
      options.log(`[RECORD] ${name}`);
      try {
        // Recorded as a single `flowproof record` would: between the suite's hooks, in its env. Under
        // a matrix the first run of the flow records it, in that run's entry (the first one listed).
        const recordEnv = { ...env, ...plan.env };
        const r = await recordInSuite(
          { spec: path, env: recordEnv, ...(options.author ? { author: options.author } : {}), log: options.log, lifecycle: options.lifecycle },
          { ctx, env: recordEnv, ...(ctx.defaults ? { defaults: ctx.defaults } : {}) },
          item.replay?.context,
        );
        if (!r.ok) return synthetic(erroredReport(name, spec, displayPath(tracePath), `could not record the missing trace: ${r.error ?? "unknown error"}`));
        recorded = true;
      } catch (error) {
        return synthetic(erroredReport(name, spec, displayPath(tracePath), `could not record the missing trace: ${errorLine(error)}`));
      }
    } else if (options.strict || inCi(env)) {
      const why = options.strict ? "--strict" : "CI is set: an unrecorded flow would otherwise pass unseen";
      return synthetic(
        erroredReport(
          name,
          spec,
          displayPath(tracePath),
          `no trace recorded at ${displayPath(tracePath)} (${why}); record it with \`flowproof record ${spec}\``,
        ),
      );
    } else {
      options.log(
        `WARNING: ${spec} has no trace, so it was not run and checks nothing; record it with \`flowproof record ${spec}\` (in CI, or with --strict, this is an error)`,
      );
      return synthetic(
        skippedReport(
          name,
          spec,
          displayPath(tracePath),
          `no trace recorded at ${displayPath(tracePath)}; record it with \`flowproof record ${spec}\` (or run with --record-missing)`,
        ),
      );
    }
  }
  const hookEnv = { ...env, ...plan.env };
  const { before_each, after_each } = ctx.config;
  const retries = options.retries ?? 0;
  const repeats: Awaited<ReturnType<typeof run>>[] = [];
  let attempt = 0;
  let last: Awaited<ReturnType<typeof run>> | undefined;
  let hookError: string | undefined;
  for (;;) {
    attempt++;
    const repeat = repeats.length + 1;
    hookError = before_each ? await runHook("before_each", before_each, ctx.dir, hookEnv, path, options.log, options.lifecycle) : undefined;
    if (hookError === undefined) {
      try {
        last = await run({
          spec: path,
          env: { ...env, ...plan.env },
          ...(plan.variant ? { label: plan.variant } : {}),
          pool,
          lifecycle: options.lifecycle,
          runDir: mkdirp(flowBundleDir(runDir, plan, repeat > 1 ? 1 : attempt, repeat)),
          ...(ctx.defaults ? { suiteDefaults: ctx.defaults } : {}),
          log: options.log,
          ...(item.replay ? { loaded: item.replay } : {}),
          ...(options.recordingDetail ? { recordingDetail: options.recordingDetail } : {}),
          ...(options.video ? { video: true } : {}),
          ...(options.highlightCursor ? { highlightCursor: true } : {}),
          ...(options.allowUnsealed ? { allowUnsealed: true } : {}),
        });
      } catch (error) {
        hookError = errorLine(error);
      }
    }
    // after_each runs whatever happened, and its failure errors the flow too.
    const after = after_each ? await runHook("after_each", after_each, ctx.dir, hookEnv, path, options.log, options.lifecycle) : undefined;
    if (hookError === undefined && after !== undefined) hookError = after;
    if (hookError !== undefined) {
      const res = synthetic(erroredReport(name, spec, displayPath(tracePath), hookError), { attempts: attempt });
      return res;
    }
    // Repeats (`--repeat-each`) and retries never mix (checkRepeatOptions): only repeats are combined.
    if ((options.repeatEach ?? 1) > 1) repeats.push(last!);
    if (repeats.length > 0 && repeats.length < (options.repeatEach ?? 1)) {
      options.log(`  repeat ${repeats.length}/${options.repeatEach} ${last!.report.outcome} ${name}`);
      continue;
    }
    const outcome = outcomeOf(last!.report);
    if (outcome !== "failed" || attempt > retries) break;
    options.log(`  retry ${attempt}/${retries} ${name}`);
  }
  if (repeats.length > 1) {
    // One verdict for the repeats, written over the bundle of the repeat it shows.
    const shown = repeats.find((r) => !["passed", "expected_failure"].includes(r.report.outcome)) ?? repeats[repeats.length - 1]!;
    const combined = combineRepeats(
      repeats.map((r) => r.report),
      repeats.map((r) => relativeTo(shown.run_dir, r.report_path)),
    );
    writeRunBundle(shown.run_dir, combined);
    last = { ...shown, report: combined };
  }
  const report = last!.report;
  const exported = last!.exported;
  const reason = flowReason(report);
  return {
    result: {
      spec: plan.rel,
      name,
      ...(plan.variant ? { browser: plan.variant } : {}),
      outcome: outcomeOf(report),
      report,
      report_path: last!.report_path,
      attempts: repeats.length > 1 ? 1 : attempt,
      exports: exported ? Object.keys(exported) : [],
      position: plan.position,
      ...(recorded ? { recorded } : {}),
      ...(reason ? { reason } : {}),
    },
    ...(exported ? { exported } : {}),
  };
}

function mkdirp(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
