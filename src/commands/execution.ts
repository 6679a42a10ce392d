// One execution of a flow (a record or a replay): the header fields its surface opens from, the
// surface opened from them (start URL, launch config, a multi-surface set or one adapter driver,
// from a suite's shared sessions or a session of its own), and the context its steps run in (the
// recorder, the structured steps' context, the effects mode). Record and run both open through
// openExecution, so they shape the app alike.
import { dirname } from "node:path";
import type { AgentTurn, AssertionPlugin, RunMode } from "../plugins/api.ts";
import { redact, redactError, systemClock, type EffectPolicy, type ExecutionContext, type StructuredContext } from "../engine/context.ts";
import { LeakWatch, leakVariables } from "../engine/secret-scan.ts";
import type { AppInfo, TraceHeader, TraceStep } from "../trace/schema.ts";
import type { Flow } from "../spec/flow.ts";
import type { RecordingControls } from "../recording/controls.ts";
import type { RunRecorder } from "../recording/recorder.ts";
import { DEFAULT_STEP_TIMEOUT_MS } from "../engine/compile.ts";
import { msFromEnv } from "../diagnostics/env-number.ts";
import { flowStem } from "./paths.ts";
import type { RunContext } from "./project-plugins.ts";
import { resolveStartUrl } from "./start-url.ts";
import { openSurface, withHeaded, type OpenedSurface } from "./surface.ts";
import { launchOf, recordedKeys, topFieldNames } from "./launch-config.ts";
import { openMultiSurface, surfaceEntries, surfacesHeader, type SurfacesHeader } from "./surface-set.ts";
import { surfaceCatalog } from "./project-plugins.ts";
import type { SurfaceCatalog } from "../spec/surface-kinds.ts";
import { SessionPool, sharesBrowser } from "./session-pool.ts";
import { createRecorder, frameSecrets } from "./recording.ts";
import type { StopRequest } from "../plugins/lifecycle.ts";
import { filePaths } from "../plugins/file-paths.ts";
import { keepPrestartsFor } from "../plugins/builtin-prestart.ts";

/**
 * How long the start page (or the first surface's) may take to load, from the request on, and the
 * bound of each Go to, Reload and navigation a step starts (FLOWPROOF_NAVIGATION_TIMEOUT_MS).
 */
export const NAVIGATION_TIMEOUT_MS = 30_000;
/** How long a start page may load before the run says what it is waiting for, and how often it says so again. */
const SLOW_START_MS = 3_000;
const SLOW_START_REPEAT_MS = 10_000;

/** FLOWPROOF_NAVIGATION_TIMEOUT_MS (default 30000); a malformed value is a SpecError naming it. */
export function navigationTimeoutFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  return msFromEnv(env, "FLOWPROOF_NAVIGATION_TIMEOUT_MS", { fallback: NAVIGATION_TIMEOUT_MS });
}

/** FLOWPROOF_STEP_TIMEOUT_MS (default 5000); a malformed value is a SpecError naming it. */
export function stepTimeoutFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  return msFromEnv(env, "FLOWPROOF_STEP_TIMEOUT_MS", { fallback: DEFAULT_STEP_TIMEOUT_MS });
}

