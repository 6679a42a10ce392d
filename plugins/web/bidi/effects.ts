// What one action did in a Firefox page, observed for step effects from BiDi events: the
// navigation it led to and the requests it sent (network.beforeRequestSent). The page-side kinds
// (the target's own state, focus, the DOM) are not observed here, so replay never judges them on
// Firefox (docs/trace-format.md, "Effects": a kind judged only when observed at record and replay).
import type { EffectKind, EffectReading, EffectWatch } from "../../../src/plugins/api.ts";
import { effectPath, effectRequest, isWriteMethod } from "../../../src/plugins/api.ts";
import type { BidiConnection } from "./connection.ts";
import type { BidiNavigation } from "./navigation.ts";

export const FIREFOX_EFFECT_KINDS: readonly EffectKind[] = ["navigation", "request"];

/** A request as BiDi announces it: counted when a script sent it, or a write a document sent (a form post). */
export function countsAsEffect(method: string, destination: string, isNavigation: boolean): boolean {
  if (isWriteMethod(method)) return destination === "" || destination === "document";
  return destination === "" && !isNavigation;
}

/** One action's observations so far. */
interface Watch {
  readonly requests: string[];
  navigated?: string;
  /** The path the page was on when the watch began (a same-path navigation is no effect). */
  readonly from: string;
  readonly inFlight: Set<string>;
  last: number;
}

export class BidiEffects {
  readonly #connection: BidiConnection;
  readonly #context: string;
  readonly #navigation: BidiNavigation;
  #watch: Watch | undefined;
  readonly #offs: Array<() => void>;

  constructor(connection: BidiConnection, context: string, navigation: BidiNavigation) {
    this.#connection = connection;
    this.#context = context;
    this.#navigation = navigation;
    const done = (p: Record<string, unknown>) => {
      const w = this.#watch;
      const id = (p["request"] as { request?: string } | undefined)?.request;
      if (w && id && w.inFlight.delete(id)) w.last = performance.now();
    };
    this.#offs = [
      connection.on("network.beforeRequestSent", (p) => {
        const w = this.#watch;
        if (!w || p["context"] !== this.#context) return;
        const r = (p["request"] ?? {}) as { request?: string; method?: string; url?: string; destination?: string };
        const method = r.method ?? "GET";
        if (!countsAsEffect(method, r.destination ?? "", p["navigation"] !== null && p["navigation"] !== undefined)) return;
        const effect = effectRequest(method, r.url ?? "");
        if (!w.requests.includes(effect)) w.requests.push(effect);
        if (r.request) w.inFlight.add(r.request);
        w.last = performance.now();
      }),
      connection.on("network.responseCompleted", done),
      connection.on("network.fetchError", done),
      navigation.onNavigated((url) => {
        const w = this.#watch;
        if (!w) return;
        w.last = performance.now();
        const path = effectPath(url);
        if (path !== w.from) w.navigated = path;
      }),
    ];
  }

  async watch(): Promise<EffectWatch> {
    const here = await this.#connection
      .send<{ contexts: Array<{ url: string }> }>("browsingContext.getTree", { root: this.#context, maxDepth: 0 })
      .then((t) => t.contexts[0]?.url ?? "")
      .catch(() => "");
    const w: Watch = { requests: [], from: effectPath(here), inFlight: new Set<string>(), last: performance.now() };
    this.#watch = w;
    return {
      kinds: FIREFOX_EFFECT_KINDS,
      read: async (): Promise<EffectReading> => {
        const busy = w.inFlight.size > 0 || this.#navigation.loading;
        return {
          effect: { ...(w.navigated ? { navigated: w.navigated } : {}), ...(w.requests.length > 0 ? { requests: [...w.requests] } : {}) },
          idleMs: busy ? 0 : performance.now() - w.last,
        };
      },
      stop: async () => {
        if (this.#watch === w) this.#watch = undefined;
      },
    };
  }

  async dispose(): Promise<void> {
    for (const off of this.#offs.splice(0)) off();
    this.#watch = undefined;
  }
}
