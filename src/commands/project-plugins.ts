// The project's plugins (docs/plugins.md) next to the built-ins: loading them for a flow file, the
// run's context (its catalogue of app kinds, adapter registry and assertion kinds, and lifecycle).
import { join, resolve } from "node:path";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import { BUILTIN_ADAPTERS, BUILTIN_ASSERTIONS, PLANNED_KINDS } from "../plugins/builtin.ts";
import { catalogOf, type SurfaceCatalog } from "../spec/surface-kinds.ts";
import { AdapterRegistry } from "../plugins/registry.ts";
import type { AdapterPlugin, AssertionPlugin } from "../plugins/api.ts";
import { loadPlugins, projectRoot, type LoadedPlugins } from "../plugins/loader.ts";
import type { Lifecycle } from "../plugins/lifecycle.ts";

/** The project's plugins for a flow file (docs/plugins.md); throws PluginError naming the plugin file. */
export function loadPluginsFor(spec: string, env: Readonly<Record<string, string | undefined>>): Promise<LoadedPlugins> {
  return loadPlugins({ flowPath: resolve(spec), env, builtinKinds: BUILTIN_ADAPTERS.map((a) => a.kind), builtinKeys: BUILTIN_ASSERTIONS.map((a) => a.key) });
}

/** The project's plugins for a command that reads no flow file: the project `dir` is in (its root searched upward from `dir`). */
export function loadPluginsIn(dir: string, env: Readonly<Record<string, string | undefined>>): Promise<LoadedPlugins> {
  // The loader searches upward from a flow file's directory: a file name in `dir` starts it at `dir`.
  return loadPluginsFor(join(resolve(dir), "flowproof"), env);
}

/**
 * What one run sees of its plugins and its process: the catalogue of app kinds, the adapter
 * registry and the assertion map, built once from the run's plugin list (LoadedPlugins) by the
 * command that runs, and the process lifecycle the entry created. Passed to everything that loads
 * a flow or opens a surface, so no part of a run sees another set of kinds than the rest.
 */
export class RunContext {
  readonly plugins: LoadedPlugins;
  readonly lifecycle: Lifecycle;
  /** Every adapter of the run (the built-ins, then the project's); its sessions are owned by `lifecycle`. */
  readonly registry: AdapterRegistry;
  /** Every app kind a flow of the run may name. */
  readonly catalog: SurfaceCatalog;
  /** Every assertion kind of the run, by step key. */
  readonly assertions: ReadonlyMap<string, AssertionPlugin>;

  constructor(plugins: LoadedPlugins, lifecycle: Lifecycle) {
    this.plugins = plugins;
    this.lifecycle = lifecycle;
    this.registry = new AdapterRegistry([...BUILTIN_ADAPTERS, ...plugins.adapters], lifecycle);
    this.catalog = surfaceCatalog(plugins.adapters);
    this.assertions = assertionKinds(plugins.assertions);
  }

  /** The adapter (built-in or the project's) for an app kind; a spec error naming the kinds there are. */
  adapterFor(kind: string): AdapterPlugin {
    const adapter = this.registry.get(kind);
    if (!adapter)
      throw new SpecError(
        diagnostic("unsupported-feature", `no adapter for app kind "${kind}" (available: ${this.registry.kinds().join(", ")})`, {
          hint: "name one of the available kinds in `app:`, or add the adapter for it to the project (docs/plugins.md)",
        }),
      );
    return adapter;
  }
}

/** The context of a run of `plugins` (NO_PLUGINS: the built-ins only) under `lifecycle`: built once by the command, then passed down. */
export function createRunContext(plugins: LoadedPlugins, lifecycle: Lifecycle): RunContext {
  return new RunContext(plugins, lifecycle);
}

/**
 * The run contexts of one run that loads flows from anywhere below a directory (a suite): the
 * project's plugins are loaded and their context built once per project root, and every flow of
 * that project gets the same context.
 */
export function runContextsOf(env: Readonly<Record<string, string | undefined>>, lifecycle: Lifecycle): (spec: string) => Promise<RunContext> {
  const byRoot = new Map<string, Promise<RunContext>>();
  return (spec) => {
    const root = projectRoot(resolve(spec));
    let context = byRoot.get(root);
    if (!context) {
      context = loadPluginsFor(spec, env).then((plugins) => createRunContext(plugins, lifecycle));
      byRoot.set(root, context);
    }
    return context;
  };
}

/** Every app kind a flow may name: the built-in adapters, then the project's (`adapters`). */
export function surfaceCatalog(adapters: readonly AdapterPlugin[] = []): SurfaceCatalog {
  return catalogOf([...BUILTIN_ADAPTERS, ...adapters], PLANNED_KINDS);
}

/** Every assertion kind by step key: the built-ins, then the project's (`assertions`). */
export function assertionKinds(assertions: readonly AssertionPlugin[] = []): ReadonlyMap<string, AssertionPlugin> {
  return new Map([...BUILTIN_ASSERTIONS, ...assertions].map((a) => [a.key, a]));
}
