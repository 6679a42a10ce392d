// One execution of a flow (a record or a replay): the header fields its surface opens from, the
// surface opened from them (start URL, launch config, a multi-surface set or one adapter driver,
// from a suite's shared sessions or a session of its own), and the context its steps run in (the
// recorder, the structured steps' context, the effects mode). Record and run both open through
// openExecution, so they shape the app alike.
import { dirname } from "node:path";
import type { AdapterPlugin, AssertionPlugin, RunMode } from "../plugins/api.ts";
import { redactError, systemClock, type EffectPolicy, type ExecutionContext, type StructuredContext } from "../engine/context.ts";
import { LeakWatch, leakVariables } from "../engine/secret-scan.ts";
import type { AppInfo, TraceHeader, TraceStep } from "../trace/schema.ts";
import type { Flow } from "../spec/flow.ts";
import type { RecordingControls } from "../recording/controls.ts";
import type { RunRecorder } from "../recording/recorder.ts";
import { DEFAULT_STEP_TIMEOUT_MS } from "../engine/compile.ts";
import { msFromEnv } from "../diagnostics/env-number.ts";
import { flowStem } from "./paths.ts";
import { assertionKinds } from "./project-plugins.ts";
import { resolveStartUrl } from "./start-url.ts";
import { openSurface, withHeaded, type OpenedSurface } from "./surface.ts";
import { desktopAppInfo, desktopConfig, launchConfig, shapingOf, type Shaping } from "./launch-config.ts";
import { sapHeader, sapHeaderOf, sapLaunchConfig } from "./sap-launch.ts";
import { openMultiSurface, surfaceEntries, surfacesHeader, type SurfacesHeader } from "./surface-set.ts";
import { SessionPool, sharesBrowser } from "./session-pool.ts";
import { createRecorder } from "./recording.ts";

/** How long the start page (or the first surface's) may take to load, and the bound of each Go to and Reload. */
export const NAVIGATION_TIMEOUT_MS = 30_000;

/** FLOWPROOF_STEP_TIMEOUT_MS (default 5000); a malformed value is a SpecError naming it. */
export function stepTimeoutFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  return msFromEnv(env, "FLOWPROOF_STEP_TIMEOUT_MS", { fallback: DEFAULT_STEP_TIMEOUT_MS });
}

/** What structured steps need for one execution; `secrets` gains the watched values. */
export function structuredContext(options: {
  readonly flowPath: string; readonly mode: RunMode; readonly artifactDir: string; readonly assertions: readonly AssertionPlugin[];
  readonly steps: readonly TraceStep[]; readonly env: Readonly<Record<string, string | undefined>>; readonly secrets: Map<string, string>; readonly log: (line: string) => void;
}): StructuredContext {
  return {
    assertions: assertionKinds(options.assertions),
    mode: options.mode,
    baseDir: dirname(options.flowPath),
    flowStem: flowStem(options.flowPath),
    artifactDir: options.artifactDir,
    log: options.log,
    leaks: new LeakWatch(leakVariables(options.steps), options.env, options.secrets),
  };
}

/**
 * The trace header fields an execution opens its surface from: record writes them, replay reads
 * them back, so both shape the app from the same facts (never the resolved values).
 */
export interface ExecutionTarget {
  /** The header's `app` entry: kind, start URL, Windows command/title/geometry/backend, SAP connection and login user, as written. */
  readonly app: AppInfo;
  /** A multi-surface flow's surfaces (the header's `apps`). */
  readonly apps?: SurfacesHeader;
  /** The flow's `mock:`, `session:` and `browser:` as written. */
  readonly shaping: Shaping;
}

/** What record writes into the trace header: the flow's app as written (never resolved). */
export function targetOfFlow(flow: Flow): ExecutionTarget {
  return {
    app: { name: flow.app, adapter: flow.app, ...sapHeader(flow.sap ?? {}), ...(flow.url ? { url: flow.url.raw } : {}), ...desktopAppInfo(flow) },
    ...(flow.apps ? { apps: surfacesHeader(flow.apps) } : {}),
    shaping: shapingOf(flow),
  };
}

