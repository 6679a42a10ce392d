// What one action did in the page, observed for step effects (see docs/trace-format.md, "Effects"):
// CDP events for navigations, requests, dialogs and downloads; a page-side observer for the
// target's own state, focus and DOM changes. Only names leave the page (which state changed,
// whether the DOM changed near the target): never a value, a body or a query.
import type { EffectKind, EffectReading, EffectWatch, ObservedEffect } from "../../src/plugins/api.ts";
import { effectPath, effectRequest, isWriteMethod } from "../../src/plugins/api.ts";
import type { Session } from "./cdp/connection.ts";

/** Every kind the web surface observes. */
export const WEB_EFFECT_KINDS: readonly EffectKind[] = ["navigation", "request", "dialog", "download", "target", "focus", "dom"];

/** Request types whose writes count: documents (form posts) and script requests. Pings, reports and preflights never do. */
const WRITE_TYPES = new Set(["Document", "XHR", "Fetch", "Other"]);
/** GETs count only from script (a page's images and styles are not an action's effect). */
const READ_TYPES = new Set(["XHR", "Fetch"]);

/** Where a watch's events come from. */
export interface EffectSources {
  readonly session: Session;
  /** The page's main frame id now. */
  readonly mainFrame: () => string;
  /** How many downloads the page began so far. */
  readonly downloadsBegun: () => number;
}

/** What the page-side observer answers: only names and flags. */
interface PageAnswer {
  readonly target: string[];
  readonly focus: boolean;
  readonly near: boolean;
  readonly page: boolean;
  /** ms since the last DOM change (or since the watch began). */
  readonly idle: number;
}

/**
 * The page-side observer, serialised into the page. Takes the action's target from the first
 * input event that reaches it (a label stands for its control), snapshots its states there, and
 * watches DOM mutations near it (within its third ancestor) and anywhere.
 */
