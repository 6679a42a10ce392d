// What one action did in a Firefox page, observed for step effects: every kind Chromium observes.
// From BiDi events: the navigation it led to (a new document, a fragment, a history entry), the
// requests it sent (network.beforeRequestSent), the dialog it opened and the download it began.
// From the page: the same page-side observer as on Chromium (effects.ts, serialised into the page
// with script.callFunction and read through its handle) for the target's own state, focus and the
// DOM; it reports a navigation the app started on its own work through a preload script's channel.
import type { EffectKind, EffectReading, EffectWatch, ObservedEffect } from "../../../src/plugins/api.ts";
import { effectPath, effectRequest, isWriteMethod } from "../../../src/plugins/api.ts";
import { BACKGROUND_NAVIGATION_BINDING, PAGE_OBSERVER_SOURCE, WEB_EFFECT_KINDS, type BackgroundNavigation, type PageAnswer } from "../effects.ts";
import { TASKS_KEY } from "../task-origins.ts";
import type { BidiConnection } from "./connection.ts";
import type { BidiNavigation } from "./navigation.ts";

/** The kinds a Firefox page observes: Chromium's. */
export const FIREFOX_EFFECT_KINDS: readonly EffectKind[] = WEB_EFFECT_KINDS;

/** How many stopped observers' handles are released together. */
const RELEASE_BATCH = 32;

/** The channel (script.message) the page observer reports the app's own navigations through. */
export const BACKGROUND_CHANNEL = "flowproof-background-navigation";

/** The preload script that gives every document the binding the page observer reports through, backed by BACKGROUND_CHANNEL. */
export const BACKGROUND_BINDING_PRELOAD = {
  functionDeclaration: `(report) => { Object.defineProperty(window, ${JSON.stringify(BACKGROUND_NAVIGATION_BINDING)}, { value: (payload) => { report(String(payload)); } }); }`,
  arguments: [{ type: "channel", value: { channel: BACKGROUND_CHANNEL, ownership: "none" } }],
};

/** The events effects are observed from, besides the navigation and dialog events the page already follows. */
export const EFFECT_EVENTS = [
  "network.beforeRequestSent",
  "network.responseCompleted",
  "network.fetchError",
  "browsingContext.historyUpdated",
  "browsingContext.fragmentNavigated",
  "browsingContext.domContentLoaded",
  "browsingContext.userPromptOpened",
  "script.message",
];

/** Stops the previous observer (when still in this document), starts the next and answers it (its handle) with the document's URL as its `href`. */
const INSTALL = `function (previous) { if (previous) previous.stop(); const o = (${PAGE_OBSERVER_SOURCE})(${JSON.stringify(TASKS_KEY)}, ${JSON.stringify(BACKGROUND_NAVIGATION_BINDING)}); o.href = location.href; return o; }`;

/** A request as BiDi announces it: counted when a script sent it, or a write a document sent (a form post). */
export function countsAsEffect(method: string, destination: string, isNavigation: boolean): boolean {
  if (isWriteMethod(method)) return destination === "" || destination === "document";
  return destination === "" && !isNavigation;
}

/** A main-frame navigation seen during a watch: where to, whether it kept the document, and the path it left. */
interface SeenNavigation {
  readonly url: string;
  readonly sameDocument: boolean;
  readonly fromPath: string | undefined;
}

/** One action's observations so far. */
interface Watch {
  readonly requests: string[];
  readonly navigations: SeenNavigation[];
  /** URLs of navigations the app started on its own work (reported by the page observer). */
  readonly appsOwn: Set<string>;
  /** The observer's last answer, when the app's own navigation replaced its document. */
  lastAnswer?: PageAnswer;
  dialog?: string;
  readonly inFlight: Set<string>;
  last: number;
  /** The observer's answer in the round trip after the input, and `last` when it was asked: the first read uses it when no event came since. */
  early?: { readonly answer: PageAnswer | undefined; readonly last: number };
}

/** Where a watch's downloads come from. */
export interface BidiEffectSources {
  /** How many downloads the page began so far. */
  readonly downloadsBegun: () => number;
}

interface CallResult {
  readonly type: "success" | "exception";
  readonly result?: { readonly type: string; readonly handle?: string; readonly value?: unknown };
}

/** The step's navigation: the last one not the app's own (unless `withAppsOwn`) and not a same-document change that kept the path. */
function navigatedOf(w: Watch, withAppsOwn: boolean): string | undefined {
  const own = w.navigations.filter((n) => (withAppsOwn || !w.appsOwn.has(n.url)) && !(n.sameDocument && effectPath(n.url) === n.fromPath));
  const last = own.at(-1);
  return last === undefined ? undefined : effectPath(last.url);
}

