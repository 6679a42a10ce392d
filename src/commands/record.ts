// `flowproof record`: performs a flow once in the live app and writes its trace — whole, or not
// at all when a step fails. Typed options in, typed result out; never prints.
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { relative, dirname, join, resolve } from "node:path";
import { existsSync } from "node:fs";
import { writeTraceFile } from "../trace/write.ts";
import type { TraceHeader, TraceStep } from "../trace/schema.ts";
import { SurfaceSet } from "./surface-set.ts";
import { TRACE_FORMAT, TRACE_VERSION } from "../trace/schema.ts";
import { planFlow } from "../engine/plan.ts";
import { reportLines, type StepResult } from "../engine/loop.ts";
import { expandAndRun } from "../engine/blocks.ts";
import { redact } from "../engine/context.ts";
import { stepsWithEffects } from "../engine/effects.ts";
import { stepsWithLearned } from "../engine/context.ts";
import { SpecError } from "../diagnostics/diagnostic.ts";
import { checkWritable } from "../diagnostics/atomic-write.ts";
import { FLOWPROOF_VERSION } from "../version.ts";
import type { AgentTurn } from "../plugins/api.ts";
import { defaultTracePath, displayPath } from "./paths.ts";
import { ranOnOf, releaseSurface } from "./surface.ts";
import { loadFlowFile, loadFlowForReplay } from "./flow-load.ts";
import { openExecution, stepTimeoutFromEnv, targetOfFlow } from "./execution.ts";
import { createRunContext, loadPluginsFor, type RunContext } from "./project-plugins.ts";
import { assertRecordedFacts } from "./header-blocks.ts";
import { headedFor, lifecycleOf, withinRoot, type AuthorMode, type CommonOptions, envOf } from "./common.ts";
import { resolveControls, RECORDING_FORMAT, type RecordingControls } from "../recording/controls.ts";
import { recorderObserver, recordingReport, stepsWithRanges, withTimeline } from "./recording.ts";
import { readTraceFile } from "../trace/read.ts";
import { sealPolicy, traceKey } from "../trace/seal.ts";
import { appDown, recordedFailure } from "../engine/known-failure.ts";
import type { ModelClient } from "../authoring/provider.ts";
import { createAuthoring, type AuthoringSession } from "../authoring/author.ts";
import type { Flow } from "../spec/flow.ts";
import { ReusePool, groupTrace, stillResolves } from "../authoring/reuse.ts";
import type { StepAuthor } from "../engine/blocks.ts";
import { run, runOutcome } from "./run.ts";
import type { SessionPool } from "./session-pool.ts";
import { suiteOfFlow, withSuiteHooks, withSuiteServer, type FlowSuite, type SuiteDefaults } from "./suite-context.ts";
import type { RunReport } from "../report/schema.ts";

export type { Clarification } from "../authoring/clarification.ts";
export type { ModelClient, ChatMessage, Backend } from "../authoring/provider.ts";
import { unmetGate } from "../spec/suite-keys.ts";
import { grammarContext } from "../spec/surface-kinds.ts";
import { evidenceSentence, keepFailedRecord } from "./record-evidence.ts";
import { authoringClient, NO_MODEL_WARNING, noModelClarification } from "./record-model.ts";
import { clarificationRecord, notRecorded, skippedRecord, type RecordResult, type Route, type RoutingEntry } from "./record-result.ts";

export type { RecordResult, Route, RoutingEntry } from "./record-result.ts";
export { modelConfigured } from "./record-model.ts";

