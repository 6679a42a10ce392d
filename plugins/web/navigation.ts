// A page's documents: opening and reloading one, the navigation an action started (waited for
// after the input, bounded, named when it stalls), the first rendering update of a new document,
// and the session seeding the first navigation brings.
import type { Attempt } from "../../src/plugins/api.ts";
import type { Connection, Session } from "./cdp/connection.ts";
import type { WebConfig } from "./config.ts";
import { seedSession } from "./page-setup.ts";
import { fail, noHistoryEntry, ok, serverError } from "./page-calls.ts";

/**
 * How long an action waits for a navigation it started to reach DOMContentLoaded, until the run
 * names its own bound: the bound of the flow's first navigation (its start page) from then on.
 */
const NAVIGATION_SETTLE_MS = 30_000;
/** How long a page whose navigation stalled gets to answer once more before the step reports it. */
const STALLED_ANSWER_MS = 2_000;
/** After a navigation's DOM is ready, how long its subresources may take before the flow goes on without them. */
const LOAD_GRACE_MS = 3_000;
/** How often going back or forward looks whether the page arrived. */
const HISTORY_POLL_MS = 25;

/** Why a navigation past its bound failed: no answer, headers only, a body that stalled or redirects without end alike. */
const DOCUMENT_NEVER_DELIVERED = "the server never delivered the whole document";

/** `p`'s value, or undefined once `ms` passed first. */
const withinMs = (p: Promise<unknown>, ms: number): Promise<unknown> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p,
    new Promise((r) => {
      timer = setTimeout(r, ms);
    }),
  ]).finally(() => clearTimeout(timer));
};

interface DocumentWaits {
  readonly ready: Promise<unknown>;
  readonly loaded: Promise<unknown>;
}

export class Navigation {
  readonly #connection: Connection;
  readonly #session: Session;
  readonly #contextId: string;
  readonly #config: WebConfig;
  /** The main frame's id, known once the page is set up. */
  mainFrameId = "";
  #loading = false;
  /** The URL the main frame was last asked to navigate to (cleared once a document is ready). */
  #pendingUrl: string | undefined;
  /** A navigation that did not settle within its bound: the step that started or met it fails, naming it. */
  #stalled: string | undefined;
  #loadWaiters: Array<() => void> = [];
  /** Session seeding waits for the first navigation (it needs the start URL); done once. */
  #seeded = false;
  /** The bound of a navigation an action starts: the one the run gave its last navigation. */
  #boundMs = NAVIGATION_SETTLE_MS;
  /**
   * A page read that can stand as the round trip after input (the open step-effect watch's read,
   * which the step needs next anyway); undefined when there is none, and "0" is evaluated instead.
   */
  roundTripAfterInput: () => Promise<unknown> | undefined = () => undefined;

  constructor(connection: Connection, session: Session, contextId: string, config: WebConfig) {
    this.#connection = connection;
    this.#session = session;
    this.#contextId = contextId;
    this.#config = config;
  }

  /** Follows the main frame's loading; returns the unsubscribers. */
  listen(): Array<() => void> {
    const s = this.#session;
    return [
      s.on("Page.frameStartedLoading", (p) => {
        if (p.frameId === this.mainFrameId) this.#loading = true;
      }),
      // Requested before it starts loading: an action that started it waits for it from here on.
      s.on("Page.frameRequestedNavigation", (p) => {
        if (p.frameId !== this.mainFrameId || p.disposition !== "currentTab") return;
        this.#pendingUrl = p.url;
        this.#loading = true;
      }),
      s.on("Page.domContentEventFired", () => this.loaded()),
      s.on("Page.frameStoppedLoading", (p) => {
        if (p.frameId === this.mainFrameId) this.loaded();
      }),
      // A browser that went away ends every wait for a load at once (the next command says why).
      this.#connection.onClose(() => this.loaded()),
    ];
  }

  /** The pending navigation is over (its document is ready, it was cancelled, or the page failed): every wait for it ends. */
  loaded(): void {
    this.#loading = false;
    this.#pendingUrl = undefined;
    const waiters = this.#loadWaiters;
    this.#loadWaiters = [];
    for (const w of waiters) w();
  }

