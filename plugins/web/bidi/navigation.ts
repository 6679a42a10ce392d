// A Firefox page's documents over WebDriver BiDi: opening, reloading and going through history
// (browsingContext.navigate / reload / traverseHistory), the navigation an action started
// (followed from browsingContext events, waited for after the input, bounded, named when it
// stalls), and the first rendering update of a new document.
import type { Attempt } from "../../../src/plugins/api.ts";
import { fail, noHistoryEntry, ok, serverError } from "../page-calls.ts";
import { BidiError, type BidiConnection } from "./connection.ts";
import type { BidiPage } from "./page.ts";

/** How long an action waits for a navigation it started until the run names its own bound. */
const NAVIGATION_SETTLE_MS = 30_000;
/** How often a navigation in flight asks the page whether it arrived. */
const POLL_MS = 50;
/** The navigation events a page is followed by. */
export const NAVIGATION_EVENTS = [
  "browsingContext.navigationStarted",
  "browsingContext.domContentLoaded",
  "browsingContext.load",
  "browsingContext.fragmentNavigated",
  "browsingContext.navigationFailed",
  // A window a script closes is asked to unload first; its end answers that (see afterInput).
  "browsingContext.contextDestroyed",
];

/** The channel (script.message) a document reports through that it was asked to unload. */
export const UNLOAD_CHANNEL = "flowproof-unload";
/**
 * Every document reports its `beforeunload` event (capture phase, before the page's own handlers).
 * Firefox fires it in the page, then opens the page's leave prompt in the parent, so the round trip
 * after an action can come back before the prompt is announced: the report says one is on its way.
 */
export const UNLOAD_PRELOAD = {
  functionDeclaration: `(report) => { window.addEventListener("beforeunload", () => report(""), true); }`,
  arguments: [{ type: "channel", value: { channel: UNLOAD_CHANNEL, ownership: "none" } }],
};
/** How long an action waits, after its page was asked to unload, for the leave prompt or the navigation to be announced. */
const UNLOAD_ANSWER_MS = 2_000;

/** `p`'s value, or undefined once `ms` passed first. */
export const withinMs = <T>(p: Promise<T>, ms: number): Promise<T | undefined> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([p, new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms)))]).finally(() => clearTimeout(timer));
};

export class BidiNavigation {
  readonly #connection: BidiConnection;
  readonly #page: BidiPage;
  #loading = false;
  #pendingUrl: string | undefined;
  #stalled: string | undefined;
  #waiters: Array<() => void> = [];
  #boundMs = NAVIGATION_SETTLE_MS;
  /** Every URL the main frame navigated to, for the effects of an action (see effects.ts). */
  readonly #listeners = new Set<(url: string) => void>();
  /** The page reported `beforeunload` and neither its leave prompt nor a navigation was announced since. */
  #unloadAsked = false;
  #unloadAnswered: Array<() => void> = [];

  /** The round trip after input (see afterInput). */
  readonly #ping: () => Promise<unknown>;

  /** `ping` is the round trip after input: by default an empty evaluation; the driver's reads the step's effects in it. */
  constructor(connection: BidiConnection, page: BidiPage, ping?: () => Promise<unknown>) {
    this.#connection = connection;
    this.#page = page;
    this.#ping = ping ?? (() => page.evaluate("0"));
  }

