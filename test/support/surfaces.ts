// The built-in adapters as spec/ and the grammar see them, for tests: the surface catalog, a
// grammar context per app kind (`at("calc")`), and loadFlowText with the built-ins by default.
import type { ParseContext } from "../../src/grammar/ast.ts";
import { BUILTIN_ADAPTERS, PLANNED_KINDS } from "../../src/plugins/builtin.ts";
import { loadFlowText as load, type LoadOptions, type LoadResult } from "../../src/spec/flow.ts";
import { catalogOf, grammarContext, type SurfaceCatalog, type SurfaceKind } from "../../src/spec/surface-kinds.ts";
import { plugin as vision } from "../../plugins/vision/index.ts";

/**
 * The vision adapter as it declares itself through the contract (its keys, grammar and platforms);
 * not a built-in yet (a planned kind), so tests add it to a catalog themselves.
 */
export const VISION_STAND_IN: SurfaceKind = vision;

/** The built-in adapters (and `extra` kinds, e.g. a project plugin's). */
export function builtinCatalog(extra: readonly SurfaceKind[] = []): SurfaceCatalog {
  return catalogOf([...BUILTIN_ADAPTERS, ...extra], PLANNED_KINDS);
}

const WITH_VISION = catalogOf([...BUILTIN_ADAPTERS, VISION_STAND_IN]);

/** The grammar context steps of `kind` parse in (`vision` stands in for the planned vision plugin). */
export function at(kind: string): ParseContext {
  return grammarContext(WITH_VISION, WITH_VISION.kinds.get(kind), kind);
}

/** loadFlowText with the built-in adapters unless `options.catalog` says otherwise. */
export function loadFlowText(file: string, text: string, options: Partial<LoadOptions> = {}): LoadResult {
  return load(file, text, { plainStepsAreRules: true, catalog: builtinCatalog(), ...options });
}

export type { Flow, LoadOptions, LoadResult } from "../../src/spec/flow.ts";
export type { Diagnostic } from "../../src/diagnostics/diagnostic.ts";