  /** A beforeunload dialog answered "stay": the navigation that raised it will not happen. */
  cancelled(): void {
    if (this.#pendingUrl !== undefined) this.loaded();
  }

  /** The navigation that stalled since last asked (the step fails on it), once. */
  takeStalled(): string | undefined {
    const stalled = this.#stalled;
    this.#stalled = undefined;
    return stalled;
  }

  async navigate(url: string, timeoutMs: number): Promise<Attempt> {
    let seedScript: string | undefined;
    if (!this.#seeded) {
      this.#seeded = true;
      try {
        seedScript = await seedSession(this.#connection, this.#session, this.#contextId, this.#config, url);
      } catch (error) {
        // The CDP message names the field, never a cookie's value.
        return fail("not-found", `could not seed the flow's session for ${url}: ${error instanceof Error ? error.message : String(error)}`, false);
      }
    }
    try {
      this.#boundMs = timeoutMs;
      const started = performance.now();
      const waits = this.#documentWaits(timeoutMs);
      // Page.navigate answers only once the server's response commits: a server that never
      // answers (or redirects without end) would hold it forever. The bound covers it too.
      const sent = this.#session.send("Page.navigate", { url });
      const res = await withinMs(sent, timeoutMs);
      if (res === undefined) {
        sent.catch(() => undefined);
        await this.#abandon();
        return fail("attached", `${url} did not finish loading within ${timeoutMs} ms: ${DOCUMENT_NEVER_DELIVERED}`, false);
      }
      const answer = res as Awaited<typeof sent>;
      if (answer.errorText) return fail("not-found", `could not open ${url}: ${answer.errorText}`, false);
      if (answer.loaderId) {
        const late = await this.#documentSettled(waits, started, timeoutMs);
        if (late) {
          await this.#abandon();
          return fail("attached", `${url} ${late}`, false);
        }
      }
      this.loaded();
      await this.firstFrame();
      // A server error page is never the app: name the status instead of failing later steps on it.
      const status = answer.loaderId ? await this.#documentStatus() : 0;
      if (status >= 500) return serverError(url, status);
      return ok(undefined);
    } finally {
      // The localStorage seed belongs to the first document only.
      if (seedScript !== undefined)
        await withinMs(
          this.#session.send("Page.removeScriptToEvaluateOnNewDocument", { identifier: seedScript }).catch(() => undefined),
          STALLED_ANSWER_MS,
        );
    }
  }

  /** A navigation past its bound is stopped (bounded: a page stuck between documents may not answer), and no wait goes on for it. */
  async #abandon(): Promise<void> {
    this.loaded();
    await withinMs(
      this.#session.send("Page.stopLoading").catch(() => undefined),
      STALLED_ANSWER_MS,
    );
  }

  async reload(timeoutMs: number): Promise<Attempt> {
    this.#boundMs = timeoutMs;
    const started = performance.now();
    const waits = this.#documentWaits(timeoutMs);
    await withinMs(
      this.#session.send("Page.reload", {}).catch((error: unknown) => {
        if (this.#session.failure || this.#connection.lost) throw error;
      }),
      timeoutMs,
    );
    const late = await this.#documentSettled(waits, started, timeoutMs);
    if (late) {
      await this.#abandon();
      return fail("attached", `the page ${late.replace("did not finish loading", "did not finish reloading")}`, false);
    }
    this.loaded();
    await this.firstFrame();
    return ok(undefined);
  }

  /**
   * One entry back or forward through the page's history, then waits (bounded by `timeoutMs`) until
   * the page shows that entry's URL with its DOM ready: a new document, one restored from the
   * back-forward cache, or the same document (a pushState or hash entry) alike. The blank page a
   * flow's tab opens on is not a page to go back to.
   */
  async history(direction: "back" | "forward", timeoutMs: number): Promise<Attempt> {
    const { currentIndex, entries } = await this.#session.send("Page.getNavigationHistory");
    const target = entries[currentIndex + (direction === "back" ? -1 : 1)];
    if (!target || target.url === "about:blank") return noHistoryEntry(direction);
    const started = performance.now();
    await this.#session.send("Page.navigateToHistoryEntry", { entryId: target.id });
    for (;;) {
      const res = await this.#session
        .send("Runtime.evaluate", { expression: "[location.href, document.readyState]", returnByValue: true })
        .catch(() => undefined); // the document is being replaced: ask again
      const [href, state] = (res?.result.value as [string, string] | undefined) ?? ["", "loading"];
      if (href === target.url && state !== "loading") break;
      if (performance.now() - started > timeoutMs) {
        this.loaded();
        return fail(
          "attached",
          `going ${direction} to ${target.url} did not finish loading within ${Math.round(timeoutMs / 1000)} s (the page is at ${href || "no document"})`,
          false,
        );
      }
      await new Promise((r) => setTimeout(r, HISTORY_POLL_MS));
    }
    // A document restored from the back-forward cache fires no load events: the navigation is over.
    this.loaded();
    await this.firstFrame();
    return ok(undefined);
  }

