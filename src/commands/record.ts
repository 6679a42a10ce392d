// `flowproof record`: performs a flow once in the live app and writes its trace — whole, or not
// at all when a step fails. Typed options in, typed result out; never prints.
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { relative, dirname, join, resolve } from "node:path";
import { writeTraceFile } from "../trace/write.ts";
import type { TraceHeader } from "../trace/schema.ts";
import { TRACE_FORMAT, TRACE_VERSION } from "../trace/schema.ts";
import { planFlow } from "../engine/plan.ts";
import type { StepResult } from "../engine/loop.ts";
import { expandAndRun } from "../engine/blocks.ts";
import { systemClock, redact } from "../engine/context.ts";
import { SpecError } from "../diagnostics/diagnostic.ts";
import { FLOWPROOF_VERSION } from "../version.ts";
import { defaultTracePath, loadFlowFile, loadPluginsFor, openSurface, resolveStartUrl, stepTimeoutFromEnv, type AuthorMode, type CommonOptions } from "./common.ts";
import { resolveControls, RECORDING_FORMAT, type RecordingControls } from "../recording/controls.ts";
import { createRecorder, recorderObserver, stepsWithRanges } from "./recording.ts";
import { unmetGate } from "../spec/suite-keys.ts";
import { openMultiSurface } from "./surface-set.ts";
import { SessionPool } from "./session-pool.ts";

export type Route = "rules" | "llm" | "reused" | "fallback";

export interface RoutingEntry {
  /** 1-based executable step number. */
  readonly step: number;
  readonly intent: string;
  readonly route: Route;
  readonly warning?: string;
}

export interface RecordOptions extends CommonOptions, RecordingControls {
  readonly spec: string;
  /** Trace path; default `<stem>.trace.jsonl` next to the spec. */
  readonly out?: string;
  readonly author?: AuthorMode;
}

export interface RecordResult {
  /** True when every step passed and the trace was written. */
  readonly ok: boolean;
  /** The flow's name. */
  readonly name: string;
  readonly trace_path: string | null;
  readonly steps: number;
  readonly reused_steps: number;
  readonly routing: readonly RoutingEntry[];
  readonly warnings: readonly string[];
  readonly step_results: readonly StepResult[];
  /** Why no trace was written (the failing step's detail). */
  readonly error?: string;
  /** The authoring bundle (`.flowproof/recordings/<trace_id>`), when a trace was written with frames. */
  readonly recording_dir?: string;
  /** Why nothing was recorded on purpose (`skip_unless_env` unmet); `ok` is true. */
  readonly skipped?: string;
}

const NO_MODEL_WARNING =
  "WARNING: no authoring model is available, so plain steps are recorded with the deterministic rules grammar (route: fallback). Mark steps `rules:` or pass --author rules to make that explicit.";

export function modelConfigured(env: Readonly<Record<string, string | undefined>>): boolean {
  return Boolean(env["FLOWPROOF_AI_MODEL"] || env["FLOWPROOF_AI_BASE_URL"] || env["OPENAI_API_KEY"] || env["ANTHROPIC_API_KEY"]);
}

