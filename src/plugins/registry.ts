// Typed registry of adapters, built once per run and passed in a context (never a singleton).
import { AdapterUnavailableError, type AdapterPlugin, type AdapterSession } from "./api.ts";
import { FlowproofError, PluginError, diagnostic } from "../diagnostics/diagnostic.ts";
import type { Lifecycle } from "./lifecycle.ts";

export class AdapterRegistry {
  readonly #byKind = new Map<string, AdapterPlugin>();
  readonly #lifecycle: Lifecycle;

  /** `lifecycle`: the run's (created by the entry, passed in its run context); owns every session the adapters open. */
  constructor(plugins: readonly AdapterPlugin[], lifecycle: Lifecycle) {
    this.#lifecycle = lifecycle;
    for (const p of plugins) {
      if (this.#byKind.has(p.kind)) {
        throw new PluginError(diagnostic("plugin-error", `two adapters claim the app kind "${p.kind}"`, { hint: "rename the kind of one of them" }));
      }
      this.#byKind.set(p.kind, p);
    }
  }

  /**
   * The adapter for `kind`, as runs use it: every session it opens is owned by the lifecycle
   * (stopped on a forced exit), and nothing opens or launches once the process is stopping.
   */
  get(kind: string): AdapterPlugin | undefined {
    const plugin = this.#byKind.get(kind);
    if (!plugin) return undefined;
    const lifecycle = this.#lifecycle;
    return {
      ...plugin,
      async open() {
        refuseWhenStopping(lifecycle);
        const session = await openAdapter(plugin);
        const release = lifecycle.own({ stop: () => session.close() });
        const owned: AdapterSession = {
          async launch(config, ctx) {
            refuseWhenStopping(lifecycle);
            try {
              return await session.launch(config, ctx.stop ? ctx : { ...ctx, stop: lifecycle.signal });
            } catch (error) {
              throw ownCodes(plugin, error);
            }
          },
          async close() {
            try {
              await session.close();
            } finally {
              release();
            }
          },
        };
        return owned;
      },
    };
  }

  kinds(): string[] {
    return [...this.#byKind.keys()];
  }
}

function refuseWhenStopping(lifecycle: Lifecycle): void {
  const request = lifecycle.stopRequest;
  if (request) throw new FlowproofError(diagnostic("interrupted", `the run was interrupted (${request.reason}) before this flow started`));
}

/**
 * An adapter's session. A coded error of the adapter's own stands; anything else it throws is
 * this adapter not opening, said so with its kind (never a "driver fault" of no one in particular).
 */
async function openAdapter(plugin: AdapterPlugin): Promise<AdapterSession> {
  try {
    return await plugin.open();
  } catch (error) {
    if (error instanceof FlowproofError) throw ownCodes(plugin, error);
    const why = error instanceof Error ? error.message : String(error);
    throw new AdapterUnavailableError(
      `the \`app: ${plugin.kind}\` adapter could not open: ${why}`,
      `the adapter's open() failed before any app started: check what the \`${plugin.kind}\` adapter needs on this machine (its plugin's documentation), then run again`,
      { cause: error },
    );
  }
}

/**
 * An adapter's error as the run reports it: a code of its own (`<kind>/<name>`) stands when the
 * adapter declares it in `errors` (with the declared hint when it gave none); any other
 * namespaced code is the adapter answering out of contract (`plugin-error`, naming the code).
 */
export function ownCodes(plugin: Pick<AdapterPlugin, "kind" | "errors">, error: unknown): unknown {
  if (!(error instanceof FlowproofError) || !error.diagnostics.some((d) => d.code.includes("/"))) return error;
  const declared = (code: string) => (code.startsWith(`${plugin.kind}/`) ? plugin.errors?.[code.slice(plugin.kind.length + 1)] : undefined);
  const stray = error.diagnostics.find((d) => d.code.includes("/") && declared(d.code) === undefined);
  if (stray) {
    const name = stray.code.includes("/") ? stray.code.slice(stray.code.indexOf("/") + 1) : stray.code;
    return new PluginError(
      diagnostic("plugin-error", `the \`app: ${plugin.kind}\` adapter raised the error code \`${stray.code}\`, which it does not declare: ${stray.message}`, {
        hint: `declare it in the adapter's \`errors\` (\`errors: { "${name}": { meaning, hint } }\`); an adapter's codes are namespaced by its kind: \`${plugin.kind}/<name>\``,
      }),
    );
  }
  if (error.diagnostics.every((d) => d.hint !== undefined || declared(d.code)?.hint === undefined)) return error;
  const copy = new FlowproofError(
    error.diagnostics.map((d) => (d.hint === undefined && declared(d.code)?.hint !== undefined ? { ...d, hint: declared(d.code)!.hint! } : d)),
  );
  copy.name = error.name;
  return copy;
}