/** What a replay opens from: the trace header alone, never the (possibly edited) spec. */
export function targetOfTrace(header: TraceHeader): ExecutionTarget {
  return {
    app: header.app,
    ...(header.app.adapter === "multi" && header.apps ? { apps: header.apps } : {}),
    shaping: { ...(header.mock ? { mock: header.mock } : {}), ...(header.session ? { session: header.session } : {}), ...(header.browser ? { browser: header.browser } : {}) },
  };
}

export interface OpenExecutionOptions {
  /** The flow as loaded now: its file, and the SAP logins of its spec (never in the header). */
  readonly flow: Pick<Flow, "file" | "sap" | "apps">;
  readonly target: ExecutionTarget;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Gains every value resolved on the way (start URLs, session values, passwords), so every message redacts them. */
  readonly secrets: Map<string, string>;
  readonly log: (line: string) => void;
  /** The project's adapter plugins. */
  readonly adapters: readonly AdapterPlugin[];
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
    readonly mode: RunMode; readonly artifactDir: string; readonly controls: RecordingControls; readonly redaction: readonly unknown[];
    readonly assertions: readonly AssertionPlugin[]; readonly steps: readonly TraceStep[]; readonly effects: EffectPolicy;
  }): BegunExecution;
}

/**
 * Opens one execution's surface from its header fields: the start URL and launch config resolved
 * now (each value joining `secrets`), a SAP login from the flow spec, a multi-surface flow's
 * surfaces launched lazily from one session pool, any other kind through its adapter.
 */
export async function openExecution(options: OpenExecutionOptions): Promise<OpenedExecution> {
  const { flow, target, env, secrets, log, headed } = options;
  const rawUrl = target.app.url;
  const startUrl = rawUrl ? resolveStartUrl(rawUrl, flow.file, env, secrets) : "about:blank";
  const config = withHeaded({ ...launchConfig(target.shaping, flow.file, env, secrets), ...desktopConfig(target.app, env, secrets) }, headed);
  const apps = target.apps;
  // An adapter's launch error may quote what it was given (a resolved command, a connection
  // name) or echo the program's stderr: it leaves here with every secret redacted.
  const launching = (opening: Promise<OpenedSurface>): Promise<OpenedSurface> => opening.catch((error: unknown) => {
    throw redactError(error, secrets);
  });
  let surface: OpenedSurface;
  let multi: ReturnType<typeof openMultiSurface> | undefined;
  if (apps) {
    // One driver per `apps:` surface from one browser, each launched at its first block.
    const pool = options.pool ?? new SessionPool({ shared: sharesBrowser(env) });
    const entries = surfaceEntries(apps, target.shaping, flow.file, env, secrets, flow.apps);
    multi = openMultiSurface(entries, (e) => launching(pool.open(e.kind, flow.file, log, options.adapters, e.config && withHeaded(e.config, headed))), () => (pool === options.pool ? Promise.resolve() : pool.close()));
    surface = multi.surface;
  } else {
    // A SAP flow logs on with the connection in the header and the login in the spec now.
    const kindConfig = target.app.adapter === "sap" ? { ...config, ...sapLaunchConfig(sapHeaderOf(target.app), flow.sap ?? {}, env, secrets) } : config;
    surface = await launching(options.pool
      ? options.pool.open(target.app.adapter, flow.file, log, options.adapters, kindConfig)
      : openSurface(target.app.adapter, flow.file, log, options.adapters, kindConfig));
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
    start: (first) => (multi ? multi.start(first) : surface.driver.navigate(startUrl, NAVIGATION_TIMEOUT_MS)),
    activate: async (name) => {
      if (set && name !== undefined) await set.activate(name, captures);
    },
    begin(b) {
      const recorder = createRecorder(surface.driver, b.artifactDir, b.controls, b.redaction, systemClock);
      const structured = structuredContext({ flowPath: flow.file, mode: b.mode, artifactDir: b.artifactDir, assertions: b.assertions, steps: b.steps, env, secrets, log });
      const ctx: ExecutionContext = {
        driver: surface.driver, env, captures, clock: recorder.clock,
        get baseUrl() {
          return set ? set.baseUrl : startUrl;
        },
        secrets, navigationTimeoutMs: NAVIGATION_TIMEOUT_MS, structured, effects: { mode: b.mode, policy: b.effects },
      };
      return { recorder, structured, ctx };
    },
  };
}
