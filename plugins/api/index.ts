// The `api` app kind: a surface with no UI. An api flow runs only structured steps (assert_api,
// assert_sql, …), so this driver launches nothing and answers `unsupported` to every UI action.
// It observes the requests its own steps send: a write (POST, PUT, PATCH, DELETE) a step reports
// sending is the step's `request` effect, as method and normalised path (never a body or a query).
import {
  defineAdapter,
  keyRole,
  Type,
  effectRequest,
  isWriteMethod,
  noUiDriver,
  type AppDriver,
  type EffectKind,
  type EffectReading,
  type EffectWatch,
} from "../../src/plugins/api.ts";

const NO_UI = "an `app: api` flow has no UI to drive";

/** What the api surface observes: the requests its steps send, nothing else. */
export const API_EFFECT_KINDS: readonly EffectKind[] = ["request"];

/**
 * One step's observation: the writes it reported sending, in order, without repeats. The request
 * has been answered when the step returns, so the first reading is final.
 */
export class SentRequests implements EffectWatch {
  readonly kinds = API_EFFECT_KINDS;
  readonly #requests: string[] = [];
  #stopped = false;

  sent(method: string, url: string): void {
    if (this.#stopped || !isWriteMethod(method)) return;
    const r = effectRequest(method, url);
    if (!this.#requests.includes(r)) this.#requests.push(r);
  }

  async read(): Promise<EffectReading> {
    return { effect: this.#requests.length > 0 ? { requests: [...this.#requests] } : {}, idleMs: Number.POSITIVE_INFINITY, final: true };
  }

  async stop(): Promise<void> {
    this.#stopped = true;
  }
}

/** The driver of an api flow: navigation is a no-op, every UI action is unsupported, nothing is shown; it observes its steps' requests. */
export function createApiDriver(): AppDriver {
  return noUiDriver(NO_UI, { observeEffect: async () => new SentRequests() });
}

export const plugin = defineAdapter({
  kind: "api",
  title: "api flows",
  capabilities: [],
  steps: "structured",
  leakCorpus: true,
  keys: {
    // A flow may name the base its requests share (unused by the surface); an `apps:` entry may not.
    schema: Type.Object(
      { url: Type.Optional(Type.String({ minLength: 1, description: "Accepted and not opened: an api flow has no page.", ...keyRole({ surface: false }) })) },
      { additionalProperties: false },
    ),
    refuse: { url: { hint: "remove `url:`; write the full URL in each `assert_api:` step" } },
  },
  open: async () => ({ launch: async () => createApiDriver(), close: async () => undefined }),
});
