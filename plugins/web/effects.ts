// What one action did in the page, observed for step effects (see docs/trace-format.md, "Effects"):
// CDP events for navigations, requests, dialogs and downloads; a page-side observer for the
// target's own state, focus and DOM changes. Only names leave the page (which state changed,
// whether the DOM changed near the target): never a value, a body or a query. What the app does
// on its own timers (task-origins.ts) is not the step's: DOM changes made by such work, and
// navigations it starts, are left out, and so is a same-document navigation that keeps the path.
import type { EffectKind, EffectReading, EffectWatch, ObservedEffect } from "../../src/plugins/api.ts";
import { effectPath, effectRequest, isWriteMethod } from "../../src/plugins/api.ts";
import type { Session } from "./cdp/connection.ts";
import { TASKS_KEY, type TaskOrigins } from "./task-origins.ts";

/** The binding the page observer reports the app's own navigations through (they can replace its document). */
export const BACKGROUND_NAVIGATION_BINDING = "__flowproofBackgroundNavigation";

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
export interface PageAnswer {
  readonly target: string[];
  readonly focus: boolean;
  /** The step's own DOM changes: near the target, elsewhere. */
  readonly near: boolean;
  readonly page: boolean;
  /** Every DOM change, the app's own work included. */
  readonly nearAll: boolean;
  readonly pageAll: boolean;
  /** ms since the last DOM change or input the page heard (or since the watch began). */
  readonly idle: number;
}

/** What the observer reports of a navigation the app started on its own: where to, and its last answer when the navigation replaces its document. */
export interface BackgroundNavigation {
  readonly url: string;
  readonly answer?: PageAnswer;
}

/**
 * The page-side observer, serialised into the page. Takes the action's target from the first
 * input event that reaches it (a label stands for its control), snapshots its states there, and
 * watches DOM mutations near it (within its third ancestor) and anywhere. It opens a new epoch of
 * the page's task tags: mutations made inside work tagged with an older epoch are dropped, and a
 * navigation such work starts is reported through the binding, not counted.
 */
