// The built-in adapters as spec/ and the grammar see them, for tests: the surface catalog, a
// grammar context per app kind (`at("calc")`), and loadFlowText with the built-ins by default.
import type { ParseContext } from "../../src/grammar/ast.ts";
import { BUILTIN_ADAPTERS, PLANNED_KINDS } from "../../src/plugins/builtin.ts";
import { loadFlowText as load, type LoadOptions, type LoadResult } from "../../src/spec/flow.ts";
import { catalogOf, grammarContext, type SurfaceCatalog, type SurfaceKind } from "../../src/spec/surface-kinds.ts";

/** The built-in adapters (and `extra` kinds, e.g. a project plugin's); `planned` kinds are refused by name. */
export function builtinCatalog(extra: readonly SurfaceKind[] = [], planned: readonly string[] = PLANNED_KINDS): SurfaceCatalog {
  return catalogOf([...BUILTIN_ADAPTERS, ...extra], planned);
}

const BUILTINS = builtinCatalog();

/** The grammar context steps of `kind` parse in. */
export function at(kind: string): ParseContext {
  return grammarContext(BUILTINS, BUILTINS.kinds.get(kind), kind);
}

/** loadFlowText with the built-in adapters unless `options.catalog` says otherwise. */
export function loadFlowText(file: string, text: string, options: Partial<LoadOptions> = {}): LoadResult {
  return load(file, text, { plainStepsAreRules: true, catalog: BUILTINS, ...options });
}

export type { Flow, LoadOptions, LoadResult } from "../../src/spec/flow.ts";
export type { Diagnostic } from "../../src/diagnostics/diagnostic.ts";
