// Reading a flow file: the file itself, the suite.yaml that governs it, and the flow loaded and
// validated with the project's app kinds and assertion kinds — every problem of the file together.
import { readFileSync, existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { loadFlowText, type Flow, type FlowSuiteDefaults, type LoadOptions } from "../spec/flow.ts";
import { loadSuiteText, type SuiteConfig } from "../spec/suite.ts";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import type { StructuredKind } from "../spec/structured.ts";
import type { LoadedPlugins } from "../plugins/loader.ts";
import { planSteps } from "../engine/plan.ts";
import { DEFAULT_STEP_TIMEOUT_MS } from "../engine/compile.ts";
import { displayPath } from "./paths.ts";
import { findSuiteFile } from "../plugins/file-paths.ts";

export { findSuiteFile };
import { assertionKinds, surfaceCatalog, type RunContext } from "./project-plugins.ts";

export function readFlowFile(spec: string): { path: string; text: string } {
  const path = resolve(spec);
  if (!existsSync(path)) {
    throw new SpecError(diagnostic("io-error", `no flow file at ${spec}`, { hint: "pass the path of a `*.flow.yaml` file" }));
  }
  return { path, text: readFileSync(path, "utf8") };
}

/** What loading a flow needs of a run's context: its app kinds and assertion kinds. */
export type PluginView = Pick<RunContext, "catalog" | "assertions">;

/** The view of a command that loads flows and opens nothing (validate, reseal): of `plugins`, default the built-ins only. */
export function viewOf(plugins?: Pick<LoadedPlugins, "adapters" | "assertions">): PluginView {
  return { catalog: surfaceCatalog(plugins?.adapters), assertions: assertionKinds(plugins?.assertions) };
}

/** How a flow file loads: the run's app kinds and assertion kinds (`view`), and whether plain steps must parse as rules. */
export function flowLoadOptions(view: PluginView, plainStepsAreRules: boolean, suite?: FlowSuiteDefaults): LoadOptions {
  const structuredKinds = new Map<string, StructuredKind>([...view.assertions].map(([k, a]) => [k, a as StructuredKind]));
  // An adapter's `platforms` are checked at load against the platform this process runs on.
  return { plainStepsAreRules, catalog: view.catalog, structuredKinds, ...(suite ? { suite } : {}), platform: process.platform };
}

/**
 * The suite.yaml at `path`, loaded and checked; a SpecError with every problem otherwise. Keys
 * no built-in adapter declares are kept for the flow's own adapters (a project's), which check them
 * when the flow loads.
 */
export function loadSuiteFile(path: string): SuiteConfig {
  const loaded = loadSuiteText(displayPath(path), readFileSync(path, "utf8"), surfaceCatalog(), { pending: true });
  if (!loaded.ok) throw new SpecError(loaded.diagnostics);
  return loaded.suite;
}

/**
 * What a flow's adapter keys take from the suite at `suiteFile`: the defaults of keys with a
 * `suiteDefault` role (the web's `browser:`), the maps `named` keys pick from (`identities:` for
 * `session: <name>`), and the keys left for the flow's adapters to declare.
 */
export function suiteDefaultsOf(suiteFile: string, config: Pick<SuiteConfig, "values" | "maps" | "pending">): FlowSuiteDefaults {
  return {
    file: displayPath(suiteFile),
    ...(config.values ? { values: config.values } : {}),
    ...(config.maps ? { maps: config.maps } : {}),
    ...(config.pending ? { pending: config.pending } : {}),
  };
}

/** The adapter keys' defaults and maps of the suite.yaml governing `flowPath`, or undefined when none does. */
export function governingSuiteDefaults(flowPath: string): FlowSuiteDefaults | undefined {
  const file = findSuiteFile(dirname(resolve(flowPath)));
  return file ? suiteDefaultsOf(file, loadSuiteFile(file)) : undefined;
}

/**
 * Loads and validates a flow; every problem of the file is reported together. `view`: the run's
 * app kinds and assertion kinds (its RunContext; default: the built-ins only);
 * `plainStepsAreRules`: false when a model authors plain steps (or a replay reads the trace).
 */
export function loadFlowFile(spec: string, view: PluginView = viewOf(), plainStepsAreRules = true, suite?: FlowSuiteDefaults): Flow {
  const { path, text } = readFlowFile(spec);
  // The governing suite's defaults, when the caller did not pass the ones it already loaded.
  const defaults = suite ?? governingSuiteDefaults(path);
  const result = loadFlowText(displayPath(path), text, flowLoadOptions(view, plainStepsAreRules, defaults));
  if (!result.ok) {
    // Report the forms this version cannot run together with the parse problems, in file order.
    const plan = planSteps(result.steps, DEFAULT_STEP_TIMEOUT_MS);
    const all = [...result.diagnostics, ...(plan.ok ? [] : plan.diagnostics)];
    all.sort((a, b) => (a.span?.line ?? 0) - (b.span?.line ?? 0) || (a.span?.column ?? 0) - (b.span?.column ?? 0));
    throw new SpecError(all);
  }
  return { ...result.flow, file: path };
}

/** A flow loaded for replay, with the run context (the project's plugins) it was loaded with. */
export interface ReplayFlow {
  readonly flow: Flow;
  readonly context: RunContext;
}

/**
 * Loads a flow the way replay reads it, once per run: with the run's context (the project's
 * plugins, their app kinds and assertions; `contextFor` gives it for the flow file) and plain
 * steps as intent, never re-parsed under the rules grammar (replay reads the trace; a
 * model-authored flow's plain steps are not rules text).
 */
export async function loadFlowForReplay(spec: string, contextFor: (spec: string) => Promise<RunContext>, suite?: FlowSuiteDefaults): Promise<ReplayFlow> {
  const context = await contextFor(spec);
  const flow = loadFlowFile(spec, context, false, suite);
  return { flow, context };
}