function pageObserver(tasksKey: string, bindingName: string): unknown {
  const started = performance.now();
  const st = {
    target: null as Element | null,
    before: null as Record<string, string> | null,
    near: false,
    page: false,
    nearAll: false,
    pageAll: false,
    last: started,
  };
  const focusBefore = document.activeElement;
  const stateOf = (el: Element): Record<string, string> => {
    const s: Record<string, string> = {};
    const e = el as HTMLInputElement;
    if ("value" in e && typeof e.value === "string" && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT")) s["value"] = e.value;
    if ((el as HTMLElement).isContentEditable) s["value"] = el.textContent ?? "";
    if (el.tagName === "INPUT" && (e.type === "checkbox" || e.type === "radio")) s["checked"] = String(e.checked);
    const ac = el.getAttribute("aria-checked") ?? el.getAttribute("aria-pressed");
    if (ac !== null) s["checked"] = ac;
    if (el.tagName === "SELECT")
      s["selected"] = Array.from((el as HTMLSelectElement).selectedOptions)
        .map((o) => o.index)
        .join(",");
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
  // A target taken from a key gives way to the first element the keys edit (`beforeinput`): keys
  // that reached something else first (the page moved the focus; the step typed again) are not the step's target.
  let byKey = false;
  const pick = (ev: Event) => {
    if (st.target && !(byKey && ev.type === "beforeinput")) return;
    const first = ev.composedPath()[0];
    if (!(first instanceof Element)) return;
    const target = resolveTarget(first);
    byKey = ev.type === "keydown";
    if (target === st.target) return;
    st.target = target;
    st.before = stateOf(st.target);
  };
  const events = ["pointerdown", "mousedown", "keydown", "click", "beforeinput", "dragstart"];
  for (const t of events) window.addEventListener(t, pick, { capture: true });
  // The quiet that ends an effect is counted from the action's last input reaching the page, not
  // from the watch's start: what the page does within the window after a slow probe, or after the
  // last key of long typing (a debounced search), is the step's whatever the action took.
  const inputs = [
    "pointerdown",
    "pointerup",
    "mousedown",
    "mouseup",
    "click",
    "keydown",
    "keyup",
    "beforeinput",
    "input",
    "change",
    "dragstart",
    "drop",
    "dragend",
  ];
  const heard = () => {
    st.last = performance.now();
  };
  for (const t of inputs) window.addEventListener(t, heard, { capture: true, passive: true });
  const nearRoot = () => {
    let n: Element | null = st.target ?? (document.activeElement !== document.body ? document.activeElement : null);
    for (let i = 0; i < 3 && n?.parentElement && n.parentElement !== document.body && n.parentElement !== document.documentElement; i++) n = n.parentElement;
    return n;
  };
  /** Mutations the step made (`own`), or the app made on its own work: every one counts in the `…All` flags. */
  const counted = (records: MutationRecord[], own = true) => {
    if (records.length === 0) return;
    const root = nearRoot();
    for (const r of records) {
      const near = root !== null && root.contains(r.target);
      if (near) st.nearAll = true;
      else st.pageAll = true;
      if (own && near) st.near = true;
      else if (own) st.page = true;
    }
    st.last = performance.now();
  };
  const mo = new MutationObserver((records) => counted(records));
  mo.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  const tasks = (window as unknown as Record<string, TaskOrigins | undefined>)[tasksKey];
  const epoch = tasks ? ++tasks.epoch : 0;
  /** Work tagged before this step's epoch is the app's own. */
  const appsOwn = (origin: number | undefined) => origin !== undefined && origin < epoch;
  const around = (phase: "start" | "end", origin: number) => {
    // Changes made before the callback began belong to whatever ran then; changes it made itself
    // are the app's own when it was scheduled before the step.
    if (phase === "start") counted(mo.takeRecords());
    else if (appsOwn(origin)) counted(mo.takeRecords(), false);
  };
  if (tasks) tasks.around = around;
  const read = (): PageAnswer => {
    const changed: string[] = [];
    if (st.target && st.before) {
      const after = stateOf(st.target);
      for (const k of Object.keys(st.before)) if (st.before[k] !== after[k]) changed.push(k);
    }
    return {
      target: changed,
      focus: document.activeElement !== focusBefore,
      near: st.near,
      page: st.page,
      nearAll: st.nearAll,
      pageAll: st.pageAll,
      idle: performance.now() - st.last,
    };
  };
  const navigation = (globalThis as unknown as { navigation?: EventTarget }).navigation;
  const onNavigate = (ev: Event) => {
    if (!appsOwn(tasks?.current)) return;
    const destination = (ev as unknown as { destination?: { url?: unknown; sameDocument?: unknown } }).destination;
    const report = (window as unknown as Record<string, unknown>)[bindingName];
    if (typeof destination?.url !== "string" || typeof report !== "function") return;
    counted(mo.takeRecords());
    const payload: BackgroundNavigation = destination.sameDocument === true ? { url: destination.url } : { url: destination.url, answer: read() };
    (report as (payload: string) => void)(JSON.stringify(payload));
  };
  navigation?.addEventListener("navigate", onNavigate);
  return {
    read,
    stop(): void {
      mo.disconnect();
      for (const t of events) window.removeEventListener(t, pick, { capture: true });
      for (const t of inputs) window.removeEventListener(t, heard, { capture: true });
      navigation?.removeEventListener("navigate", onNavigate);
      if (tasks && tasks.around === around) tasks.around = undefined;
    },
  };
}

/** The page-side observer's source, a function of the task tags' key and the binding's name: the BiDi driver calls it its own way. */
export const PAGE_OBSERVER_SOURCE = pageObserver.toString();

const PAGE_OBSERVER = `(${PAGE_OBSERVER_SOURCE})(${JSON.stringify(TASKS_KEY)}, ${JSON.stringify(BACKGROUND_NAVIGATION_BINDING)})`;

/** A main-frame navigation seen during a watch: where to, whether it kept the document, and the path it left. */
interface SeenNavigation {
  readonly url: string;
  readonly sameDocument: boolean;
  readonly fromPath: string | undefined;
}

/** One action's observation. */
class Watch implements EffectWatch {
  readonly kinds = WEB_EFFECT_KINDS;
  readonly navigations: SeenNavigation[] = [];
  /** URLs of navigations the app started on its own work (reported by the page observer). */
  readonly appsOwn = new Set<string>();
  /** The observer's last answer, when the app's own navigation replaced its document. */
  lastAnswer: PageAnswer | undefined;
  readonly requests: string[] = [];
  readonly inFlight = new Set<string>();
  dialog: string | undefined;
  loading = false;
  last = performance.now();
  readonly #sources: EffectSources;
  readonly #downloadsBefore: number;
  readonly #observer: Promise<string | undefined>;
  /** The observer's answer read as the round trip after the action's input (see WebEffects.readAfterInput), for the first read. */
  #early: { readonly answer: PageAnswer | undefined; readonly navigations: number } | undefined;
  /** The observer once installed (the action's input waits for the install). */
  #observerId: string | undefined;
  /**
   * Whether the observer's install has answered. The action's input and page commands come after
   * it, so a navigation or request seen before it was the page's own (an app's timer firing while
   * the install waited its turn), never the step's: those are left out, as on Firefox.
   */
  started = false;
  readonly #done: (observer: Promise<string | undefined>) => void;

  constructor(sources: EffectSources, observer: Promise<string | undefined>, done: (observer: Promise<string | undefined>) => void) {
    this.#sources = sources;
    this.#downloadsBefore = sources.downloadsBegun();
    this.#observer = observer;
    void observer.then((id) => {
      this.#observerId = id;
      this.started = true;
    });
    this.#done = done;
  }

  touch(): void {
    this.last = performance.now();
  }

  /**
   * The navigation that is the step's: the last one not started by the app's own work and not a
   * same-document change that kept the path (a fragment or query, which no effect records).
   */
  navigated(withAppsOwn = false): string | undefined {
    const own = this.navigations.filter((n) => (withAppsOwn || !this.appsOwn.has(n.url)) && !(n.sameDocument && effectPath(n.url) === n.fromPath));
    const last = own.at(-1);
    return last === undefined ? undefined : effectPath(last.url);
  }

  /**
   * Reads the page observer as the round trip that follows the action's input, keeping the answer
   * for the first read(); undefined when the observer is not installed (yet).
   */
  readAfterInput(): Promise<unknown> | undefined {
    const observer = this.#observerId;
    if (observer === undefined) return undefined;
    const navigations = this.navigations.length;
    return this.#readPage(observer).then((answer) => {
      this.#early = { answer, navigations };
    });
  }

  #readPage(observer: string): Promise<PageAnswer | undefined> {
    return this.#sources.session
      .send("Runtime.callFunctionOn", { objectId: observer, functionDeclaration: "function () { return this.read(); }", returnByValue: true })
      .then(
        (r) => r.result.value as PageAnswer | undefined,
        () => undefined,
      );
  }

  async read(): Promise<EffectReading> {
    const observer = await this.#observer;
    const replacing = this.navigations.filter((n) => !n.sameDocument);
    // The answer read right after the input serves once, while no navigation came since. Its
    // idle time counts as none: whether the page has gone quiet is always read afresh.
    const early = this.#early;
    this.#early = undefined;
    const page =
      observer === undefined || replacing.length > 0
        ? undefined
        : early?.answer !== undefined && early.navigations === this.navigations.length
          ? { ...early.answer, idle: 0 }
          : await this.#readPage(observer);
    const navigated = this.navigated();
    // A new document replaced the observer's. When the step did it, the navigation is the effect
    // and the old page's state is gone; when the app did it on its own, the step's changes until
    // then are what the observer last answered.
    const appsOwnReplaced = replacing.length > 0 && replacing.every((n) => this.appsOwn.has(n.url));
    const onPage = page ?? (appsOwnReplaced ? this.lastAnswer : undefined);
    const download = this.#sources.downloadsBegun() > this.#downloadsBefore;
    const common: ObservedEffect = {
      ...(this.requests.length > 0 ? { requests: [...this.requests] } : {}),
      ...(this.dialog !== undefined ? { dialog: this.dialog } : {}),
      ...(download ? { download: true } : {}),
      ...(onPage && onPage.target.length > 0 ? { target: onPage.target } : {}),
      ...(onPage?.focus ? { focus: true } : {}),
    };
    const effect: ObservedEffect = {
      ...(navigated !== undefined ? { navigated } : {}),
      ...common,
      ...(onPage?.near ? { dom: "near" as const } : onPage?.page ? { dom: "page" as const } : {}),
    };
    // The step's own navigation when it made one, else the last of the app's own: a timer that
    // moves the app elsewhere after the step navigated never hides where the step went.
    const all = navigated ?? this.navigated(true);
    const withAppsOwn: ObservedEffect = {
      ...(all !== undefined ? { navigated: all } : {}),
      ...common,
      ...(onPage?.nearAll ? { dom: "near" as const } : onPage?.pageAll ? { dom: "page" as const } : {}),
    };
    const busy = this.inFlight.size > 0 || this.loading;
    const idle = busy ? 0 : Math.min(performance.now() - this.last, page?.idle ?? Number.POSITIVE_INFINITY);
    return { effect, withAppsOwn, idleMs: Math.max(0, idle) };
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
  void session
    .send("Runtime.callFunctionOn", { objectId: observer, functionDeclaration: "function () { this.stop(); }", returnByValue: true })
    .catch(() => undefined);
  void session.send("Runtime.releaseObject", { objectId: observer }).catch(() => undefined);
}