  /** The events a navigation is waited on by, subscribed before it starts so none is missed. */
  #documentWaits(timeoutMs: number): DocumentWaits {
    const ready = this.#session.waitFor("Page.domContentEventFired", timeoutMs);
    const loaded = this.#session.waitFor("Page.loadEventFired", timeoutMs);
    ready.catch(() => undefined);
    loaded.catch(() => undefined);
    return { ready, loaded };
  }

  /**
   * Waits for a new document: its DOM must be ready within `timeoutMs`; its subresources (images,
   * fonts) get LOAD_GRACE_MS more, and one that never finishes does not hold the flow (steps wait for
   * what they need). Returns why the document is late, or undefined once it is usable. A page that
   * crashed or a browser that went away throws.
   */
  async #documentSettled(waits: DocumentWaits, started: number, timeoutMs: number): Promise<string | undefined> {
    try {
      await waits.ready;
    } catch (error) {
      if (this.#session.failure || this.#connection.lost) throw error;
      return `did not finish loading within ${timeoutMs} ms: ${DOCUMENT_NEVER_DELIVERED}`;
    }
    const grace = Math.max(0, Math.min(LOAD_GRACE_MS, timeoutMs - (performance.now() - started)));
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      waits.loaded.then(
        () => undefined,
        () => undefined,
      ),
      new Promise<void>((r) => (timer = setTimeout(r, grace))),
    ]);
    clearTimeout(timer);
    return undefined;
  }

  /** The HTTP status the current document was served with (0 when unknown: file:, data:, about:). */
  async #documentStatus(): Promise<number> {
    const res = await this.#session
      .send("Runtime.evaluate", { expression: `(performance.getEntriesByType("navigation")[0] || {}).responseStatus || 0`, returnByValue: true })
      .catch(() => undefined);
    const status = res?.result.value;
    return typeof status === "number" ? status : 0;
  }

  /** Waits for a navigation in flight to reach DOMContentLoaded, then for its first frame. */
  async settle(timeoutMs = this.#boundMs): Promise<void> {
    if (!this.#loading) return;
    const settled = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.#loadWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!settled) return this.#stall(timeoutMs);
    await this.firstFrame();
  }

  /** Never a silent pass: the step fails, naming the navigation that did not settle; the page stops waiting for it. */
  async #stall(timeoutMs: number): Promise<void> {
    const target = this.#pendingUrl !== undefined ? `the navigation to ${this.#pendingUrl}` : "a navigation of the page";
    this.#stalled ??= `${target} did not finish loading within ${Math.round(timeoutMs / 1000)} s; flowproof stopped it`;
    this.loaded();
    // A page stuck between documents may answer neither: bounded, so the step ends with its failure.
    await withinMs(
      this.#session.send("Page.stopLoading").catch(() => undefined),
      STALLED_ANSWER_MS,
    );
    await withinMs(this.firstFrame(), STALLED_ANSWER_MS);
  }

  /**
   * Waits for one rendering update of a freshly loaded document: autofocus and other work the
   * browser defers to the first frame has happened, so the next keystroke lands where a user's would.
   */
  async firstFrame(): Promise<void> {
    await this.#session
      .send("Runtime.evaluate", { expression: "new Promise((r) => requestAnimationFrame(() => r(0)))", awaitPromise: true, returnByValue: true })
      .catch(() => undefined); // the document may already be navigating away; the next probe waits for it
  }

  /** After input: one round trip lets a navigation the input started announce itself, then wait for it. */
  async afterInput(): Promise<void> {
    // A page waiting for a navigation's first response may not answer at all: bounded like the navigation.
    const roundTrip = this.roundTripAfterInput() ?? this.#session.send("Runtime.evaluate", { expression: "0", returnByValue: true });
    const answered = await withinMs(
      roundTrip.then(
        () => true,
        () => true,
      ),
      this.#boundMs,
    );
    if (answered !== true && this.#loading) return this.#stall(this.#boundMs);
    await this.settle();
  }
}
