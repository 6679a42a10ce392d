// The project's plugins (docs/plugins.md) next to the built-ins: loading them for a flow file, the
// adapter for an app kind, the assertion kinds of a run.
import { join, resolve } from "node:path";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import { BUILTIN_ADAPTERS, BUILTIN_ASSERTIONS, PLANNED_KINDS } from "../plugins/builtin.ts";
import { catalogOf, type SurfaceCatalog } from "../spec/surface-kinds.ts";
import { AdapterRegistry } from "../plugins/registry.ts";
import type { AdapterPlugin, AssertionPlugin } from "../plugins/api.ts";
import { loadPlugins, type LoadedPlugins } from "../plugins/loader.ts";

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
 * A run's plugins are one list, loaded once (LoadedPlugins): its catalogue, registry and assertion
 * map are built once per list and shared by every flow, surface and check of the run, so no part
 * of a run sees another set of kinds than the rest.
 */
const NO_ADAPTERS: readonly AdapterPlugin[] = [];
const NO_ASSERTIONS: readonly AssertionPlugin[] = [];
const registries = new WeakMap<readonly AdapterPlugin[], AdapterRegistry>();
const catalogs = new WeakMap<readonly AdapterPlugin[], SurfaceCatalog>();
const assertionMaps = new WeakMap<readonly AssertionPlugin[], ReadonlyMap<string, AssertionPlugin>>();

/** The one value of `map` for `key`, made by `make` the first time it is asked for. */
function once<K extends object, V>(map: WeakMap<K, V>, key: K, make: () => V): V {
  const known = map.get(key);
  if (known !== undefined) return known;
  const made = make();
  map.set(key, made);
  return made;
}

/** The registry of every adapter of a run: the built-ins, then the project's (`adapters`). */
export function adapterRegistry(adapters: readonly AdapterPlugin[] = NO_ADAPTERS): AdapterRegistry {
  return once(registries, adapters, () => new AdapterRegistry([...BUILTIN_ADAPTERS, ...adapters]));
}

/** The adapter (built-in or the project's) for an app kind; a spec error naming the kinds there are. */
export function adapterFor(kind: string, adapters: readonly AdapterPlugin[] = NO_ADAPTERS): AdapterPlugin {
  const registry = adapterRegistry(adapters);
  const adapter = registry.get(kind);
  if (!adapter)
    throw new SpecError(
      diagnostic("unsupported-feature", `no adapter for app kind "${kind}" (available: ${registry.kinds().join(", ")})`, {
        hint: "name one of the available kinds in `app:`, or add the adapter for it to the project (docs/plugins.md)",
      }),
    );
  return adapter;
}

/** Every app kind a flow may name: the built-in adapters, then the project's (`adapters`). */
export function surfaceCatalog(adapters: readonly AdapterPlugin[] = NO_ADAPTERS): SurfaceCatalog {
  return once(catalogs, adapters, () => catalogOf([...BUILTIN_ADAPTERS, ...adapters], PLANNED_KINDS));
}

/** Every assertion kind of a run by step key: the built-ins, then the project's (`assertions`). */
export function assertionKinds(assertions: readonly AssertionPlugin[] = NO_ASSERTIONS): ReadonlyMap<string, AssertionPlugin> {
  return once(assertionMaps, assertions, () => new Map([...BUILTIN_ASSERTIONS, ...assertions].map((a) => [a.key, a])));
}