/** What structured steps need for one execution; `secrets` gains the watched values. */
export function structuredContext(options: {
  readonly flowPath: string;
  readonly mode: RunMode;
  readonly artifactDir: string;
  /** The run's assertion kinds by step key (its RunContext's). */
  readonly assertions: ReadonlyMap<string, AssertionPlugin>;
  readonly steps: readonly TraceStep[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly secrets: Map<string, string>;
  readonly log: (line: string) => void;
  readonly prior?: ReadonlyMap<string, readonly AgentTurn[]>;
}): StructuredContext {
  return {
    assertions: options.assertions,
    mode: options.mode,
    baseDir: dirname(options.flowPath),
    flowStem: flowStem(options.flowPath),
    artifactDir: options.artifactDir,
    log: options.log,
    leaks: new LeakWatch(leakVariables(options.steps), options.env, options.secrets),
    ...(options.prior ? { prior: options.prior } : {}),
  };
}

/**
 * The trace header fields an execution opens its surface from: record writes them, replay reads
 * them back, so both shape the app from the same facts (never the resolved values).
 */
export interface ExecutionTarget {
  /** The header's `app` entry: kind, start URL, and the adapter's recorded keys as written. */
  readonly app: AppInfo;
  /** A multi-surface flow's surfaces (the header's `apps`). */
  readonly apps?: SurfacesHeader;
  /** Recorded keys kept beside `app` in the header (the web adapter's `mock:`, `session:`, `browser:`), as written. */
  readonly top: TopFields;
}

/** The header fields beside `app` that adapters record keys into (their own blocks), by name. */
export type TopFields = Readonly<Record<string, unknown>>;

/** What record writes into the trace header: the flow's app and its recorded keys as written (never resolved, never a secret). */
export function targetOfFlow(flow: Flow, catalog: SurfaceCatalog = surfaceCatalog()): ExecutionTarget {
  const kind = catalog.kinds.get(flow.app);
  const single = kind ? recordedKeys(kind, flow.keys, true) : { entry: {}, top: {} };
  // A multi-surface flow's shared keys (`browser:` for every web surface) sit beside `app`, as a single flow's do.
  const shared = flow.apps ? sharedTop(catalog, flow) : {};
  return {
    app: { name: flow.app, adapter: flow.app, ...(flow.url ? { url: flow.url.raw } : {}), ...single.entry },
    ...(flow.apps ? { apps: surfacesHeader(flow.apps, catalog) } : {}),
    // The keys were checked against their adapter's schema when the flow loaded.
    top: { ...single.top, ...shared } as TopFields,
  };
}

function sharedTop(catalog: SurfaceCatalog, flow: Flow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kind of new Set(Object.values(flow.apps ?? {}).map((a) => a.app))) {
    const k = catalog.kinds.get(kind);
    if (k) Object.assign(out, recordedKeys(k, flow.keys, true).top);
  }
  return out;
}

/** What a replay opens from: the trace header alone, never the (possibly edited) spec. */
export function targetOfTrace(header: TraceHeader, catalog: SurfaceCatalog = surfaceCatalog()): ExecutionTarget {
  const top = Object.fromEntries(
    topFieldNames(catalog).flatMap((name) =>
      (header as Record<string, unknown>)[name] !== undefined ? [[name, (header as Record<string, unknown>)[name]]] : [],
    ),
  );
  return {
    app: header.app,
    ...(header.app.adapter === "multi" && header.apps ? { apps: header.apps } : {}),
    top: top as TopFields,
  };
}

export interface OpenExecutionOptions {
  /** The flow as loaded now: its file, and the keys of its spec that are not recorded (secrets among them). */
  readonly flow: Pick<Flow, "file" | "keys" | "apps">;
  readonly target: ExecutionTarget;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Gains every value resolved on the way (start URLs, session values, passwords), so every message redacts them. */
  readonly secrets: Map<string, string>;
  readonly log: (line: string) => void;
  /** The run's context: its adapters, app kinds and assertion kinds, and the lifecycle that stops it. */
  readonly context: RunContext;
  /** Show the browser window. */
  readonly headed: boolean;
  /** A suite run's shared sessions (one browser per run); default: a session of this execution's own. */
  readonly pool?: SessionPool | undefined;
}

/** An execution's steps' context and its recorder, made by `OpenedExecution.begin`. */
export interface BegunExecution {
  readonly recorder: RunRecorder;
  readonly structured: StructuredContext;
  readonly ctx: ExecutionContext;
}