export class BidiEffects {
  readonly #connection: BidiConnection;
  readonly #context: string;
  readonly #navigation: BidiNavigation;
  readonly #sources: BidiEffectSources;
  #watch: Watch | undefined;
  /** The page's URL now, kept from its navigations (the path a same-document navigation leaves). */
  #url: string | undefined;
  readonly #offs: Array<() => void>;
  /** The observer of the last ended watch, stopped by the next install (in the same call). */
  #ended: string | undefined;
  /** Stopped observers' handles, released in one command once RELEASE_BATCH of them gathered (or on dispose). */
  readonly #stopped: string[] = [];
  /** The watch in progress's early reading (see readAfterInput). */
  #readEarly: (() => Promise<unknown>) | undefined;

  constructor(connection: BidiConnection, context: string, navigation: BidiNavigation, sources: BidiEffectSources = { downloadsBegun: () => 0 }) {
    this.#connection = connection;
    this.#context = context;
    this.#navigation = navigation;
    this.#sources = sources;
    const mine = (p: Record<string, unknown>) => p["context"] === this.#context;
    const done = (p: Record<string, unknown>) => {
      const w = this.#watch;
      const id = (p["request"] as { request?: string } | undefined)?.request;
      if (w && id && w.inFlight.delete(id)) w.last = performance.now();
    };
    this.#offs = [
      connection.on("network.beforeRequestSent", (p) => {
        const w = this.#watch;
        if (!w || !mine(p)) return;
        const r = (p["request"] ?? {}) as { request?: string; method?: string; url?: string; destination?: string };
        const method = r.method ?? "GET";
        if (!/^https?:/.test(r.url ?? "")) return;
        // A redirect's next hop is the same request: only its first hop is the action's.
        if (typeof p["redirectCount"] === "number" && p["redirectCount"] > 0) return;
        if (!countsAsEffect(method, r.destination ?? "", p["navigation"] !== null && p["navigation"] !== undefined)) return;
        const effect = effectRequest(method, r.url ?? "");
        if (!w.requests.includes(effect)) w.requests.push(effect);
        if (r.request) w.inFlight.add(r.request);
        w.last = performance.now();
      }),
      connection.on("network.responseCompleted", done),
      connection.on("network.fetchError", done),
      connection.on("browsingContext.domContentLoaded", (p) => mine(p) && this.#navigated(String(p["url"] ?? ""), false)),
      connection.on("browsingContext.fragmentNavigated", (p) => mine(p) && this.#navigated(String(p["url"] ?? ""), true)),
      connection.on("browsingContext.historyUpdated", (p) => mine(p) && this.#navigated(String(p["url"] ?? ""), true)),
      connection.on("browsingContext.userPromptOpened", (p) => {
        const w = this.#watch;
        if (!w || !mine(p)) return;
        w.dialog ??= String(p["type"] ?? "alert");
        w.last = performance.now();
      }),
      connection.on("script.message", (p) => {
        const w = this.#watch;
        const source = p["source"] as { context?: string } | undefined;
        if (!w || p["channel"] !== BACKGROUND_CHANNEL || source?.context !== this.#context) return;
        let reported: BackgroundNavigation;
        try {
          reported = JSON.parse(String((p["data"] as { value?: unknown } | undefined)?.value)) as BackgroundNavigation;
        } catch {
          return; // not the observer's: the page called the binding itself
        }
        if (typeof reported.url !== "string") return;
        w.appsOwn.add(reported.url);
        if (reported.answer) w.lastAnswer = reported.answer;
      }),
    ];
  }

  #navigated(url: string, sameDocument: boolean): void {
    // A history update repeating the URL a fragment navigation already announced is the same navigation.
    if (sameDocument && url === this.#url) return;
    const fromPath = this.#url === undefined ? undefined : effectPath(this.#url);
    this.#url = url;
    const w = this.#watch;
    if (!w) return;
    w.navigations.push({ url, sameDocument, fromPath });
    w.last = performance.now();
  }

  /** Calls `declaration` on the observer `handle`; undefined when the document (and the observer with it) is gone. */
  async #call(handle: string, declaration: string): Promise<unknown> {
    const r = await this.#connection
      .send<CallResult>("script.callFunction", {
        functionDeclaration: declaration,
        this: { handle },
        target: { context: this.#context },
        awaitPromise: false,
        resultOwnership: "none",
      })
      .catch(() => undefined);
    return r?.type === "success" ? r.result?.value : undefined;
  }

  /** Releases the stopped observers' handles: one command for many (releasing is slow in Firefox, tens of ms, however few). */
  #release(): void {
    const handles = this.#stopped.splice(0);
    if (handles.length > 0) void this.#connection.send("script.disown", { handles, target: { context: this.#context } }).catch(() => undefined);
  }

  /** Starts the page observer, stopping the previous one in the same call; undefined when the page cannot take it. */
  async #install(previous: string | undefined): Promise<CallResult | undefined> {
    const call = (args: unknown[]) =>
      this.#connection
        .send<CallResult>("script.callFunction", {
          functionDeclaration: INSTALL,
          arguments: args,
          target: { context: this.#context },
          awaitPromise: false,
          resultOwnership: "root",
          serializationOptions: { maxObjectDepth: 1 },
        })
        .catch(() => undefined);
    // The previous observer's document may be gone (its handle with it): then there is nothing to stop.
    const installed = previous === undefined ? undefined : await call([{ handle: previous }]);
    if (previous !== undefined && installed?.type === "success") this.#stopped.push(previous);
    return installed?.type === "success" ? installed : await call([]);
  }

  /**
   * The round trip after the action's input (BidiNavigation.afterInput) when a watch is on: the
   * observer's reading, which the watch's first read uses unless an event came meanwhile, so the
   * step does not ask the page twice. Undefined when no observer is watching.
   */
  readAfterInput(): Promise<unknown> | undefined {
    return this.#readEarly?.();
  }

  /** Starts observing the next action: the page observer is in place before this answers. */
  async watch(): Promise<EffectWatch> {
    if (this.#stopped.length >= RELEASE_BATCH) this.#release();
    const previous = this.#ended;
    this.#ended = undefined;
    const installed = await this.#install(previous);
    const result = installed?.type === "success" ? installed.result : undefined;
    const observer = result?.handle;
    const href = (result?.value as Array<[string, { value?: unknown }]> | undefined)?.find(([key]) => key === "href")?.[1].value;
    if (typeof href === "string") this.#url = href;
    const downloadsBefore = this.#sources.downloadsBegun();
    const w: Watch = { requests: [], navigations: [], appsOwn: new Set(), inFlight: new Set<string>(), last: performance.now() };
    this.#watch = w;
    const readPage = async (): Promise<PageAnswer | undefined> => {
      if (observer === undefined) return undefined;
      const text = await this.#call(observer, "function () { return JSON.stringify(this.read()); }");
      return typeof text === "string" ? (JSON.parse(text) as PageAnswer) : undefined;
    };
    this.#readEarly =
      observer === undefined
        ? undefined
        : async () => {
            const last = w.last;
            const answer = await readPage();
            w.early = { answer, last };
          };
    return {
      kinds: FIREFOX_EFFECT_KINDS,
      read: async (): Promise<EffectReading> => {
        const replacing = w.navigations.filter((n) => !n.sameDocument);
        const early = w.early;
        delete w.early;
        const fresh = early?.answer !== undefined && early.last === w.last;
        const page = replacing.length > 0 ? undefined : fresh ? early.answer : await readPage();
        const navigated = navigatedOf(w, false);
        // A new document replaced the observer's. When the step did it, the navigation is the effect
        // and the old page's state is gone; when the app did it on its own, the step's changes until
        // then are what the observer last answered.
        const appsOwnReplaced = replacing.length > 0 && replacing.every((n) => w.appsOwn.has(n.url));
        const onPage = page ?? (appsOwnReplaced ? w.lastAnswer : undefined);
        const download = this.#sources.downloadsBegun() > downloadsBefore;
        const common: ObservedEffect = {
          ...(w.requests.length > 0 ? { requests: [...w.requests] } : {}),
          ...(w.dialog !== undefined ? { dialog: w.dialog } : {}),
          ...(download ? { download: true } : {}),
          ...(onPage && onPage.target.length > 0 ? { target: onPage.target } : {}),
          ...(onPage?.focus ? { focus: true } : {}),
        };
        const all = navigated ?? navigatedOf(w, true);
        const busy = w.inFlight.size > 0 || this.#navigation.loading;
        const idle = busy ? 0 : Math.min(performance.now() - w.last, page?.idle ?? Number.POSITIVE_INFINITY);
        return {
          effect: {
            ...(navigated !== undefined ? { navigated } : {}),
            ...common,
            ...(onPage?.near ? { dom: "near" as const } : onPage?.page ? { dom: "page" as const } : {}),
          },
          withAppsOwn: {
            ...(all !== undefined ? { navigated: all } : {}),
            ...common,
            ...(onPage?.nearAll ? { dom: "near" as const } : onPage?.pageAll ? { dom: "page" as const } : {}),
          },
          idleMs: Math.max(0, idle),
        };
      },
      stop: async () => {
        if (this.#watch === w) {
          this.#watch = undefined;
          this.#readEarly = undefined;
        }
        if (observer === undefined) return;
        // One no install came after (a watch stopped without another begun) is stopped on its own.
        if (this.#ended !== undefined) {
          void this.#call(this.#ended, "function () { this.stop(); }");
          this.#stopped.push(this.#ended);
        }
        this.#ended = observer;
      },
    };
  }

  /**
   * Stops observing. `pageStays` false: the page is about to go (its user context removed), and
   * every observer and handle with it, so the page is not asked to stop or release them: those
   * commands would only hold up the browser's closing of the page.
   */
  async dispose(pageStays = true): Promise<void> {
    if (this.#ended !== undefined && pageStays) {
      void this.#call(this.#ended, "function () { this.stop(); }");
      this.#stopped.push(this.#ended);
    }
    this.#ended = undefined;
    if (pageStays) this.#release();
    else this.#stopped.length = 0;
    for (const off of this.#offs.splice(0)) off();
    this.#watch = undefined;
    this.#readEarly = undefined;
  }
}