  /** Follows the page's top-level navigations; returns the unsubscribers. */
  listen(): Array<() => void> {
    const mine = (p: Record<string, unknown>) => p["context"] === this.#page.context;
    const answered = (p: Record<string, unknown>) => {
      if (!mine(p)) return;
      this.#unloadAsked = false;
      for (const w of this.#unloadAnswered.splice(0)) w();
    };
    return [
      this.#connection.on("script.message", (p) => {
        const source = p["source"] as { context?: string } | undefined;
        if (p["channel"] === UNLOAD_CHANNEL && source?.context === this.#page.context) this.#unloadAsked = true;
      }),
      ...["browsingContext.userPromptOpened", "browsingContext.navigationStarted", "browsingContext.navigationFailed", "browsingContext.contextDestroyed"].map(
        (e) => this.#connection.on(e, answered),
      ),
      this.#connection.on("browsingContext.navigationStarted", (p) => {
        if (!mine(p)) return;
        this.#loading = true;
        this.#pendingUrl = String(p["url"] ?? "");
      }),
      ...["browsingContext.domContentLoaded", "browsingContext.navigationFailed"].map((e) =>
        this.#connection.on(e, (p) => {
          if (!mine(p)) return;
          if (e === "browsingContext.domContentLoaded") for (const l of this.#listeners) l(String(p["url"] ?? ""));
          this.loaded();
        }),
      ),
      // A navigation that turned into a download ends there: no document follows it.
      this.#connection.on("browsingContext.downloadWillBegin", (p) => {
        if (mine(p)) this.loaded();
      }),
      this.#connection.on("browsingContext.fragmentNavigated", (p) => {
        if (!mine(p)) return;
        for (const l of this.#listeners) l(String(p["url"] ?? ""));
        this.loaded();
      }),
    ];
  }

  /** Calls `listener` with the URL of every document (or fragment) the page lands on until the undo. */
  onNavigated(listener: (url: string) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  get loading(): boolean {
    return this.#loading;
  }

  loaded(): void {
    this.#loading = false;
    this.#pendingUrl = undefined;
    // The document that was asked to unload is gone (Firefox asks only after announcing a navigation it started itself).
    this.#unloadAsked = false;
    for (const w of this.#waiters.splice(0)) w();
  }

  takeStalled(): string | undefined {
    const stalled = this.#stalled;
    this.#stalled = undefined;
    return stalled;
  }

  async navigate(url: string, timeoutMs: number): Promise<Attempt> {
    this.#boundMs = timeoutMs;
    const sent = this.#connection.send("browsingContext.navigate", { context: this.#page.context, url, wait: "interactive" }, timeoutMs + 5000);
    let answer;
    try {
      answer = await withinMs(sent, timeoutMs);
    } catch (error) {
      this.loaded();
      return fail("not-found", `could not open ${url}: ${(error as Error).message}`, false);
    }
    if (answer === undefined) {
      sent.catch(() => undefined);
      await this.#abandon();
      return fail("attached", `${url} did not finish loading within ${timeoutMs} ms: the server never delivered the whole document`, false);
    }
    this.loaded();
    await this.#page.nextFrame();
    const status = await this.#page.tryEvaluate<number>(`(performance.getEntriesByType("navigation")[0] || {}).responseStatus || 0`);
    if (typeof status === "number" && status >= 500) return serverError(url, status);
    return ok(undefined);
  }

  async reload(timeoutMs: number): Promise<Attempt> {
    this.#boundMs = timeoutMs;
    const sent = this.#connection.send("browsingContext.reload", { context: this.#page.context, wait: "interactive" }, timeoutMs + 5000);
    const answer = await withinMs(
      sent.then(
        () => true,
        (e: Error) => e,
      ),
      timeoutMs,
    );
    if (answer === undefined) {
      await this.#abandon();
      return fail("attached", `the reload did not finish loading within ${timeoutMs} ms`, false);
    }
    if (answer instanceof Error) return fail("not-found", `could not reload: ${answer.message}`, false);
    this.loaded();
    await this.#page.nextFrame();
    return ok(undefined);
  }

  async history(direction: "back" | "forward", timeoutMs: number): Promise<Attempt> {
    const before = await this.#page.tryEvaluate<string>("location.href");
    try {
      await this.#connection.send("browsingContext.traverseHistory", { context: this.#page.context, delta: direction === "back" ? -1 : 1 }, timeoutMs);
    } catch (error) {
      // No entry that way (Firefox replaces the blank page a tab opens on, so it is no entry either): the same words as Chromium's.
      if (error instanceof BidiError && error.error === "no such history entry") return noHistoryEntry(direction);
      return fail("not-found", `could not go ${direction}: ${(error as Error).message}`, false);
    }
    // The entry it lands on may be the same document (a fragment, pushState) or a new one: wait until the URL moved and the document is ready.
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      await this.settle(Math.max(1, deadline - performance.now()));
      const now = await this.#page.tryEvaluate<string>(`document.readyState !== "loading" ? location.href : ""`);
      if (now && now !== before) return ok(undefined);
      await Bun.sleep(25);
    }
    return fail("attached", `going ${direction} did not reach another page within ${timeoutMs} ms`, false);
  }

  async #abandon(): Promise<void> {
    this.loaded();
    await withinMs(
      this.#page.evaluate("window.stop()").catch(() => undefined),
      2000,
    );
  }

  /** Waits for a navigation in flight to reach DOMContentLoaded, then for its first frame; a stall is named to the next step. */
  async settle(timeoutMs = this.#boundMs): Promise<void> {
    if (!this.#loading) return;
    const settled = await withinMs(Promise.race([new Promise<true>((resolve) => this.#waiters.push(() => resolve(true))), this.#arrived()]), timeoutMs);
    if (!settled) {
      const target = this.#pendingUrl ? `the navigation to ${this.#pendingUrl}` : "a navigation of the page";
      this.#stalled ??= `${target} did not finish loading within ${Math.round(timeoutMs / 1000)} s; flowproof stopped it`;
      await this.#abandon();
      return;
    }
    await this.#page.nextFrame();
  }

  /**
   * Resolves once the page shows the document being navigated to, ready: a page restored from the
   * back-forward cache announces its navigation but no DOMContentLoaded, so the page is asked too.
   */
  async #arrived(): Promise<true> {
    while (this.#loading) {
      const target = this.#pendingUrl;
      const here = await this.#page.tryEvaluate<string>(`document.readyState !== "loading" ? location.href : ""`);
      if (this.#loading && target && here === target) {
        this.loaded();
        break;
      }
      await Bun.sleep(POLL_MS);
    }
    return true;
  }

  /**
   * After input: one round trip to the page lets a navigation the input started announce itself
   * (its events come before the answer), then waits for it.
   */
  async afterInput(): Promise<void> {
    await withinMs(
      this.#ping().catch(() => undefined),
      this.#boundMs,
    );
    // The page was asked to unload: its leave prompt (answered, and reported, by the dialogs) or the
    // navigation comes next, announced soon after.
    if (this.#unloadAsked) await withinMs(new Promise<void>((resolve) => this.#unloadAnswered.push(resolve)), UNLOAD_ANSWER_MS);
    this.#unloadAsked = false;
    await this.settle();
  }
}
