// The web AppDriver: one page in its own browser context, driven over CDP. Every method is one
// attempt (the engine polls); probes are one round trip through the injected page API; input is
// trusted (Input.dispatchMouseEvent / dispatchKeyEvent).
import type { AppDriver, Attempt, DebugSnapshot, SceneInventory, Capability, DialogOutcome, DialogPlan, DownloadState, Expectation, KeyModifier, PointerOptions, RawFrame, Reading, RectTarget, RectsAnswer, ScrollTo, Selector, TypeOptions } from "../../src/plugins/api.ts";
import type { Connection, Session } from "./cdp/connection.ts";
import type { Protocol } from "devtools-protocol/types/protocol";
import { installPageApi, type PageApi, type ProbeAnswer, type ProbeFailure, type Rung, type SelectAnswer, type ValueAnswer, type CheckAnswer } from "./injected/page-api.ts";
import { keyDefinition, modifierMask, MODIFIER_KEYS } from "./keys.ts";
import { CaptureGate, pageRects, untilContextClosed } from "./capture.ts";
import { MARK_SECRET_FIELD } from "./redaction-rects.ts";
import { installScopes, type ScopeAnswer, type ScopeMethods } from "./injected/scopes.ts";
import { installReadings } from "./injected/readings.ts";
import { readScene } from "./injected/scene.ts";
import { ConsoleLog, debugSnapshot } from "./debug.ts";
import { readPageCookie } from "./cookies.ts";
import { createDownloads, type Downloads } from "./downloads.ts";
import type { WebConfig } from "./config.ts";
import { applyShaping, seedSession, viewportOf } from "./page-setup.ts";