/** A page's effect observation: events subscribed once, routed to the watch open now. */
export class WebEffects {
  readonly #sources: EffectSources;
  #current: Watch | undefined;
  #enabled: Promise<void> | undefined;
  /** The main frame's URL now, kept from its navigations (the path a same-document navigation leaves). */
  #url: string | undefined;
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
        if (!w?.started || !/^https?:/.test(p.request.url)) return;
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
        if (p.frame.parentId !== undefined) return;
        this.#navigated(p.frame.url + (p.frame.urlFragment ?? ""), false);
      }),
      s.on("Page.navigatedWithinDocument", (p) => {
        if (!main(p.frameId)) return;
        this.#navigated(p.url, true);
      }),
      s.on("Runtime.bindingCalled", (p) => {
        const w = this.#current;
        if (p.name !== BACKGROUND_NAVIGATION_BINDING || !w) return;
        let reported: BackgroundNavigation;
        try {
          reported = JSON.parse(p.payload) as BackgroundNavigation;
        } catch {
          return; // not the observer's: the page called the binding itself; nothing to attribute
        }
        if (typeof reported.url !== "string") return;
        w.appsOwn.add(reported.url);
        if (reported.answer) w.lastAnswer = reported.answer;
      }),
      s.on("Page.javascriptDialogOpening", (p) => {
        if (!this.#current) return;
        this.#current.dialog ??= p.type;
        this.#current.touch();
      }),
    );
    // Request events only; no response bodies are kept.
    const [tree] = await Promise.all([
      s.send("Page.getFrameTree"),
      s.send("Network.enable", { maxTotalBufferSize: 0, maxResourceBufferSize: 0 }),
      s.send("Runtime.addBinding", { name: BACKGROUND_NAVIGATION_BINDING }),
    ]);
    this.#url ??= tree.frameTree.frame.url;
  }

  #navigated(url: string, sameDocument: boolean): void {
    const fromPath = this.#url === undefined ? undefined : effectPath(this.#url);
    this.#url = url;
    const w = this.#current;
    if (!w?.started) return;
    w.navigations.push({ url, sameDocument, fromPath });
    w.touch();
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
    const page = this.#sources.session.send("Runtime.evaluate", { expression: PAGE_OBSERVER, returnByValue: false }).then(
      (r) => (r.exceptionDetails ? undefined : r.result.objectId),
      () => undefined,
    );
    this.#sources.session.holdInputUntil(page);
    const watch: Watch = new Watch(this.#sources, page, (observer) => {
      if (this.#current === watch) this.#current = undefined;
      this.#ended.push(observer);
    });
    this.#current = watch;
    return watch;
  }

  /** The round trip after an action's input, as a read of the open watch's observer; undefined when none can be read. */
  readAfterInput(): Promise<unknown> | undefined {
    return this.#current?.readAfterInput();
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
