// The built-in adapters as spec/ and the grammar see them, for tests: the surface catalog, a
// grammar context per app kind (`at("calc")`), and loadFlowText with the built-ins by default.
import type { ParseContext } from "../../src/grammar/ast.ts";
import { BUILTIN_ADAPTERS, PLANNED_KINDS } from "../../src/plugins/builtin.ts";
import { loadFlowText as load, type LoadOptions, type LoadResult } from "../../src/spec/flow.ts";
import { catalogOf, grammarContext, type SurfaceCatalog, type SurfaceKind } from "../../src/spec/surface-kinds.ts";
import { GRAMMAR_FORMS } from "../../src/grammar/vocabulary.ts";
import { Type } from "@sinclair/typebox";
import { keyRole } from "../../src/plugins/adapter-api.ts";

/**
 * A desktop surface that sees only pixels, as a vision adapter declares it: F-keys, no page-level
 * web forms. Stands in for the vision plugin in grammar tests (it is a planned kind here).
 */
export const VISION_STAND_IN: SurfaceKind = {
  kind: "vision",
  title: "a window seen only as pixels",
  capabilities: ["pointer", "keyboard", "screenshot"],
  grammar: { lacks: GRAMMAR_FORMS, keys: { functionKeys: true } },
  keys: {
    // `window: {title, width?, height?, x?, y?}`, recorded: replay attaches to the same window, sized alike.
    schema: Type.Object({
      window: Type.Object({
        title: Type.String({ minLength: 1, ...keyRole({ references: "env" }) }),
        width: Type.Optional(Type.Integer({ minimum: 1 })),
        height: Type.Optional(Type.Integer({ minimum: 1 })),
        x: Type.Optional(Type.Integer()),
        y: Type.Optional(Type.Integer()),
      }, { additionalProperties: false, ...keyRole({ recorded: true }) }),
    }, { additionalProperties: false, required: ["window"] }) as never,
    refuse: {
      window_title: { message: "`window_title` is a Windows program's spelling; a vision app's window is `window.title`", hint: "window: {title: \"My App\"}" },
      "window.window_title": { message: "`window.window_title` is not a key of `window`; a vision app's window is `window.title`", hint: "window: {title: \"My App\"}" },
    },
  },
};

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
