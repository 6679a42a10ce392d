// Typed registry of adapters, built once per run and passed in a context (never a singleton).
import type { AdapterPlugin } from "./api.ts";
import { PluginError, diagnostic } from "../diagnostics/diagnostic.ts";

export class AdapterRegistry {
  readonly #byKind = new Map<string, AdapterPlugin>();

  constructor(plugins: readonly AdapterPlugin[]) {
    for (const p of plugins) {
      if (this.#byKind.has(p.kind)) {
        throw new PluginError(diagnostic("plugin-error", `two adapters claim the app kind "${p.kind}"`, { hint: "rename the kind of one of them" }));
      }
      this.#byKind.set(p.kind, p);
    }
  }

  get(kind: string): AdapterPlugin | undefined {
    return this.#byKind.get(kind);
  }

  kinds(): string[] {
    return [...this.#byKind.keys()];
  }
}
