// What record, run and validate share: reading a flow file, resolving its start URL, opening a
// driver for its app kind, and the default trace path. No printing: warnings go to `log`.
import { readFileSync, existsSync } from "node:fs";
import { dirname, basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { loadFlowText, type Flow, type FlowSuiteDefaults, type LoadOptions } from "../spec/flow.ts";
import { loadSuiteText } from "../spec/suite.ts";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import { BUILTIN_ADAPTERS, BUILTIN_ASSERTIONS } from "../plugins/builtin.ts";
import { AdapterRegistry } from "../plugins/registry.ts";
import type { AdapterPlugin, AdapterSession, AppDriver, AssertionPlugin, RunMode } from "../plugins/api.ts";
import type { StructuredKind } from "../spec/structured.ts";
import type { StructuredContext } from "../engine/context.ts";
import { LeakWatch, leakVariables } from "../engine/secret-scan.ts";
import type { TraceStep } from "../trace/schema.ts";
import { loadPlugins, type LoadedPlugins } from "../plugins/loader.ts";
import { resolveText } from "../engine/templates.ts";
import { planSteps } from "../engine/plan.ts";
import { DEFAULT_STEP_TIMEOUT_MS } from "../engine/compile.ts";

export type AuthorMode = "auto" | "rules" | "llm";

export interface CommonOptions {
  /** Environment for `${VAR}` references (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Progress and warnings, one line each (default: nothing). */
  readonly log?: (line: string) => void;
  /**
   * `--keep-open`: called once the flow has finished and its results are written, with the
   * still-open surface; the surface closes when the returned promise settles.
   */
  readonly keepOpen?: (driver: AppDriver) => Promise<void>;
  /** Show the browser window instead of running headless (default: with `keepOpen`, or when the env sets FLOWPROOF_HEADED). */
  readonly headed?: boolean;
}

/** Whether this execution shows its browser window: asked for, kept open for a person, or FLOWPROOF_HEADED in its env. */
export function headedFor(options: Pick<CommonOptions, "headed" | "keepOpen">, env: Readonly<Record<string, string | undefined>>): boolean {
  return options.headed ?? (options.keepOpen !== undefined || env["FLOWPROOF_HEADED"] !== undefined);
}

/** A launch config that shows the browser window when `headed` (unchanged otherwise). */
export function withHeaded(config: Readonly<Record<string, unknown>>, headed: boolean): Readonly<Record<string, unknown>> {
  return headed ? { ...config, headed: true } : config;
}

/** A finished flow's surface: closed now, or — with `keepOpen` — once the caller let it go. */
export async function releaseSurface(surface: OpenedSurface, keepOpen: CommonOptions["keepOpen"]): Promise<void> {
  try {
    if (keepOpen) await keepOpen(surface.driver).catch(() => undefined);
  } finally {
    await surface.driver.close().catch(() => undefined);
    await surface.session.close().catch(() => undefined);
  }
}

export function readFlowFile(spec: string): { path: string; text: string } {
  const path = resolve(spec);
  if (!existsSync(path)) {
    throw new SpecError(diagnostic("io-error", `no flow file at ${spec}`, { hint: "pass the path of a `*.flow.yaml` file" }));
  }
  return { path, text: readFileSync(path, "utf8") };
}

/** Every assertion kind of a run by step key: the built-ins, then the project's (`assertions`). */
export function assertionKinds(assertions: readonly AssertionPlugin[] = []): Map<string, AssertionPlugin> {
  return new Map([...BUILTIN_ASSERTIONS, ...assertions].map((a) => [a.key, a]));
}

/** How a flow file loads: the project's adapter app kinds and assertion kinds, and whether plain steps must parse as rules. */
export function flowLoadOptions(pluginAppKinds: readonly string[], assertions: readonly AssertionPlugin[], plainStepsAreRules: boolean, suite?: FlowSuiteDefaults): LoadOptions {
  const structuredKinds = new Map<string, StructuredKind>([...assertionKinds(assertions)].map(([k, a]) => [k, a as StructuredKind]));
  const appCapabilities = new Map(BUILTIN_ADAPTERS.map((a): [string, readonly string[]] => [a.kind, a.capabilities]));
  return { plainStepsAreRules, pluginAppKinds, structuredKinds, appCapabilities, ...(suite ? { suite } : {}) };
}

/** The nearest `suite.yaml` at or above `start` (a directory), or undefined. */
export function findSuiteFile(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    const candidate = join(dir, "suite.yaml");
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** The `browser` defaults and `identities` of the suite.yaml governing `flowPath`, or undefined when none does. */
export function governingSuiteDefaults(flowPath: string): FlowSuiteDefaults | undefined {
  const file = findSuiteFile(dirname(resolve(flowPath)));
  if (!file) return undefined;
  const loaded = loadSuiteText(displayPath(file), readFileSync(file, "utf8"));
  if (!loaded.ok) throw new SpecError(loaded.diagnostics);
  const { browser, identities } = loaded.suite;
  return { file: displayPath(file), ...(browser ? { browser } : {}), ...(identities ? { identities } : {}) };
}

/**
 * Loads and validates a flow; every problem of the file is reported together. `pluginAppKinds`:
 * app kinds of the project's adapter plugins; `assertions`: the project's assertion plugins;
 * `plainStepsAreRules`: false when a model authors plain steps (or a replay reads the trace).
 */
export function loadFlowFile(spec: string, pluginAppKinds: readonly string[] = [], assertions: readonly AssertionPlugin[] = [], plainStepsAreRules = true, suite?: FlowSuiteDefaults): Flow {
  const { path, text } = readFlowFile(spec);
  // The governing suite's defaults, when the caller did not pass the ones it already loaded.
  const defaults = suite ?? governingSuiteDefaults(path);
  const result = loadFlowText(displayPath(path), text, flowLoadOptions(pluginAppKinds, assertions, plainStepsAreRules, defaults));
  if (!result.ok) {
    // Report the forms this version cannot run together with the parse problems, in file order.
    const plan = planSteps(result.steps, DEFAULT_STEP_TIMEOUT_MS);
    const all = [...result.diagnostics, ...(plan.ok ? [] : plan.diagnostics)];
    all.sort((a, b) => (a.span?.line ?? 0) - (b.span?.line ?? 0) || (a.span?.column ?? 0) - (b.span?.column ?? 0));
    throw new SpecError(all);
  }
  return { ...result.flow, file: path };
}

/** A flow loaded for replay, with the project's plugins it was loaded with. */
export interface ReplayFlow {
  readonly flow: Flow;
  readonly plugins: LoadedPlugins;
}

/**
 * Loads a flow the way replay reads it, once per run: with the project's plugins (their app
 * kinds and assertions) and plain steps as intent, never re-parsed under the rules grammar
 * (replay reads the trace; a model-authored flow's plain steps are not rules text).
 */
export async function loadFlowForReplay(spec: string, env: Readonly<Record<string, string | undefined>>, suite?: FlowSuiteDefaults): Promise<ReplayFlow> {
  const plugins = await loadPluginsFor(spec, env);
  const flow = loadFlowFile(spec, plugins.adapters.map((a) => a.kind), plugins.assertions, false, suite);
  return { flow, plugins };
}

/** `checkout.flow.yaml` → `checkout`. */
export function flowStem(specPath: string): string {
  return basename(specPath).replace(/\.ya?ml$/i, "").replace(/\.flow$/i, "");
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

/** A path as people should see it: relative to the working directory when inside it. */
export function displayPath(path: string): string {
  const cwd = process.cwd();
  return path.startsWith(cwd + "/") ? path.slice(cwd.length + 1) : path;
}

/** `calc.flow.yaml` → `calc.trace.jsonl` next to it (`.yaml`/`.yml` and `.flow` stripped). */
export function defaultTracePath(specPath: string): string {
  const stem = basename(specPath).replace(/\.ya?ml$/i, "").replace(/\.flow$/i, "");
  return join(dirname(specPath), `${stem}.trace.jsonl`);
}

export function stepTimeoutFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env["FLOWPROOF_STEP_TIMEOUT_MS"];
  if (raw === undefined || raw === "") return DEFAULT_STEP_TIMEOUT_MS;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n <= 0) {
    throw new SpecError(diagnostic("bad-value", `FLOWPROOF_STEP_TIMEOUT_MS must be a whole number of milliseconds, not ${JSON.stringify(raw)}`, { hint: "FLOWPROOF_STEP_TIMEOUT_MS=5000" }));
  }
  return n;
}

/** Resolves the flow's start URL: `${VAR}`s now; a path without a scheme is relative to the flow file. */
export function resolveStartUrl(raw: string, flowPath: string, env: Readonly<Record<string, string | undefined>>, secrets: Map<string, string>): string {
  const value = resolveText(raw, { env, captures: new Map(), secrets }).value;
  if (/^[a-z0-9.-]+:\d+(\/|$)/i.test(value)) {
    throw new SpecError(diagnostic("bad-value", `the flow's url ${JSON.stringify(raw)} has a host and port but no scheme`, { hint: `write \`url: http://${raw}\`` }));
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return value;
  return pathToFileURL(resolve(dirname(flowPath), value)).href;
}

export interface OpenedSurface {
  readonly session: AdapterSession;
  readonly driver: AppDriver;
}

/** The project's plugins for a flow file (docs/plugins.md); throws PluginError naming the plugin file. */
export function loadPluginsFor(spec: string, env: Readonly<Record<string, string | undefined>>): Promise<LoadedPlugins> {
  return loadPlugins({ flowPath: resolve(spec), env, builtinKinds: BUILTIN_ADAPTERS.map((a) => a.kind), builtinKeys: BUILTIN_ASSERTIONS.map((a) => a.key) });
}

/** The adapter (built-in or the project's) for an app kind; a spec error naming the kinds there are. */
export function adapterFor(kind: string, adapters: readonly AdapterPlugin[] = []): AdapterPlugin {
  const registry = new AdapterRegistry([...BUILTIN_ADAPTERS, ...adapters]);
  const adapter = registry.get(kind);
  if (!adapter) throw new SpecError(diagnostic("unsupported-feature", `no adapter for app kind "${kind}" (available: ${registry.kinds().join(", ")})`, { hint: "use `app: web`" }));
  return adapter;
}

/**
 * Opens the adapter for the flow's app kind and launches one driver (an isolated context).
 * `adapters`: the project's adapter plugins; `config`: the launch config (see launch-config.ts).
 */
export async function openSurface(kind: string, flowPath: string, log: (line: string) => void, adapters: readonly AdapterPlugin[] = [], config: Readonly<Record<string, unknown>> = {}): Promise<OpenedSurface> {
  const session = await adapterFor(kind, adapters).open();
  try {
    const driver = await session.launch(config, { baseDir: dirname(flowPath), log });
    return { session, driver };
  } catch (error) {
    await session.close().catch(() => undefined);
    throw error;
  }
}