function pageObserver(): unknown {
  const started = performance.now();
  const st: { target: Element | null; before: Record<string, string> | null; near: boolean; page: boolean; last: number } = { target: null, before: null, near: false, page: false, last: started };
  const focusBefore = document.activeElement;
  const stateOf = (el: Element): Record<string, string> => {
    const s: Record<string, string> = {};
    const e = el as HTMLInputElement;
    if ("value" in e && typeof e.value === "string" && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT")) s["value"] = e.value;
    if ((el as HTMLElement).isContentEditable) s["value"] = el.textContent ?? "";
    if (el.tagName === "INPUT" && (e.type === "checkbox" || e.type === "radio")) s["checked"] = String(e.checked);
    const ac = el.getAttribute("aria-checked") ?? el.getAttribute("aria-pressed");
    if (ac !== null) s["checked"] = ac;
    if (el.tagName === "SELECT") s["selected"] = Array.from((el as HTMLSelectElement).selectedOptions).map((o) => o.index).join(",");
    const sel = el.getAttribute("aria-selected");
    if (sel !== null) s["selected"] = sel;
    const ex = el.getAttribute("aria-expanded");
    if (ex !== null) s["expanded"] = ex;
    if (el.tagName === "DETAILS" || el.tagName === "DIALOG") s["open"] = String(el.hasAttribute("open"));
    return s;
  };
  const resolveTarget = (el: Element): Element => {
    if (el.tagName === "LABEL" && (el as HTMLLabelElement).control) return (el as HTMLLabelElement).control!;
    const summary = el.closest("summary");
    if (summary && summary.parentElement?.tagName === "DETAILS") return summary.parentElement;
    return el.closest("input,textarea,select,button,a,[role],[contenteditable],label") ?? el;
  };
  const pick = (ev: Event) => {
    if (st.target) return;
    const first = ev.composedPath()[0];
    if (!(first instanceof Element)) return;
    st.target = resolveTarget(first);
    st.before = stateOf(st.target);
  };
  const events = ["pointerdown", "mousedown", "keydown", "click", "beforeinput", "dragstart"];
  for (const t of events) window.addEventListener(t, pick, { capture: true });
  const nearRoot = () => {
    let n: Element | null = st.target ?? (document.activeElement !== document.body ? document.activeElement : null);
    for (let i = 0; i < 3 && n?.parentElement && n.parentElement !== document.body && n.parentElement !== document.documentElement; i++) n = n.parentElement;
    return n;
  };
  const mo = new MutationObserver((records) => {
    const root = nearRoot();
    for (const r of records) {
      if (root && root.contains(r.target)) st.near = true;
      else st.page = true;
    }
    st.last = performance.now();
  });
  mo.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  return {
    read(): PageAnswer {
      const changed: string[] = [];
      if (st.target && st.before) {
        const after = stateOf(st.target);
        for (const k of Object.keys(st.before)) if (st.before[k] !== after[k]) changed.push(k);
      }
      return { target: changed, focus: document.activeElement !== focusBefore, near: st.near, page: st.page, idle: performance.now() - st.last };
    },
    stop(): void {
      mo.disconnect();
      for (const t of events) window.removeEventListener(t, pick, { capture: true });
    },
  };
}

const PAGE_OBSERVER = `(${pageObserver.toString()})()`;

/** One action's observation. */
class Watch implements EffectWatch {
  readonly kinds = WEB_EFFECT_KINDS;
  navigated: string | undefined;
  readonly requests: string[] = [];
  readonly inFlight = new Set<string>();
  dialog: string | undefined;
  loading = false;
  last = performance.now();
  readonly #sources: EffectSources;
  readonly #downloadsBefore: number;
  readonly #observer: Promise<string | undefined>;
  readonly #done: (observer: Promise<string | undefined>) => void;

  constructor(sources: EffectSources, observer: Promise<string | undefined>, done: (observer: Promise<string | undefined>) => void) {
    this.#sources = sources;
    this.#downloadsBefore = sources.downloadsBegun();
    this.#observer = observer;
    this.#done = done;
  }

  touch(): void {
    this.last = performance.now();
  }

  async read(): Promise<EffectReading> {
    const observer = await this.#observer;
    const page = observer === undefined ? undefined : await this.#sources.session
      .send("Runtime.callFunctionOn", { objectId: observer, functionDeclaration: "function () { return this.read(); }", returnByValue: true })
      .then((r) => r.result.value as PageAnswer | undefined, () => undefined);
    // A new document replaced the observer's: the navigation is the effect, the old page's state is gone.
    const onPage = page !== undefined && this.navigated === undefined ? page : undefined;
    const download = this.#sources.downloadsBegun() > this.#downloadsBefore;
    const effect: ObservedEffect = {
      ...(this.navigated !== undefined ? { navigated: this.navigated } : {}),
      ...(this.requests.length > 0 ? { requests: [...this.requests] } : {}),
      ...(this.dialog !== undefined ? { dialog: this.dialog } : {}),
      ...(download ? { download: true } : {}),
      ...(onPage && onPage.target.length > 0 ? { target: onPage.target } : {}),
      ...(onPage?.focus ? { focus: true } : {}),
      ...(onPage?.near ? { dom: "near" as const } : onPage?.page ? { dom: "page" as const } : {}),
    };
    const busy = this.inFlight.size > 0 || this.loading;
    const idle = busy ? 0 : Math.min(performance.now() - this.last, page?.idle ?? Number.POSITIVE_INFINITY);
    return { effect, idleMs: Math.max(0, idle) };
  }

  async stop(): Promise<void> {
    this.#done(this.#observer);
  }
}

/**
 * Stops a page-side observer and releases it, without waiting for either answer: the commands
 * reach the page ahead of anything sent after them, and a page already gone has nothing to stop.
 */
function release(session: Session, observer: string | undefined): void {
  if (observer === undefined) return;
  void session.send("Runtime.callFunctionOn", { objectId: observer, functionDeclaration: "function () { this.stop(); }", returnByValue: true }).catch(() => undefined);
  void session.send("Runtime.releaseObject", { objectId: observer }).catch(() => undefined);
}

/** A page's effect observation: events subscribed once, routed to the watch open now. */
export class WebEffects {
  readonly #sources: EffectSources;
  #current: Watch | undefined;
  #enabled: Promise<void> | undefined;
  readonly #offs: Array<() => void> = [];
  /** Observers of ended watches, stopped and released with the next install (or on dispose). */
  readonly #ended: Array<Promise<string | undefined>> = [];

  constructor(sources: EffectSources) {
    this.#sources = sources;
  }

  async #enable(): Promise<void> {
    const s = this.#sources.session;
    const main = (frameId: string | undefined) => frameId === this.#sources.mainFrame();
    this.#offs.push(
      s.on("Network.requestWillBeSent", (p) => {
        const w = this.#current;
        if (!w || !/^https?:/.test(p.request.url)) return;
        const type = p.type ?? "Other";
        const method = p.request.method.toUpperCase();
        const write = isWriteMethod(method);
        // A redirect's next hop is the same request: only its first hop is the action's.
        if (p.redirectResponse) return;
        if (write ? !WRITE_TYPES.has(type) : !READ_TYPES.has(type)) return;
        const r = effectRequest(method, p.request.url);
        if (!w.requests.includes(r)) w.requests.push(r);
        w.inFlight.add(p.requestId);
        w.touch();
      }),
      s.on("Network.loadingFinished", (p) => this.#settled(p.requestId)),
      s.on("Network.loadingFailed", (p) => this.#settled(p.requestId)),
      s.on("Page.frameStartedLoading", (p) => {
        if (!main(p.frameId) || !this.#current) return;
        this.#current.loading = true;
        this.#current.touch();
      }),
      s.on("Page.frameStoppedLoading", (p) => {
        if (!main(p.frameId) || !this.#current) return;
        this.#current.loading = false;
        this.#current.touch();
      }),
      s.on("Page.frameNavigated", (p) => {
        if (p.frame.parentId !== undefined || !this.#current) return;
        this.#current.navigated = effectPath(p.frame.url);
        this.#current.touch();
      }),
      s.on("Page.navigatedWithinDocument", (p) => {
        if (!main(p.frameId) || !this.#current) return;
        this.#current.navigated = effectPath(p.url);
        this.#current.touch();
      }),
      s.on("Page.javascriptDialogOpening", (p) => {
        if (!this.#current) return;
        this.#current.dialog ??= p.type;
        this.#current.touch();
      }),
    );
    // Request events only; no response bodies are kept.
    await s.send("Network.enable", { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
  }

  #settled(requestId: string): void {
    const w = this.#current;
    if (w?.inFlight.delete(requestId)) w.touch();
  }

  /** Starts observing the next action; undefined when the page cannot be observed. */
  async watch(): Promise<EffectWatch | undefined> {
    this.#enabled ??= this.#enable();
    try {
      await this.#enabled;
    } catch {
      this.#enabled = undefined;
      return undefined;
    }
    // The previous watch's observer is stopped in the same batch as this one is installed: an
    // ended watch costs the step no wait of its own.
    this.#releaseEnded();
    // Not waited for here: the action's own page commands queue behind the install, and its
    // trusted input is held until the observer is in place.
    const page = this.#sources.session
      .send("Runtime.evaluate", { expression: PAGE_OBSERVER, returnByValue: false })
      .then((r) => (r.exceptionDetails ? undefined : r.result.objectId), () => undefined);
    this.#sources.session.holdInputUntil(page);
    const watch: Watch = new Watch(this.#sources, page, (observer) => {
      if (this.#current === watch) this.#current = undefined;
      this.#ended.push(observer);
    });
    this.#current = watch;
    return watch;
  }

  #releaseEnded(): void {
    // An install still unanswered (its action failed before any read) is released once it answers.
    for (const observer of this.#ended.splice(0)) void observer.then((o) => release(this.#sources.session, o));
  }

  dispose(): void {
    this.#releaseEnded();
    for (const off of this.#offs.splice(0)) off();
    this.#current = undefined;
  }
}