export interface OpenedExecution {
  /** The surface the steps drive (a multi-surface flow's surface set); the caller releases it. */
  readonly surface: OpenedSurface;
  /** The start URL, resolved (`about:blank` without one). */
  readonly startUrl: string;
  /** What `Go to /path` is relative to: the start URL, or the active surface's. */
  readonly baseUrl: string;
  /** Opens the start page, or activates the first step's surface; a failure is the detail to report. */
  start(firstSurface: string | undefined): Promise<{ readonly ok: true } | { readonly ok: false; readonly detail: string }>;
  /** Brings a step's surface to the front (multi-surface flows; nothing otherwise). */
  activate(surface: string | undefined): Promise<void>;
  /** The recorder over `artifactDir` and the context the steps run in. */
  begin(options: {
    readonly mode: RunMode;
    readonly artifactDir: string;
    readonly controls: RecordingControls;
    readonly redaction: readonly unknown[];
    readonly steps: readonly TraceStep[];
    readonly effects: EffectPolicy;
    /** `heal` of an agent flow: the recorded cassettes, by step id. */
    readonly prior?: ReadonlyMap<string, readonly AgentTurn[]>;
  }): BegunExecution;
}

/**
 * Opens one execution's surface from its header fields: the start URL and launch config resolved
 * now (each value joining `secrets`), a SAP login from the flow spec, a multi-surface flow's
 * surfaces launched lazily from one session pool, any other kind through its adapter.
 */
export async function openExecution(options: OpenExecutionOptions): Promise<OpenedExecution> {
  const { flow, target, env, secrets, log, headed } = options;
  const { context } = options;
  const catalog = context.catalog;
  const navigationMs = navigationTimeoutFromEnv(env);
  const rawUrl = target.app.url;
  const paths = filePaths();
  // A `file:` start URL outside the run's roots is refused before anything opens.
  const startUrl = paths.url("the flow's url", rawUrl ? resolveStartUrl(rawUrl, flow.file, env, secrets) : "about:blank");
  const apps = target.apps;
  // A browser the command line started early, which none of these surfaces will take, stops now.
  await keepPrestartsFor(apps ? Object.values(apps).map((a) => a.adapter) : [target.app.adapter]);
  // An adapter's launch error may quote what it was given (a resolved command, a connection
  // name) or echo the program's stderr: it leaves here with every secret redacted.
  const launching = (opening: Promise<OpenedSurface>): Promise<OpenedSurface> =>
    opening.catch((error: unknown) => {
      throw redactError(error, secrets);
    });
  const resolving = { flowPath: flow.file, env, secrets };
  // What every adapter's LaunchContext carries besides its keys: the environment, and a way to hide a value it resolved itself.
  const extras = { env, secret: (name: string, value: string) => void secrets.set(name, value), paths };
  let surface: OpenedSurface;
  let multi: ReturnType<typeof openMultiSurface> | undefined;
  if (apps) {
    // One driver per `apps:` surface from one session pool, each launched at its first block.
    const pool = options.pool ?? new SessionPool({ shared: sharesBrowser(env) });
    const entries = surfaceEntries(apps, { top: target.top, spec: flow.apps ?? {}, sharedSpec: flow.keys }, catalog, resolving);
    multi = openMultiSurface(
      entries,
      (e, launch) => launching(pool.open(e.kind, flow.file, log, context, withHeaded(launch.config, headed), { ...extras, ...launch.context })),
      () => (pool === options.pool ? Promise.resolve() : pool.close()),
      navigationMs,
    );
    surface = multi.surface;
  } else {
    // Recorded keys from the header, the others (a login's password) from the spec now.
    const kind = catalog.kinds.get(target.app.adapter);
    const launch = kind ? launchOf(kind, { entry: target.app, top: target.top, spec: flow.keys, where: "the flow" }, resolving) : { config: {}, context: {} };
    const config = withHeaded(launch.config, headed);
    surface = await launching(
      options.pool
        ? options.pool.open(target.app.adapter, flow.file, log, context, config, { ...extras, ...launch.context })
        : openSurface(target.app.adapter, flow.file, log, context, config, { ...extras, ...launch.context }),
    );
  }
  const set = multi?.set;
  // The steps' captures: a Windows app surface's launch command resolves them when it starts.
  const captures = new Map<string, string>();
  return {
    surface,
    startUrl,
    get baseUrl() {
      return set ? set.baseUrl : startUrl;
    },
    start: (first) => {
      const url = multi ? (first !== undefined ? multi.urlOf(first) : undefined) : startUrl;
      const opening = multi ? multi.start(first) : surface.driver.navigate(startUrl, navigationMs);
      return url === undefined || url === "about:blank"
        ? opening
        : watchedStart(opening, { url, boundMs: navigationMs, log, secrets, stop: context.lifecycle.signal });
    },
    activate: async (name) => {
      if (set && name !== undefined) await set.activate(name, captures);
    },
    begin(b) {
      const recorder = createRecorder(surface.driver, b.artifactDir, b.controls, b.redaction, systemClock, frameSecrets({ env, captures, secrets }));
      const structured = structuredContext({
        flowPath: flow.file,
        mode: b.mode,
        artifactDir: b.artifactDir,
        assertions: context.assertions,
        steps: b.steps,
        env,
        secrets,
        log,
        ...(b.prior ? { prior: b.prior } : {}),
      });
      const ctx: ExecutionContext = {
        driver: surface.driver,
        env,
        captures,
        clock: recorder.clock,
        get baseUrl() {
          return set ? set.baseUrl : startUrl;
        },
        secrets,
        navigationTimeoutMs: navigationMs,
        paths,
        structured,
        effects: { mode: b.mode, policy: b.effects },
        // Read when a step asks: inside one MCP tool call, the lifecycle's signal is that call's own.
        get stop() {
          return context.lifecycle.signal;
        },
        ...(b.mode === "record" ? { learned: new Map<string, Readonly<Record<string, unknown>>>() } : {}),
      };
      return { recorder, structured, ctx };
    },
  };
}

