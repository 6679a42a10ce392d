// One adapter session per app kind for a whole run (one browser per suite run); every flow gets
// its own driver (an isolated browser context) from it. Closed once, when the run ends.
// FLOWPROOF_NO_SHARED_BROWSER opts out: each flow then gets a session (a browser) of its own.
import { dirname } from "node:path";
import type { AdapterSession } from "../plugins/api.ts";
import type { RunContext } from "./project-plugins.ts";
import { openSurface, type LaunchExtras, type OpenedSurface } from "./surface.ts";

/** Set (to any value) to give every flow its own browser instead of one shared per run. */
export const NO_SHARED_BROWSER_VARIABLE = "FLOWPROOF_NO_SHARED_BROWSER";

/** Whether the flows of a run with this env share one browser: yes, unless it sets FLOWPROOF_NO_SHARED_BROWSER. */
export function sharesBrowser(env: Readonly<Record<string, string | undefined>>): boolean {
  return env[NO_SHARED_BROWSER_VARIABLE] === undefined;
}

export class SessionPool {
  readonly #sessions = new Map<string, Promise<AdapterSession>>();
  readonly #shared: boolean;

  /** `shared: false` opens a session per flow (default: shared; a run passes `sharesBrowser(env)`). */
  constructor(options: { shared?: boolean } = {}) {
    this.#shared = options.shared ?? true;
  }

  /** A fresh driver for `kind` from the run's shared session; the caller closes the driver, never the session. */
  async open(
    kind: string,
    flowPath: string,
    log: (line: string) => void,
    context: Pick<RunContext, "adapterFor">,
    config: Readonly<Record<string, unknown>> = {},
    extras: LaunchExtras = {},
  ): Promise<OpenedSurface> {
    if (!this.#shared) return openSurface(kind, flowPath, log, context, config, extras);
    let pending = this.#sessions.get(kind);
    if (!pending) {
      pending = context.adapterFor(kind).open();
      this.#sessions.set(kind, pending);
      // A session that failed to open is not kept: the next flow tries again.
      pending.catch(() => this.#sessions.delete(kind));
    }
    const session = await pending;
    const driver = await session.launch(config, { ...extras, baseDir: dirname(flowPath), log });
    // The shared session outlives this flow: closing the surface closes its driver only.
    return { driver, session: { launch: (c, ctx) => session.launch(c, ctx), close: async () => undefined } };
  }

  async close(): Promise<void> {
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => undefined))?.close().catch(() => undefined)));
  }
}
