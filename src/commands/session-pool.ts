// One adapter session per app kind for a whole run (one browser per suite run); every flow gets
// its own driver (an isolated browser context) from it. Closed once, when the run ends.
import { dirname } from "node:path";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import { BUILTIN_ADAPTERS } from "../plugins/builtin.ts";
import { AdapterRegistry } from "../plugins/registry.ts";
import type { AdapterPlugin, AdapterSession } from "../plugins/api.ts";
import type { OpenedSurface } from "./common.ts";

export class SessionPool {
  readonly #sessions = new Map<string, Promise<AdapterSession>>();

  /** A fresh driver for `kind` from the run's shared session; the caller closes the driver, never the session. */
  async open(kind: string, flowPath: string, log: (line: string) => void, adapters: readonly AdapterPlugin[] = [], config: Readonly<Record<string, unknown>> = {}): Promise<OpenedSurface> {
    let pending = this.#sessions.get(kind);
    if (!pending) {
      const registry = new AdapterRegistry([...BUILTIN_ADAPTERS, ...adapters]);
      const adapter = registry.get(kind);
      if (!adapter) throw new SpecError(diagnostic("unsupported-feature", `no adapter for app kind "${kind}" (available: ${registry.kinds().join(", ")})`, { hint: "use `app: web`" }));
      pending = adapter.open();
      this.#sessions.set(kind, pending);
      // A session that failed to open is not kept: the next flow tries again.
      pending.catch(() => this.#sessions.delete(kind));
    }
    const session = await pending;
    const driver = await session.launch(config, { baseDir: dirname(flowPath), log });
    // The shared session outlives this flow: closing the surface closes its driver only.
    return { driver, session: { launch: (c, ctx) => session.launch(c, ctx), close: async () => undefined } };
  }

  async close(): Promise<void> {
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => undefined))?.close().catch(() => undefined)));
  }
}