type StartOutcome = { readonly ok: true } | { readonly ok: false; readonly detail: string };

/**
 * A start page loading: after SLOW_START_MS (and every SLOW_START_REPEAT_MS after) `log` names the
 * URL being waited for and the bound; a stop request (SIGINT/SIGTERM, a cancelled MCP call) ends
 * the wait at once, the caller then closing the surface under it.
 */
export async function watchedStart(
  opening: Promise<StartOutcome>,
  w: {
    readonly url: string;
    readonly boundMs: number;
    readonly log: (line: string) => void;
    readonly secrets: ReadonlyMap<string, string>;
    readonly stop: AbortSignal;
  },
): Promise<StartOutcome> {
  const shown = redact(w.url, w.secrets);
  const started = performance.now();
  const say = () =>
    w.log(
      `waiting for ${shown} to load (${Math.round((performance.now() - started) / 1000)} s so far; the bound is ${w.boundMs} ms, FLOWPROOF_NAVIGATION_TIMEOUT_MS)`,
    );
  let repeat: ReturnType<typeof setInterval> | undefined;
  const first = setTimeout(() => {
    say();
    repeat = setInterval(say, SLOW_START_REPEAT_MS);
  }, SLOW_START_MS);
  let onStop: (() => void) | undefined;
  const stopped = new Promise<StartOutcome>((resolve) => {
    onStop = () =>
      resolve({
        ok: false,
        detail: `the run was stopped (${(w.stop.reason as StopRequest | undefined)?.reason ?? "stop requested"}) while ${shown} was loading`,
      });
    if (w.stop.aborted) onStop();
    else w.stop.addEventListener("abort", onStop, { once: true });
  });
  try {
    return await Promise.race([opening, stopped]);
  } finally {
    clearTimeout(first);
    clearInterval(repeat);
    if (onStop) w.stop.removeEventListener("abort", onStop);
  }
}