export async function record(options: RecordOptions): Promise<RecordResult> {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => undefined);
  const author = options.author ?? "auto";
  if (author === "llm") {
    throw new SpecError({
      code: "unsupported-feature",
      message: "model authoring (--author llm) is not available in this version of flowproof",
      hint: "record with --author rules (or the default --author auto, which falls back to the rules grammar)",
    });
  }
  const plugins = await loadPluginsFor(options.spec, env);
  const flow = loadFlowFile(options.spec, plugins.adapters.map((a) => a.kind));
  const unmet = unmetGate(flow.skip_unless_env, env);
  if (unmet.length > 0) {
    return { ok: true, name: flow.name, trace_path: null, steps: 0, reused_steps: 0, routing: [], warnings: [], step_results: [], skipped: `skip_unless_env: ${unmet.join(", ")} ${unmet.length === 1 ? "is" : "are"} not set` };
  }
  const stepTimeoutMs = stepTimeoutFromEnv(env);
  const plan = planFlow(flow, stepTimeoutMs);
  if (!plan.ok) throw new SpecError(plan.diagnostics);

  const warnings: string[] = [];
  const hasPlain = flow.steps.some((s) => s.form === "plain");
  if (author === "auto" && hasPlain) {
    const warning = modelConfigured(env)
      ? "WARNING: model authoring is not available in this version, so plain steps are recorded with the deterministic rules grammar (route: fallback)."
      : NO_MODEL_WARNING;
    warnings.push(warning);
    log(warning);
  }
  const routeOf = (form: string): Route => (form === "plain" && author === "auto" ? "fallback" : "rules");
  // Known up front for a flow without repeat/when; a flow with blocks learns its steps as it records.
  const routing: RoutingEntry[] = plan.hasBlocks ? [] : plan.steps.map((s, i) => ({ step: i + 1, intent: s.intent, route: routeOf(flow.steps[plan.sources[i] ?? -1]?.form ?? "rules") }));

  const tracePath = resolve(options.out ?? defaultTracePath(flow.file));
  const secrets = new Map<string, string>();
  const startUrl = flow.url ? resolveStartUrl(flow.url.raw, flow.file, env, secrets) : "about:blank";
  // A multi-surface flow: one driver per `apps:` surface from one browser, launched at its first block.
  const pool = flow.apps ? new SessionPool() : undefined;
  const multi = flow.apps && pool
    ? openMultiSurface(Object.fromEntries(Object.entries(flow.apps).map(([n, a]) => [n, { kind: a.app, url: resolveStartUrl(a.url.raw, flow.file, env, secrets) }])), (kind) => pool.open(kind, flow.file, log, plugins.adapters), () => pool.close())
    : undefined;
  const surface = multi ? multi.surface : await openSurface(flow.app, flow.file, log, plugins.adapters);
  try {
    const opened = multi ? await multi.start(plan.steps[0]?.surface) : await surface.driver.navigate(startUrl, 30_000);
    if (!opened.ok) {
      return { ok: false, name: flow.name, trace_path: null, steps: plan.steps.length, reused_steps: 0, routing, warnings, step_results: [], error: redact(`could not open the flow's url: ${opened.detail}`, secrets) };
    }
    const traceId = randomUUID();
    const bundleRoot = join(dirname(flow.file), ".flowproof", "recordings", traceId);
    const recordingStartedAt = new Date();
    const recorder = createRecorder(surface.driver, bundleRoot, options, flow.redact ?? [], systemClock);
    const ctx = { driver: surface.driver, env, captures: new Map<string, string>(), clock: recorder.clock, get baseUrl() { return multi ? multi.set.baseUrl : startUrl; }, secrets, navigationTimeoutMs: 30_000 };
    await recorder.start();
    const loopObserver = recorderObserver(recorder);
    const expansion = await expandAndRun(plan.nodes, ctx, {
      stepStarted: async (step) => {
        if (multi && step.surface) await multi.set.activate(step.surface);
        return loopObserver.stepStarted?.(step, 0);
      },
      stepFinished: async (step, r, source) => {
        await loopObserver.stepFinished?.(step, r);
        const n = Number(r.id.slice(1));
        const route = routeOf(source.form);
        if (plan.hasBlocks && r.status !== "skipped") routing.push({ step: n, intent: r.intent, route });
        log(`[AUTHOR ${route}] ${n}: ${r.intent}${r.status === "passed" ? "" : r.status === "skipped" ? " (not reached)" : ` — ${r.status.toUpperCase()}: ${r.detail ?? ""}`}`);
      },
      blockDecided: (line) => log(line),
    });
    const summary = await recorder.finish();
    const results = expansion.results;
    const steps = expansion.steps;
    const failedStep = results.find((r) => r.status !== "passed" && r.status !== "skipped");
    if (failedStep) {
      // No trace is minted, so nothing would ever reference this authoring bundle.
      rmSync(bundleRoot, { recursive: true, force: true });
      return {
        ok: false, name: flow.name, trace_path: null, steps: steps.length, reused_steps: 0, routing, warnings, step_results: results,
        error: `step ${failedStep.id} (${failedStep.intent}) ${failedStep.status}: ${failedStep.detail ?? ""}; no trace was written`,
      };
    }
    if (!expansion.ok) {
      rmSync(bundleRoot, { recursive: true, force: true });
      return { ok: false, name: flow.name, trace_path: null, steps: steps.length, reused_steps: 0, routing, warnings, step_results: results, error: `${expansion.error ?? "a block failed"}; no trace was written` };
    }
    if (steps.length === 0) {
      // Every block decided to run nothing: an empty trace would replay as a flow that checks nothing.
      rmSync(bundleRoot, { recursive: true, force: true });
      return { ok: false, name: flow.name, trace_path: null, steps: 0, reused_steps: 0, routing, warnings, step_results: results, error: "no step ran: every repeat/when block ran zero passes, so there is nothing to replay; add an `assert:` step after the blocks; no trace was written" };
    }
    const environment = await surface.driver.environment();
    const recorded = resolveControls(options).recordingDetail !== "off";
    const header: TraceHeader = {
      format: TRACE_FORMAT,
      version: TRACE_VERSION,
      trace_id: traceId,
      recorded_at: new Date().toISOString(),
      app: { name: flow.app, adapter: flow.app, ...(flow.url ? { url: flow.url.raw } : {}) },
      ...(flow.apps ? { apps: Object.fromEntries(Object.entries(flow.apps).map(([n, a]) => [n, { name: n, adapter: a.app, url: a.url.raw }])) } : {}),
      env: environment,
      flowproof_version: FLOWPROOF_VERSION,
      spec: { name: flow.name, path: relative(dirname(tracePath), flow.file) || flow.file, hash: flow.hash },
      ...(recorded ? { recording: { format: RECORDING_FORMAT, dir: relative(dirname(tracePath), bundleRoot), started_at: recordingStartedAt.toISOString() } } : {}),
      ...(flow.redact ? { redaction: [...flow.redact] } : {}),
    };
    writeTraceFile(tracePath, header, recorded ? stepsWithRanges(steps, summary.steps) : steps);
    return { ok: true, name: flow.name, trace_path: tracePath, steps: steps.length, reused_steps: 0, routing, warnings, step_results: results, ...(recorded ? { recording_dir: bundleRoot } : {}) };
  } finally {
    await surface.driver.close().catch(() => undefined);
    await surface.session.close().catch(() => undefined);
  }
}