export interface RecordOptions extends CommonOptions, RecordingControls {
  readonly spec: string;
  /** Trace path; default `<stem>.trace.jsonl` next to the spec. */
  readonly out?: string;
  readonly author?: AuthorMode;
  /** Re-author only drifted or new plain steps, reusing the existing trace's steps verbatim (needs an existing trace). */
  readonly reuse?: boolean;
  /** Replay the fresh trace once; a trace that cannot reproduce itself fails the record (and is kept). */
  readonly verify?: boolean;
  /** The authoring model (default: from FLOWPROOF_AI_* / OPENAI_* / ANTHROPIC_* in `env`). */
  readonly model?: ModelClient;
  /** Shared adapter sessions (one browser for several records and runs); default: a session of this record's own. */
  readonly pool?: SessionPool;
  /** `heal` of an agent flow: each agent run's recorded cassette, by step id, served until its first divergence, the rest recorded live. */
  readonly prior?: ReadonlyMap<string, readonly AgentTurn[]>;
}

/**
 * `flowproof record`, as the CLI, the MCP tool and `Flow.record` all run it: the nearest
 * suite.yaml applies (min_version, env_from, env, server, before_each/after_each, browser
 * defaults, identities), then the flow is recorded, and with `verify` replayed once.
 */
export function record(options: RecordOptions): Promise<RecordResult> {
  return withinRoot(options.root, { "the flow": options.spec, "the trace": options.out }, () => {
    const log = options.log ?? (() => undefined);
    const suite = suiteOfFlow(options.spec, envOf(options), log);
    const lifecycle = lifecycleOf(options);
    return withSuiteServer(suite, log, () => recordInSuite({ ...options, lifecycle }, suite), lifecycle);
  });
}

/**
 * Records the flow in a suite already prepared (its server answering): the recording between the
 * suite's hooks, and a `verify` replay between them again, as every replay runs. A failing hook
 * fails the recording (`ok: false`, the hook named); a trace already written stays. `context`: the
 * run's, when the caller built it (heal); else the project's plugins are loaded and viewed once
 * here, for the recording and its verify replay both.
 */
export async function recordInSuite(options: RecordOptions, suite: FlowSuite, given?: RunContext): Promise<RecordResult> {
  const log = options.log ?? (() => undefined);
  const spec = resolve(options.spec);
  const context = given ?? createRunContext(await loadPluginsFor(options.spec, suite.env), lifecycleOf(options));
  const { lifecycle } = context;
  const recorded = await withSuiteHooks(suite, spec, log, () => recordFlow({ ...options, env: suite.env }, suite.defaults, context), lifecycle);
  if (!recorded.ran) return notRecorded(recorded.hookError);
  const result = recorded.value;
  if (recorded.hookError !== undefined)
    return { ...result, ok: false, error: `${recorded.hookError}${result.trace_path ? `; the trace was written to ${displayPath(result.trace_path)}` : ""}` };
  if (!options.verify || !result.ok || !result.trace_path) return result;
  const tracePath = result.trace_path;
  log("verify: replaying the fresh trace once");
  const replayed = await withSuiteHooks(
    suite,
    spec,
    log,
    async () =>
      run({
        spec: options.spec,
        trace: tracePath,
        env: suite.env,
        log,
        recordingDetail: "off",
        lifecycle,
        loaded: await loadFlowForReplay(options.spec, async () => context, suite.defaults),
        ...(options.pool ? { pool: options.pool } : {}),
        ...(suite.defaults ? { suiteDefaults: suite.defaults } : {}),
      }),
    lifecycle,
  );
  const kept = `the trace was kept at ${displayPath(tracePath)} as evidence for heal`;
  if (!replayed.ran || replayed.hookError !== undefined)
    return { ...result, ok: false, verified: false, error: `recording not verified: ${replayed.hookError}; ${kept}` };
  const replay = replayed.value;
  if (replay.report.passed) return { ...result, verified: true };
  const bad = replay.report.steps.find((s) => s.status !== "passed");
  return {
    ...result,
    ok: false,
    verified: false,
    error: `recording not reproducible: replaying the fresh trace failed${bad ? ` at ${bad.id} (${bad.intent}): ${bad.detail ?? bad.status}` : replay.report.error ? `: ${replay.report.error}` : ""}; ${kept}`,
  };
}