const INSTALLER = `(${installPageApi.toString()})(${installScopes.toString()}, ${installReadings.toString()})`;
const CAPABILITIES: ReadonlySet<Capability> = new Set<Capability>(["pointer", "keyboard", "navigation", "select", "dialogs", "cookies", "screenshot"]);
/** How long an action waits for a navigation it started to reach DOMContentLoaded. */
const NAVIGATION_SETTLE_MS = 30_000;
/** How long a page whose navigation stalled gets to answer once more before the step reports it. */
const STALLED_ANSWER_MS = 2_000;
const withinMs = (p: Promise<unknown>, ms: number): Promise<unknown> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([p, new Promise((r) => { timer = setTimeout(r, ms); })]).finally(() => clearTimeout(timer));
};
/** Most trusted clicks one Select attempt makes on an ARIA combobox (open, option, and a reopen). */
const SELECT_MOVES = 4;
/** Intermediate pointer moves of a drag: sortable libraries react to motion, not to a jump. */
const DRAG_STEPS = 10;
/** Time between native drag events: at least a few frames, as a hand's motion gives a drop zone. */
const DRAG_EVENT_GAP_MS = 50;
/** This many dialogs within DIALOG_STORM_WINDOW_MS is a page that opens dialogs without end. */
const DIALOG_STORM_COUNT = 20;
const DIALOG_STORM_WINDOW_MS = 2_000;
/** How much of a dialog's message a fault names (the page may show anything there). */
const DIALOG_MESSAGE_CHARS = 60;
/** After a navigation's DOM is ready, how long its subresources may take before the flow goes on without them. */
const LOAD_GRACE_MS = 3_000;
const STATUS_TEXT: Readonly<Record<number, string>> = { 500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout" };
/** Browser connections already reporting target crashes (Target.setDiscoverTargets is per connection). */
const discovering = new WeakSet<Connection>();

const TRANSIENT = /Execution context was destroyed|Cannot find default execution context|Cannot find context with specified id|Inspected target navigated or closed|uniqueContextId not found/;

type ApiMethod = keyof PageApi | keyof ScopeMethods;

const ok = <T>(value: T, tier?: string): Attempt<T> => (tier ? { ok: true, value, tier } : { ok: true, value });
type Failed = Extract<Attempt, { ok: false }>["failed"];
const fail = (failed: Failed | ProbeFailure, detail: string, retryable = true): Attempt<never> => ({ ok: false, failed, detail, retryable });

export class WebDriver implements AppDriver {
  readonly capabilities = CAPABILITIES;
  readonly #connection: Connection;
  readonly #session: Session;
  readonly #contextId: string;
  /** A secret was typed into a field that could not be marked: no frame can be masked safely. */
  #secretUntracked = false;
  #mainFrameId = "";
  /** Frames attached below the main frame (iframes), by id. */
  readonly #childFrames = new Set<string>();
  /** Frames for the recorder, and the input held back while one is read (see capture.ts). */
  readonly #frames = new CaptureGate();
  /** Console messages since the flow began, for the debug snapshot of a failed step. */
  readonly #console = new ConsoleLog();
  #loading = false;
  /** The URL the main frame was last asked to navigate to (cleared once a document is ready). */
  #pendingUrl: string | undefined;
  /** The dialog open now is a beforeunload (its answer decides whether the pending navigation happens). */
  #beforeUnloadOpen = false;
  /** A navigation that did not settle within its bound: the step that started or met it fails, naming it. */
  #stalled: string | undefined;
  #loadWaiters: Array<() => void> = [];
  #unexpectedDialog: string | undefined;
  #dialogPlan: DialogPlan | undefined;
  #dialogSeen: { type: string; message: string } | undefined;
  readonly #offs: Array<() => void> = [];
  readonly #log: (line: string) => void;
  #downloads: Downloads | undefined;
  readonly #config: WebConfig;
  /** Session seeding waits for the first navigation (it needs the start URL); done once. */
  #seeded = false;
  readonly #onClose: () => Promise<void>;
  readonly #targetId: string;
  #closing = false;
  /** When recent dialogs opened (ms, monotonic) and what they were: a dialog storm is named, not waited out. */
  readonly #dialogTimes: number[] = [];
  readonly #dialogKinds = new Map<string, number>();

  private constructor(connection: Connection, session: Session, contextId: string, targetId: string, log: (line: string) => void, config: WebConfig, onClose: () => Promise<void>) {
    this.#connection = connection;
    this.#session = session;
    this.#contextId = contextId;
    this.#targetId = targetId;
    this.#log = log;
    this.#config = config;
    this.#onClose = onClose;
  }

  /**
   * Opens a fresh isolated browser context with one page, shaped by `config` (browser:, mock:,
   * session:). `onClose` runs after the context is disposed (a private browser is stopped there).
   */
  static async open(connection: Connection, log: (line: string) => void = () => undefined, config: WebConfig = {}, onClose: () => Promise<void> = async () => undefined): Promise<WebDriver> {
    const { browserContextId } = await connection.send("Target.createBrowserContext", { disposeOnDetach: true });
    const { width, height } = viewportOf(config);
    const { targetId } = await connection.send("Target.createTarget", { url: "about:blank", browserContextId, width, height });
    const { sessionId } = await connection.send("Target.attachToTarget", { targetId, flatten: true });
    const driver = new WebDriver(connection, connection.session(sessionId), browserContextId, targetId, log, config, onClose);
    await driver.#init();
    return driver;
  }

  async #init(): Promise<void> {
    const s = this.#session;
    this.#offs.push(
      s.on("Page.frameStartedLoading", (p) => {
        if (p.frameId === this.#mainFrameId) this.#loading = true;
      }),
      // Requested before it starts loading: an action that started it waits for it from here on.
      s.on("Page.frameRequestedNavigation", (p) => {
        if (p.frameId !== this.#mainFrameId || p.disposition !== "currentTab") return;
        this.#pendingUrl = p.url;
        this.#loading = true;
      }),
      s.on("Page.domContentEventFired", () => this.#loaded()),
      // The page's iframes, whose downloads are the flow's too.
      s.on("Page.frameAttached", (p) => {
        this.#childFrames.add(p.frameId);
      }),
      s.on("Page.frameDetached", (p) => {
        this.#childFrames.delete(p.frameId);
      }),
      s.on("Page.frameStoppedLoading", (p) => {
        if (p.frameId === this.#mainFrameId) this.#loaded();
      }),
      s.on("Page.javascriptDialogOpening", (p) => {
        // A page that opens dialogs without end is stopped and named; its last dialog stays open.
        if (this.#dialogStorm(p.type, p.message)) return;
        const plan = this.#dialogPlan;
        if (plan && !this.#dialogSeen) {
          // The declared dialog: answered as declared; a message that does not match is dismissed
          // (the step fails on it), never accepted on the author's behalf.
          this.#dialogSeen = { type: p.type, message: p.message };
          const accept = plan.disposition === "accept" && (plan.message === undefined || p.message.includes(plan.message));
          const promptText = accept && p.type === "prompt" && plan.reply !== undefined ? { promptText: plan.reply } : {};
          void s.send("Page.handleJavaScriptDialog", { accept, ...promptText }).catch(() => undefined);
          return;
        }
        // An undeclared dialog would block the page forever: dismiss it and fail the step.
        this.#unexpectedDialog = `${p.type}: ${p.message}`;
        void s.send("Page.handleJavaScriptDialog", { accept: false }).catch(() => undefined);
      }),
      // A beforeunload dialog answered "stay" cancels the navigation that raised it: nothing is pending any more.
      s.on("Page.javascriptDialogOpening", (p) => {
        this.#beforeUnloadOpen = p.type === "beforeunload";
      }),
      s.on("Page.javascriptDialogClosed", (p) => {
        const cancelled = this.#beforeUnloadOpen && !p.result;
        this.#beforeUnloadOpen = false;
        if (cancelled && this.#pendingUrl !== undefined) this.#loaded();
      }),
    );
    this.#offs.push(this.#console.listen(s));
    // A crashed page never answers again: every command in flight fails at once, saying so.
    let crashFallback: ReturnType<typeof setTimeout> | undefined;
    this.#offs.push(
      this.#connection.on("Target.targetCrashed", (p) => {
        if (p.targetId !== this.#targetId) return;
        clearTimeout(crashFallback);
        this.#fault(`the page crashed: ${describeCrash(p.status, p.errorCode)}`);
      }),
      // The same news on the page's own session; the browser-level event (with the reason) may follow.
      s.on("Inspector.targetCrashed", () => {
        crashFallback = setTimeout(() => this.#fault("the page crashed: its renderer process ended"), 200);
      }),
      this.#connection.on("Target.targetDestroyed", (p) => {
        if (p.targetId === this.#targetId && !this.#closing) this.#fault("the page was closed: its tab went away during the flow");
      }),
      () => clearTimeout(crashFallback),
    );
    // A browser that went away ends every wait for a load at once (the next command says why).
    this.#offs.push(this.#connection.onClose(() => this.#loaded()));
    if (!discovering.has(this.#connection)) {
      discovering.add(this.#connection);
      await this.#connection.send("Target.setDiscoverTargets", { discover: true }).catch(() => undefined);
    }
    await Promise.all([
      s.send("Page.enable"),
      s.send("Runtime.enable"),
      s.send("Log.enable"),
      s.send("Page.addScriptToEvaluateOnNewDocument", { source: INSTALLER }),
      applyShaping(s, this.#config).then((off) => {
        this.#offs.push(off);
      }),
      // Several pages share one headless browser; each must behave as the focused window, or
      // keyboard input and :focus styles depend on which flow ran last.
      s.send("Emulation.setFocusEmulationEnabled", { enabled: true }),
    ]);
    const tree = await s.send("Page.getFrameTree");
    this.#mainFrameId = tree.frameTree.frame.id;
    this.#downloads = await createDownloads(this.#connection, this.#contextId, (frameId) => frameId === this.#mainFrameId || this.#childFrames.has(frameId), this.#config.downloads_dir);
  }

  /** Fails the page's session: every command in flight and later errors with `message`. */
  #fault(message: string): void {
    if (this.#session.failure) return;
    this.#session.fail(new Error(message));
    this.#loaded();
  }

  /** Counts a dialog; true (and the page faulted) when dialogs open without end. */
  #dialogStorm(type: string, message: string): boolean {
    if (this.#session.failure) return true;
    const now = performance.now();
    this.#dialogTimes.push(now);
    while (this.#dialogTimes.length > 0 && now - this.#dialogTimes[0]! > DIALOG_STORM_WINDOW_MS) this.#dialogTimes.shift();
    const kind = `${type} ${JSON.stringify(shortMessage(message))}`;
    this.#dialogKinds.set(kind, (this.#dialogKinds.get(kind) ?? 0) + 1);
    if (this.#dialogTimes.length < DIALOG_STORM_COUNT) return false;
    const seen = [...this.#dialogKinds.entries()].sort((a, b) => b[1] - a[1]);
    const named = seen.slice(0, 3).map(([k, n]) => `${k} ×${n}`).join(", ");
    const more = seen.length > 3 ? ` and ${seen.length - 3} other kinds` : "";
    const secs = (DIALOG_STORM_WINDOW_MS / 1000).toFixed(0);
    this.#fault(`the page opens dialogs without end: ${this.#dialogTimes.length} within ${secs} s (${named}${more}); flowproof dismissed them and stopped; a page should open one dialog per action`);
    return true;
  }

  #loaded(): void {
    this.#loading = false;
    this.#pendingUrl = undefined;
    const waiters = this.#loadWaiters;
    this.#loadWaiters = [];
    for (const w of waiters) w();
  }

  /** The events a navigation is waited on by, subscribed before it starts so none is missed. */
  #documentWaits(timeoutMs: number): { ready: Promise<unknown>; loaded: Promise<unknown> } {
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
  async #documentSettled(waits: { ready: Promise<unknown>; loaded: Promise<unknown> }, started: number, timeoutMs: number): Promise<string | undefined> {
    try {
      await waits.ready;
    } catch (error) {
      if (this.#session.failure || this.#connection.lost) throw error;
      return `did not finish loading within ${timeoutMs} ms: the server never delivered the whole document`;
    }
    const grace = Math.max(0, Math.min(LOAD_GRACE_MS, timeoutMs - (performance.now() - started)));
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([waits.loaded.then(() => undefined, () => undefined), new Promise<void>((r) => (timer = setTimeout(r, grace)))]);
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
  async #settle(timeoutMs = NAVIGATION_SETTLE_MS): Promise<void> {
    if (!this.#loading) return;
    const settled = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.#loadWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!settled) return this.#stall(timeoutMs);
    await this.#firstFrame();
  }

  /** Never a silent pass: the step fails, naming the navigation that did not settle; the page stops waiting for it. */
  async #stall(timeoutMs: number): Promise<void> {
    const target = this.#pendingUrl !== undefined ? `the navigation to ${this.#pendingUrl}` : "a navigation of the page";
    this.#stalled ??= `${target} did not finish loading within ${Math.round(timeoutMs / 1000)} s; flowproof stopped it`;
    this.#loaded();
    // A page stuck between documents may answer neither: bounded, so the step ends with its failure.
    await withinMs(this.#session.send("Page.stopLoading").catch(() => undefined), STALLED_ANSWER_MS);
    await withinMs(this.#firstFrame(), STALLED_ANSWER_MS);
  }

  /**
   * Waits for one rendering update of a freshly loaded document: autofocus and other work the
   * browser defers to the first frame has happened, so the next keystroke lands where a user's would.
   */
  async #firstFrame(): Promise<void> {
    await this.#session
      .send("Runtime.evaluate", { expression: "new Promise((r) => requestAnimationFrame(() => r(0)))", awaitPromise: true, returnByValue: true })
      .catch(() => undefined); // the document may already be navigating away; the next probe waits for it
  }

  /** After input: one round trip lets a navigation the input started announce itself, then wait for it. */
  async #afterInput(): Promise<void> {
    // A page waiting for a navigation's first response may not answer at all: bounded like the navigation.
    const answered = await withinMs(this.#session.send("Runtime.evaluate", { expression: "0", returnByValue: true }).then(() => true, () => true), NAVIGATION_SETTLE_MS);
    if (answered !== true && this.#loading) return this.#stall(NAVIGATION_SETTLE_MS);
    await this.#settle();
  }

  #takeDialog(): Attempt<never> | undefined {
    const stalled = this.#stalled;
    if (stalled !== undefined) {
      this.#stalled = undefined;
      return fail("attached", stalled, false);
    }
    const message = this.#unexpectedDialog;
    if (message === undefined) return undefined;
    this.#unexpectedDialog = undefined;
    return fail("dialog", `an unexpected dialog opened: ${message}`, false);
  }

  /** Calls the injected page API; installs it first when the document does not have it yet. */
  async #call<T>(method: ApiMethod, arg: unknown): Promise<T | { transient: string }> {
    await this.#settle();
    const expression = `globalThis.__flowproof ? globalThis.__flowproof.${method}(${JSON.stringify(arg)}) : ({ __flowproofMissing: true })`;
    for (let attempt = 0; attempt < 2; attempt++) {
      let res;
      try {
        res = await this.#session.send("Runtime.evaluate", { expression, returnByValue: true });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (TRANSIENT.test(message)) return { transient: "the page was navigating" };
        throw error;
      }
      if (res.exceptionDetails) {
        const text = res.exceptionDetails.exception?.description ?? res.exceptionDetails.text;
        if (TRANSIENT.test(text)) return { transient: "the page was navigating" };
        throw new Error(`page script failed: ${text.split("\n")[0]}`);
      }
      const value = res.result.value as T | { __flowproofMissing: true };
      if (value && typeof value === "object" && "__flowproofMissing" in value) {
        await this.#session.send("Runtime.evaluate", { expression: INSTALLER, returnByValue: false });
        continue;
      }
      return value as T;
    }
    return { transient: "the page script could not be installed" };
  }

  async #probe(ladder: readonly Selector[], purpose: "pointer" | "drag" | "type", at?: PointerOptions["at"]): Promise<Attempt<ProbeAnswer & { ok: true }>> {
    const dialog = this.#takeDialog();
    if (dialog) return dialog;
    const answer = await this.#call<ProbeAnswer>(purpose === "type" ? "focusForTyping" : "probe", { ladder: toRungs(ladder), purpose, at });
    if ("transient" in answer) return fail("attached", answer.transient);
    if (!answer.ok) return fail(answer.failed, answer.detail, answer.failed !== "unsupported" && answer.failed !== "editable" && answer.failed !== "ambiguous");
    return ok(answer, answer.tier);
  }

  async navigate(url: string, timeoutMs: number): Promise<Attempt> {
    await this.#frames.held;
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
      const started = performance.now();
      const waits = this.#documentWaits(timeoutMs);
      const res = await this.#session.send("Page.navigate", { url });
      if (res.errorText) return fail("not-found", `could not open ${url}: ${res.errorText}`, false);
      if (res.loaderId) {
        const late = await this.#documentSettled(waits, started, timeoutMs);
        if (late) return fail("attached", `${url} ${late}`, false);
      }
      this.#loaded();
      await this.#firstFrame();
      // A server error page is never the app: name the status instead of failing later steps on it.
      const status = res.loaderId ? await this.#documentStatus() : 0;
      if (status >= 500) return fail("not-found", `${url} answered HTTP ${status}${STATUS_TEXT[status] ? ` ${STATUS_TEXT[status]}` : ""}: the app under test is running but could not serve the page (its log says why)`, false);
      return ok(undefined);
    } finally {
      // The localStorage seed belongs to the first document only.
      if (seedScript !== undefined) await this.#session.send("Page.removeScriptToEvaluateOnNewDocument", { identifier: seedScript }).catch(() => undefined);
    }
  }

  async reload(timeoutMs: number): Promise<Attempt> {
    await this.#frames.held;
    const started = performance.now();
    const waits = this.#documentWaits(timeoutMs);
    await this.#session.send("Page.reload", {});
    const late = await this.#documentSettled(waits, started, timeoutMs);
    if (late) return fail("attached", `the page ${late.replace("did not finish loading", "did not finish reloading")}`, false);
    this.#loaded();
    await this.#firstFrame();
    return ok(undefined);
  }

  async click(ladder: readonly Selector[], options: PointerOptions): Promise<Attempt> {
    await this.#frames.held;
    const probe = await this.#probe(ladder, "pointer", options.at);
    if (!probe.ok) return probe;
    await this.#pointerClick(probe.value.x, probe.value.y, options);
    return this.#takeDialog() ?? ok(undefined, probe.tier);
  }

  /**
   * Move, press and release sent together: a lone mouse move waits for the next animation frame,
   * while the press that follows it flushes the move at once.
   */
  async #pointerClick(x: number, y: number, options: Pick<PointerOptions, "button" | "clickCount">): Promise<void> {
    const s = this.#session;
    const sends: Array<Promise<unknown>> = [s.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y })];
    for (let n = 1; n <= options.clickCount; n++) {
      sends.push(
        s.send("Input.dispatchMouseEvent", { type: "mousePressed", x, y, button: options.button, buttons: options.button === "left" ? 1 : 2, clickCount: n }),
        s.send("Input.dispatchMouseEvent", { type: "mouseReleased", x, y, button: options.button, buttons: 0, clickCount: n }),
      );
    }
    await Promise.all(sends);
    await this.#afterInput();
  }

  async hover(ladder: readonly Selector[]): Promise<Attempt> {
    await this.#frames.held;
    const probe = await this.#probe(ladder, "pointer");
    if (!probe.ok) return probe;
    await this.#session.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: probe.value.x, y: probe.value.y });
    // A lone move is dispatched with the next frame; let it (and the page's hover handlers) run first.
    await this.#firstFrame();
    const dialog = this.#takeDialog();
    if (dialog) return dialog;
    // The post-condition: the pointer really rests on the target (a page may move it away on hover).
    const state = await this.#call<ValueAnswer>("hovered", { ladder: toRungs(ladder), x: probe.value.x, y: probe.value.y });
    if ("transient" in state) return fail("attached", state.transient);
    if (!state.ok) return fail(state.failed, state.detail);
    if (state.value !== "true") return fail("receives-pointer", `the pointer moved onto it at (${Math.round(probe.value.x)}, ${Math.round(probe.value.y)}) but it is not hovered (it moved away or something covers it)`);
    return ok(undefined, probe.tier);
  }

  async drag(source: readonly Selector[], onto: readonly Selector[], at?: PointerOptions["at"]): Promise<Attempt> {
    await this.#frames.held;
    let from = await this.#probe(source, "drag");
    if (!from.ok) return from;
    const to = await this.#probe(onto, "pointer", at);
    if (!to.ok) return { ...to, detail: `the drop target: ${to.detail}` };
    // Bringing the drop target into view may have scrolled the source: read it again.
    from = await this.#probe(source, "drag");
    if (!from.ok) return from;
    const s = this.#session;
    const a = { x: from.value.x, y: from.value.y };
    const b = { x: to.value.x, y: to.value.y };
    // Native HTML5 drag-and-drop runs a browser drag loop that synthetic mouse events cannot
    // reach; intercepting it hands the drag data back so the drop is dispatched over CDP.
    let data: Protocol.Input.DragData | undefined;
    const off = s.on("Input.dragIntercepted", (p) => {
      data = p.data;
    });
    // Drag events are paced as a hand moves: a drop zone (an iframe canvas above all) gets time
    // to react to the drag entering and moving over it before the drop.
    const dragEvent = async (type: "dragEnter" | "dragOver" | "drop", x: number, y: number, dragData: Protocol.Input.DragData) => {
      await s.send("Input.dispatchDragEvent", { type, x, y, data: dragData });
      if (type !== "drop") await Bun.sleep(DRAG_EVENT_GAP_MS);
    };
    try {
      await s.send("Input.setInterceptDrags", { enabled: true });
      await s.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: a.x, y: a.y });
      await s.send("Input.dispatchMouseEvent", { type: "mousePressed", x: a.x, y: a.y, button: "left", buttons: 1, clickCount: 1 });
      let entered = false;
      for (let i = 1; i <= DRAG_STEPS; i++) {
        const x = a.x + ((b.x - a.x) * i) / DRAG_STEPS;
        const y = a.y + ((b.y - a.y) * i) / DRAG_STEPS;
        if (data) {
          await dragEvent(entered ? "dragOver" : "dragEnter", x, y, data);
          entered = true;
          continue;
        }
        await s.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y, button: "left", buttons: 1 });
        // One round trip lets a drag the move started announce itself before the next move.
        await s.send("Runtime.evaluate", { expression: "0", returnByValue: true });
      }
      if (data) {
        if (!entered) await dragEvent("dragEnter", b.x, b.y, data);
        await dragEvent("dragOver", b.x, b.y, data);
        // The page (and the frame under the point) renders the hover state before the drop.
        await this.#firstFrame();
        await dragEvent("drop", b.x, b.y, data);
      } else {
        await s.send("Input.dispatchMouseEvent", { type: "mouseReleased", x: b.x, y: b.y, button: "left", buttons: 0, clickCount: 1 });
      }
    } finally {
      off();
      await s.send("Input.setInterceptDrags", { enabled: false }).catch(() => undefined);
    }
    await this.#afterInput();
    return this.#takeDialog() ?? ok(undefined, from.tier);
  }

  async upload(ladder: readonly Selector[], path: string): Promise<Attempt> {
    await this.#frames.held;
    const dialog = this.#takeDialog();
    if (dialog) return dialog;
    // `count` installs the page API when the document does not have it yet.
    const installed = await this.#call<number>("count", { ladder: toRungs(ladder) });
    if (typeof installed !== "number") return fail("attached", installed.transient);
    let res;
    try {
      res = await this.#session.send("Runtime.evaluate", { expression: `globalThis.__flowproof.fileInput(${JSON.stringify({ ladder: toRungs(ladder) })})`, returnByValue: false });
    } catch (error) {
      if (TRANSIENT.test(error instanceof Error ? error.message : String(error))) return fail("attached", "the page was navigating");
      throw error;
    }
    if (res.exceptionDetails) return fail("attached", res.exceptionDetails.text);
    if (res.result.type === "string") {
      const detail = String(res.result.value);
      return fail(detail.includes("is not a file input") ? "unsupported" : "not-found", detail, !detail.includes("is not a file input"));
    }
    const objectId = res.result.objectId;
    if (!objectId) return fail("not-found", "the file input could not be addressed");
    try {
      await this.#session.send("DOM.setFileInputFiles", { files: [path], objectId });
    } finally {
      await this.#session.send("Runtime.releaseObject", { objectId }).catch(() => undefined);
    }
    return ok(undefined, ladder[0]?.tier);
  }

  armDialog(plan: DialogPlan | undefined): void {
    this.#dialogPlan = plan;
    this.#dialogSeen = undefined;
  }

  dialogOutcome(): DialogOutcome {
    const seen = this.#dialogSeen;
    return seen ? { opened: true, type: seen.type, message: seen.message } : { opened: false };
  }

  downloads(take: boolean): DownloadState {
    return this.#downloads ? this.#downloads.state(take) : { completed: [], inProgress: 0, canceled: [] };
  }

  async fill(ladder: readonly Selector[], text: string, options: TypeOptions = {}): Promise<Attempt> {
    await this.#frames.held;
    // Inside a frame a value is assigned and read back, not typed (see docs/authoring.md, iframes).
    if (ladder[0]?.payload["kind"] === "framed") {
      const assigned = await this.#scoped("assignValue", { ladder: toRungs(ladder), value: text });
      if (options.secret && text !== "") await this.#markSecretField();
      return assigned;
    }
    const probe = await this.#probe(ladder, "type");
    if (!probe.ok) return probe;
    if (options.secret && text !== "" && !(await this.#markSecretField())) return fail("editable", "the field a secret is typed into could not be marked for masking in frames; nothing was typed");
    if (text === "") await this.#keystrokes([{ key: "Backspace", modifiers: 0 }]);
    else await this.#typeText(text);
    return this.#takeDialog() ?? ok(undefined, probe.tier);
  }

  async typeFocused(text: string, options: TypeOptions = {}): Promise<Attempt> {
    await this.#frames.held;
    const dialog = this.#takeDialog();
    if (dialog) return dialog;
    const res = await this.#session.send("Runtime.evaluate", {
      expression: "(() => { const a = document.activeElement; return !!a && a !== document.body && a !== document.documentElement; })()",
      returnByValue: true,
    });
    if (res.result.value !== true) {
      return fail("attached", "no element has keyboard focus to type into; name the field (`Type … into the \"…\" field`) or click it first");
    }
    if (options.secret && !(await this.#markSecretField())) return fail("editable", "the element a secret is typed into could not be marked for masking in frames; nothing was typed");
    await this.#typeText(text);
    return this.#takeDialog() ?? ok(undefined);
  }

  /**
   * Remembers the focused field as holding a secret, so every frame masks it until it is cleared
   * or gone. When that fails, redaction can no longer be guaranteed: every later frame is dropped.
   */
  async #markSecretField(): Promise<boolean> {
    const res = await this.#session.send("Runtime.evaluate", { expression: MARK_SECRET_FIELD, returnByValue: true }).catch(() => undefined);
    const marked = res?.result.value === true;
    if (!marked) this.#secretUntracked = true;
    return marked;
  }

  async #typeText(text: string): Promise<void> {
    const strokes: Array<{ key: string; modifiers: number }> = [];
    for (const ch of text) strokes.push({ key: ch === "\n" ? "Enter" : ch, modifiers: 0 });
    await this.#keystrokes(strokes);
  }

  /** Pipelines keyDown/keyUp pairs; CDP applies them in order. */
  async #keystrokes(strokes: ReadonlyArray<{ key: string; modifiers: number }>): Promise<void> {
    const s = this.#session;
    const sends: Array<Promise<unknown>> = [];
    for (const stroke of strokes) {
      const def = keyDefinition(stroke.key);
      if (!def) throw new Error(`no key definition for ${JSON.stringify(stroke.key)}`);
      const modifiers = stroke.modifiers | (def.shift ? 8 : 0);
      // Ctrl/Alt/Meta chords produce no text (they are shortcuts, not characters).
      const producesText = def.text !== undefined && (stroke.modifiers & 7) === 0;
      const base = { key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, nativeVirtualKeyCode: def.keyCode, modifiers };
      sends.push(
        s.send("Input.dispatchKeyEvent", producesText
          ? { type: "keyDown", ...base, text: def.text, unmodifiedText: def.text }
          : { type: "rawKeyDown", ...base }),
        s.send("Input.dispatchKeyEvent", { type: "keyUp", ...base }),
      );
    }
    await Promise.all(sends);
  }

  async pressKey(key: string, modifiers: readonly KeyModifier[]): Promise<Attempt> {
    await this.#frames.held;
    const dialog = this.#takeDialog();
    if (dialog) return dialog;
    if (!keyDefinition(key)) return fail("unsupported", `flowproof has no key named ${JSON.stringify(key)}`, false);
    const mask = modifierMask(modifiers);
    const held = (["ctrl", "alt", "meta", "shift"] as const).filter((m) => mask & (m === "alt" ? 1 : m === "ctrl" ? 2 : m === "meta" ? 4 : 8));
    const s = this.#session;
    const sends: Array<Promise<unknown>> = [];
    let down = 0;
    for (const m of held) {
      const def = MODIFIER_KEYS[m];
      down |= m === "alt" ? 1 : m === "ctrl" ? 2 : m === "meta" ? 4 : 8;
      sends.push(s.send("Input.dispatchKeyEvent", { type: "rawKeyDown", key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, modifiers: down }));
    }
    await Promise.all(sends);
    await this.#keystrokes([{ key, modifiers: mask }]);
    const ups: Array<Promise<unknown>> = [];
    for (const m of [...held].reverse()) {
      const def = MODIFIER_KEYS[m];
      down &= ~(m === "alt" ? 1 : m === "ctrl" ? 2 : m === "meta" ? 4 : 8);
      ups.push(s.send("Input.dispatchKeyEvent", { type: "keyUp", key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, modifiers: down }));
    }
    await Promise.all(ups);
    await this.#afterInput();
    return this.#takeDialog() ?? ok(undefined);
  }

  async select(ladder: readonly Selector[], values: readonly string[]): Promise<Attempt> {
    await this.#frames.held;
    const dialog = this.#takeDialog();
    if (dialog) return dialog;
    // A <select> is set in one call; an ARIA combobox or listbox answers with the trusted click
    // to make next (open it, then the option), and is verified after the option's click.
    let after: "open" | "option" | undefined;
    for (let move = 0; move < SELECT_MOVES; move++) {
      const answer = await this.#call<SelectAnswer>("select", { ladder: toRungs(ladder), values, after });
      if ("transient" in answer) return fail("attached", answer.transient);
      if (!answer.ok) return fail(answer.failed, answer.detail, answer.retryable ?? answer.failed !== "ambiguous");
      if (!("click" in answer)) return ok(undefined, answer.tier);
      await this.#pointerClick(answer.click.x, answer.click.y, { button: "left", clickCount: 1 });
      // The popup (or the new value) renders with the next frame.
      await this.#firstFrame();
      const dialog = this.#takeDialog();
      if (dialog) return dialog;
      after = answer.click.what;
    }
    return fail("unsupported", `the dropdown did not settle on ${JSON.stringify(values[0] ?? "")} after ${SELECT_MOVES} clicks`);
  }

  async setChecked(ladder: readonly Selector[], checked: boolean): Promise<Attempt> {
    await this.#frames.held;
    const probe = await this.#probe(ladder, "pointer");
    if (!probe.ok) return probe;
    if (probe.value.checked === undefined) return fail("unsupported", "the target is not a checkbox, radio or switch", false);
    if (probe.value.checked === checked) return ok(undefined, probe.tier);
    await this.#pointerClick(probe.value.x, probe.value.y, { button: "left", clickCount: 1 });
    const dialog = this.#takeDialog();
    if (dialog) return dialog;
    const state = await this.#call<ValueAnswer>("checkedState", { ladder: toRungs(ladder) });
    if ("transient" in state || !state.ok) return ok(undefined, probe.tier);
    if (state.value !== String(checked)) {
      return fail("unsupported", `clicking did not ${checked ? "check" : "uncheck"} it; it is still ${checked ? "unchecked" : "checked"}`, true);
    }
    return ok(undefined, probe.tier);
  }

  async readText(ladder: readonly Selector[]): Promise<Attempt<string>> {
    const answer = await this.#call<ValueAnswer>("read", { ladder: toRungs(ladder) });
    if ("transient" in answer) return fail("attached", answer.transient);
    if (!answer.ok) return fail(answer.failed, answer.detail, answer.failed !== "ambiguous" && answer.failed !== "unsupported");
    return ok(answer.value, answer.tier);
  }

  async scroll(ladder: readonly Selector[], to: ScrollTo): Promise<Attempt> {
    await this.#frames.held;
    return this.#scoped("scroll", { ladder: ladder.length > 0 ? toRungs(ladder) : undefined, to });
  }

  /** A page-side scope method (value assignment, scroll) as one attempt. */
  async #scoped(method: keyof ScopeMethods, arg: unknown): Promise<Attempt> {
    await this.#frames.held;
    const dialog = this.#takeDialog();
    if (dialog) return dialog;
    const answer = await this.#call<ScopeAnswer>(method, arg);
    if ("transient" in answer) return fail("attached", answer.transient);
    if (!answer.ok) {
      const failed = answer.failed as ProbeFailure;
      return fail(failed, answer.detail, failed === "not-found" || failed === "visible" || failed === "enabled");
    }
    return this.#takeDialog() ?? ok(undefined, answer.tier);
  }

  async count(ladder: readonly Selector[]): Promise<number> {
    const answer = await this.#call<number>("count", { ladder: toRungs(ladder) });
    return typeof answer === "number" ? answer : 0;
  }

  async check(ladder: readonly Selector[], expect: Expectation): Promise<Reading> {
    const dialog = this.#takeDialog();
    if (dialog && !dialog.ok) return { pass: false, actual: dialog.detail };
    if (expect.kind === "cookie") return this.#checkCookie(expect);
    const answer = await this.#call<CheckAnswer>("check", { ladder: ladder.length > 0 ? toRungs(ladder) : undefined, expect });
    if ("transient" in answer) return { pass: false, actual: answer.transient };
    return answer;
  }

  holdInput(until: Promise<unknown>): boolean {
    this.#frames.hold(until);
    return true;
  }

  captureFrame(): Promise<RawFrame> {
    return this.#frames.capture(this.#session, viewportOf(this.#config).device_scale_factor ?? 1);
  }

  async rectsFor(targets: readonly RectTarget[]): Promise<RectsAnswer[]> {
    const answers = await pageRects(this.#session, targets);
    if (!this.#secretUntracked) return answers;
    return answers.map((a, i) => ("secretFields" in targets[i]! ? { ok: false, detail: "a field a secret was typed into could not be tracked" } : a));
  }

  async pointFor(ladder: readonly Selector[], at?: PointerOptions["at"]): Promise<{ x: number; y: number } | undefined> {
    await this.#frames.held;
    const answer = await this.#call<ProbeAnswer>("probe", { ladder: toRungs(ladder), purpose: "pointer", at });
    return "transient" in answer || !answer.ok ? undefined : { x: answer.x, y: answer.y };
  }

  async #checkCookie(expect: Extract<Expectation, { kind: "cookie" }>): Promise<Reading> {
    const { reading, warning } = await readPageCookie(this.#session, expect.name, expect.fact);
    if (reading.pass && warning) this.#log(warning);
    return reading;
  }

  async scene(): Promise<SceneInventory> {
    await this.#settle();
    const expression = `(${readScene.toString()})(${JSON.stringify({ max: 100 })})`;
    const res = await this.#session.send("Runtime.evaluate", { expression, returnByValue: true }).catch((error: unknown) => {
      if (TRANSIENT.test(error instanceof Error ? error.message : String(error))) return undefined;
      throw error;
    });
    const failure = res?.exceptionDetails ? res.exceptionDetails.exception?.description ?? res.exceptionDetails.text : undefined;
    // A navigation in flight: an empty, unloaded reading, which the engine reads again.
    if (!res || (failure !== undefined && TRANSIENT.test(failure))) return { url: "", title: "", text: "", entries: [], omitted: 0, loaded: false };
    if (failure !== undefined) throw new Error(`the scene could not be read: ${failure.split("\n")[0]}`);
    return res.result.value as SceneInventory;
  }

  async environment(): Promise<{ os: string; resolution: [number, number]; locale?: string }> {
    const res = await this.#session.send("Runtime.evaluate", { expression: "[innerWidth, innerHeight, navigator.language]", returnByValue: true });
    const [w, h, locale] = (res.result.value as [number, number, string] | undefined) ?? [viewportOf(this.#config).width, viewportOf(this.#config).height, ""];
    return { os: process.platform, resolution: [w, h], ...(locale ? { locale } : {}) };
  }

  async debugSnapshot(redact?: (text: string) => string): Promise<DebugSnapshot> {
    return debugSnapshot(this.#session, this.#console, redact);
  }

  untilClosed(): Promise<void> {
    return untilContextClosed(this.#connection, this.#contextId);
  }

  async close(): Promise<void> {
    this.#closing = true;
    for (const off of this.#offs) off();
    this.#downloads?.close();
    if (!this.#connection.closed) {
      await this.#connection.send("Target.disposeBrowserContext", { browserContextId: this.#contextId }).catch(() => undefined);
    }
    await this.#onClose();
  }
}

/** A renderer's end as Target.targetCrashed reports it, in words. */
function describeCrash(status: string, errorCode: number): string {
  const code = errorCode ? `, code ${errorCode}` : "";
  switch (status) {
    case "killed":
      return `its renderer process was killed (status "killed"${code})`;
    case "oom":
      return `its renderer process ran out of memory (status "oom"${code})`;
    case "crashed":
      return `its renderer process crashed (status "crashed"${code})`;
    default:
      return `its renderer process ended (status ${JSON.stringify(status)}${code})`;
  }
}

/** A dialog's message as a fault quotes it: one line, control characters out, bounded. */
function shortMessage(message: string): string {
  const line = message.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim();
  return line.length > DIALOG_MESSAGE_CHARS ? `${line.slice(0, DIALOG_MESSAGE_CHARS - 1)}…` : line;
}

function toRungs(ladder: readonly Selector[]): Rung[] {
  return ladder.map((s) => ({ tier: s.tier, payload: s.payload }));
}