/**
 * Performs the flow once and writes its trace, in the environment and with the suite defaults
 * given: the suite itself (hooks, server, env_from) is its caller's. `verify` is its caller's too.
 */
async function recordFlow(options: RecordOptions, defaults: SuiteDefaults | undefined, context: RunContext): Promise<RecordResult> {
  const env = envOf(options);
  const log = options.log ?? (() => undefined);
  const author = options.author ?? "auto";
  const client = authoringClient(author, options.model, env);
  const useModel = author !== "rules" && client !== undefined;
  let flow: Flow;
  try {
    flow = loadFlowFile(options.spec, context, !useModel, defaults);
  } catch (error) {
    // Auto mode without a model: a plain step the rules grammar cannot read is a question for the
    // author (stage no_model), not a broken file — unless something else in the file is wrong too.
    const c = author === "auto" && !useModel && error instanceof SpecError ? noModelClarification(options.spec, context, defaults, error) : undefined;
    if (!c) throw error;
    return clarificationRecord(c, [NO_MODEL_WARNING]);
  }
  const unmet = unmetGate(flow.skip_unless_env, env);
  if (unmet.length > 0) return skippedRecord(flow.name, unmet);
  const stepTimeoutMs = stepTimeoutFromEnv(env);
  const plan = planFlow(flow, stepTimeoutMs);
  if (!plan.ok) throw new SpecError(plan.diagnostics);
  const tracePath = resolve(options.out ?? defaultTracePath(flow.file));
  // A recording that could not be kept is wasted: prove the trace's directory and the recordings
  // directory take files before the browser starts (an io-error with a hint otherwise).
  checkWritable(dirname(tracePath), "the trace");
  checkWritable(join(dirname(flow.file), ".flowproof", "recordings"), "the recording's frames");
  // FLOWPROOF_TRACE_KEY signs the trace; a key that cannot sign is refused before the browser starts.
  const key = traceKey(env);

  let pool: ReusePool | undefined;
  let oldAgent: { backend: string; model?: string } | undefined;
  if (options.reuse) {
    const reusedFrom = resolve(defaultTracePath(flow.file));
    const from = existsSync(tracePath) ? tracePath : reusedFrom;
    const old = readTraceFile(from, displayPath(flow.file), displayPath(from), sealPolicy(env));
    pool = new ReusePool(groupTrace(old.steps));
    oldAgent = old.header.agent;
  }

  const warnings: string[] = [];
  const hasPlain = flow.steps.some((s) => s.form === "plain");
  if (author === "auto" && hasPlain && !useModel) {
    warnings.push(NO_MODEL_WARNING);
    log(NO_MODEL_WARNING);
  }
  let currentRoute: Route = "llm";
  const routeOf = (form: string): Route => (form !== "plain" ? "rules" : useModel ? currentRoute : author === "auto" ? "fallback" : "rules");
  const routing: RoutingEntry[] = [];
  let reusedSteps = 0;
  let authoredByModel = 0;

  const secrets = new Map<string, string>();
  // The header fields record writes are the ones the surface opens from, exactly as a replay will.
  const catalog = context.catalog;
  const target = targetOfFlow(flow, catalog);
  const execution = await openExecution({ flow, target, env, secrets, log, context, headed: headedFor(options, env), pool: options.pool });
  const surface = execution.surface;
  let authoring: AuthoringSession | undefined;
  const fail = (partial: Partial<RecordResult> & { error: string }): RecordResult => ({
    ok: false,
    name: flow.name,
    trace_path: null,
    steps: 0,
    reused_steps: reusedSteps,
    routing,
    warnings,
    step_results: [],
    ...(authoring ? { model_requests: authoring.requests() } : {}),
    ...partial,
  });
  try {
    const opened = await execution.start(plan.steps[0]?.surface);
    if (!opened.ok) return fail({ error: redact(`could not open the flow's url: ${opened.detail}`, secrets) });
    const traceId = randomUUID();
    const bundleRoot = join(dirname(flow.file), ".flowproof", "recordings", traceId);
    const recordingStartedAt = new Date();
    const { recorder, structured, ctx } = execution.begin({
      mode: "record",
      artifactDir: bundleRoot,
      controls: options,
      redaction: flow.redact ?? [],
      steps: plan.steps,
      effects: flow.effects ?? "on",
      ...(options.prior ? { prior: options.prior } : {}),
    });
    const completed: string[] = [];
    let recordedCount = 0;
    if (useModel && client) {
      authoring = createAuthoring({
        client,
        ctx,
        flowName: flow.name,
        app: flow.app,
        stepTimeoutMs,
        log,
        grammar: (surface) => {
          const kind = catalog.kinds.get(surface !== undefined ? (flow.apps?.[surface]?.app ?? "") : flow.app);
          return grammarContext(catalog, kind, kind?.kind ?? flow.app);
        },
        completed: () => completed,
        nextStepNumber: () => recordedCount + 1,
      });
    }
    const authorHook: StepAuthor | undefined =
      authoring &&
      (async (source, round) => {
        if (round === 0 && pool) {
          const c = pool.candidate(source.text);
          if (c && (await stillResolves(c.group, ctx, Math.min(stepTimeoutMs, 2_000)))) {
            pool.take(c.index);
            currentRoute = "reused";
            reusedSteps += c.group.steps.length;
            return { ok: true, steps: c.group.steps, continues: false };
          }
        }
        currentRoute = "llm";
        const answer = await authoring!.author(source, round);
        if (answer.ok) authoredByModel += answer.steps.length;
        return answer;
      });
    await recorder.start();
    const loopObserver = recorderObserver(recorder);
    const expansion = await expandAndRun(
      plan.nodes,
      ctx,
      {
        stepStarted: async (step) => {
          await execution.activate(step.surface);
          return loopObserver.stepStarted?.(step, 0);
        },
        stepFinished: async (step, r, source) => {
          await loopObserver.stepFinished?.(step, r);
          const n = Number(r.id.slice(1));
          const route = routeOf(source.form);
          if (r.status !== "skipped") {
            routing.push({ step: n, intent: r.intent, route });
            recordedCount = Math.max(recordedCount, n);
            if (r.status === "passed" && completed.at(-1) !== r.intent) completed.push(r.intent);
          }
          const outcome = (status: string, detail?: string) =>
            status === "passed" ? "" : status === "skipped" ? " (not reached)" : ` — ${status.toUpperCase()}: ${detail ?? ""}`;
          // An agent run is recorded, not authored: one line per authored agent step.
          if (step.action.type === "agent_run" && r.lines)
            for (const [i, l] of r.lines.entries())
              log(`[RECORD agent] ${n}.${i + 1}: ${l.intent}${l.status === "passed" ? "" : ` — ${l.status.toUpperCase()}${l.detail ? `: ${l.detail}` : ""}`}`);
          else log(`[AUTHOR ${route}] ${n}: ${r.intent}${outcome(r.status, r.detail)}`);
        },
        blockDecided: (line) => log(line),
        surfaceNeeded: (name) => execution.activate(name),
      },
      authorHook,
    );
    let summary: Awaited<ReturnType<typeof recorder.finish>>;
    try {
      summary = await recorder.finish();
    } catch (error) {
      // Frames that could not all be written (a full disk): no trace, so no bundle either.
      rmSync(bundleRoot, { recursive: true, force: true });
      throw error;
    }
    const results = expansion.results;
    // As reports list them: an agent run is one line per prompt, follow-up and assertion.
    const shown = reportLines(results);
    const steps = expansion.steps;
    const clarification = authoring?.clarification();
    if (clarification) {
      rmSync(bundleRoot, { recursive: true, force: true });
      return fail({
        steps: steps.length,
        step_results: shown,
        clarification,
        error: `step ${clarification.step_index} (${clarification.step}) needs clarification: ${clarification.reason}; no trace was written`,
      });
    }
    // No trace is minted on a failure, so the bundle moves to failed-records/ with the page's
    // debug snapshot, and the message says where.
    // The recording as a reviewer sees a run: every step, its frames, and why it failed.
    const reportOf = (error: string | undefined): RunReport => {
      const timed = reportLines(withTimeline(results, summary.steps));
      const outcome = runOutcome({ steps: timed, error, stale: false, interrupted: false });
      const recording = recordingReport(summary, options);
      return {
        name: flow.name,
        trace_id: traceId,
        passed: false,
        outcome: outcome === "passed" ? "failed" : outcome,
        steps: timed,
        duration_ms: Math.max(0, Date.now() - recordingStartedAt.getTime()),
        started_at: recordingStartedAt.toISOString(),
        flowproof_version: FLOWPROOF_VERSION,
        spec_path: displayPath(flow.file),
        trace_path: displayPath(tracePath),
        ...(error !== undefined ? { error } : {}),
        ...(recording ? { recording } : {}),
        ...ranOnOf(surface.driver),
      };
    };
    const keep = (failed: TraceStep | undefined, error: string | undefined) =>
      keepFailedRecord({ driver: surface.driver, bundleRoot, flowDir: dirname(flow.file), failedStep: failed, secrets, report: reportOf(error) });
    const failedStep = shown.find((r) => r.status !== "passed" && r.status !== "skipped");
    // A known failure (`expect: {fail: …}`) that failed as declared: the trace is kept through the
    // failing step, its header saying how it failed. An app that is down is never that failure.
    const knownAt = flow.expect && failedStep?.status === "failed" ? steps.findIndex((s) => s.id === failedStep.id) : -1;
    const down = knownAt >= 0 && failedStep ? appDown(steps[knownAt]!, failedStep) : false;
    const expected =
      knownAt >= 0 && !down && flow.expect && failedStep
        ? { reason: flow.expect.fail, step: failedStep.id, ...(failedStep.detail !== undefined ? { detail: redact(failedStep.detail, secrets) } : {}) }
        : undefined;
    if (failedStep && !expected) {
      // A target text the page does not show, but a close one: say so (a typo in the flow is common).
      const evidence = await keep(
        steps.find((s) => s.id === failedStep.id.replace(/\..*$/, "")),
        undefined,
      );
      const notKnown = down ? "; the app is down, and an app that is down is never the known failure `expect:` declares: start the app and record again" : "";
      return fail({
        steps: steps.length,
        step_results: shown,
        ...(evidence.dir ? { failed_record_dir: evidence.dir } : {}),
        error: `step ${failedStep.id} (${failedStep.intent}) ${failedStep.status}: ${failedStep.detail ?? ""}${notKnown}${evidence.suggestion}${evidenceSentence(evidence)}`,
      });
    }
    // assert_no_secret_leak is whole-run: a leak after its step passed still fails the recording.
    const lateLeak = structured.leaks.lateLeak();
    if (lateLeak) {
      const error = redact(lateLeak, secrets);
      const evidence = await keep(undefined, error);
      return fail({
        steps: steps.length,
        step_results: shown,
        ...(evidence.dir ? { failed_record_dir: evidence.dir } : {}),
        error: `${error}${evidenceSentence(evidence)}`,
      });
    }
    if (!expected && flow.expect) {
      rmSync(bundleRoot, { recursive: true, force: true });
      return fail({
        steps: steps.length,
        step_results: shown,
        error: `every step passed, but the flow declares a known failure (expect: fail: ${flow.expect.fail}): the failure is gone, so remove \`expect:\` from ${displayPath(flow.file)} and record it again; no trace was written`,
      });
    }
    if (!expansion.ok && !expected) {
      const error = expansion.error ?? "a block failed";
      const evidence = await keep(undefined, error);
      return fail({
        steps: steps.length,
        step_results: shown,
        ...(evidence.dir ? { failed_record_dir: evidence.dir } : {}),
        error: `${error}${evidenceSentence(evidence)}`,
      });
    }
    if (steps.length === 0) {
      // Every block decided to run nothing: an empty trace would replay as a flow that checks nothing.
      rmSync(bundleRoot, { recursive: true, force: true });
      return fail({
        step_results: shown,
        error:
          "no step ran: every repeat/when block ran zero passes, so there is nothing to replay; add an `assert:` step after the blocks; no trace was written",
      });
    }
    const environment = await surface.driver.environment();
    const recorded = resolveControls(options).recordingDetail !== "off";
    const agent = authoredByModel > 0 && client ? { backend: client.backend, model: client.model } : reusedSteps > 0 && oldAgent ? oldAgent : undefined;
    const header: TraceHeader = {
      format: TRACE_FORMAT,
      version: TRACE_VERSION,
      trace_id: traceId,
      recorded_at: new Date().toISOString(),
      app: { ...target.app, ...surface.driver.appInfo?.() },
      ...(target.apps ? { apps: withSurfaceFacts(target.apps, surface.driver) } : {}),
      env: environment,
      flowproof_version: FLOWPROOF_VERSION,
      spec: { name: flow.name, path: relative(dirname(tracePath), flow.file) || flow.file, hash: flow.hash },
      ...(agent ? { agent } : {}),
      ...(recorded
        ? { recording: { format: RECORDING_FORMAT, dir: relative(dirname(tracePath), bundleRoot), started_at: recordingStartedAt.toISOString() } }
        : {}),
      ...(flow.redact ? { redaction: [...flow.redact] } : {}),
      ...target.top,
      ...(flow.effects ? { effects: flow.effects } : {}),
      ...(expected && failedStep ? { expect: recordedFailure(expected.reason, steps[knownAt]!, redactedResult(failedStep, secrets)) } : {}),
    };
    const kept = expected ? steps.slice(0, knownAt + 1) : steps;
    const effected = stepsWithLearned(stepsWithEffects(kept, new Map(results.flatMap((r) => (r.effect ? [[r.id, r.effect] as const] : [])))), ctx.learned);
    try {
      assertRecordedFacts(header, catalog);
      writeTraceFile(tracePath, header, recorded ? stepsWithRanges(effected, summary.steps) : effected, key);
    } catch (error) {
      rmSync(bundleRoot, { recursive: true, force: true });
      throw error;
    }
    const result: RecordResult = {
      ok: true,
      name: flow.name,
      trace_path: tracePath,
      steps: kept.length,
      reused_steps: reusedSteps,
      routing,
      warnings,
      step_results: shown,
      ...(expected ? { expected_failure: expected } : {}),
      ...(recorded ? { recording_dir: bundleRoot } : {}),
      ...(agent && agent.model !== undefined ? { agent: { backend: agent.backend, model: agent.model } } : {}),
      ...(authoring ? { model_requests: authoring.requests() } : {}),
    };
    return result;
  } finally {
    // Kept open for inspection (--keep-open) whether or not the recording succeeded.
    await releaseSurface(surface, options.keepOpen);
  }
}
/** A step result with its failure message and reading redacted, as the trace header may hold them. */
function redactedResult(r: StepResult, secrets: ReadonlyMap<string, string>): StepResult {
  return {
    ...r,
    ...(r.detail !== undefined ? { detail: redact(r.detail, secrets) } : {}),
    ...(r.actual !== undefined ? { actual: redact(r.actual, secrets) } : {}),
  };
}

/** The header's `apps` entries with what each opened surface reports of itself (a Windows surface's backend), so replay uses the same. */
function withSurfaceFacts(apps: NonNullable<TraceHeader["apps"]>, driver: unknown): NonNullable<TraceHeader["apps"]> {
  if (!(driver instanceof SurfaceSet)) return apps;
  const facts = driver.surfaceFacts();
  return Object.fromEntries(Object.entries(apps).map(([name, entry]) => [name, { ...entry, ...facts[name] }]));
}
