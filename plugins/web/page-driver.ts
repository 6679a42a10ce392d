// The web AppDriver's skeleton, one for every protocol (Puppeteer's shape: one page API, a backend
// per protocol). It holds the order every action takes (input held while a frame is read, then a
// fault, a stalled navigation or an undeclared dialog answers first) and the steps that only go
// through the injected page script, whose answers page-answers.ts translates. A backend (driver.ts
// over CDP, bidi/driver.ts over WebDriver BiDi) brings the protocol: the page-script call, trusted
// input, a file chooser, cookies, and what else it drives its own way.
import type {
  Attempt,
  Candidate,
  DialogOutcome,
  DialogPlan,
  DownloadState,
  Expectation,
  KeyModifier,
  PointerOptions,
  Reading,
  SceneInventory,
  ScrollTo,
  Selector,
} from "../../src/plugins/api.ts";
import type { PageDialogs } from "./dialogs.ts";
import type { Downloads } from "./downloads.ts";
import type { CheckAnswer, ProbeAnswer, ScopeAnswer, ScopeMethods, ValueAnswer } from "./injected/protocol.ts";
import { keyDefinition } from "./keys.ts";
import { candidatesOf, checkReading, countOf, pointOf, probeAttempt, sceneOf, scopeAttempt, valueAttempt } from "./page-answers.ts";
import { fail, ok, toRungs, type ApiMethod, type Transient } from "./page-calls.ts";
import { setCheckedState } from "./pointer-gestures.ts";
import type { Point } from "./pointer.ts";

/** What the skeleton needs of a backend's navigation tracking (navigation.ts, bidi/navigation.ts). */
export interface PageNavigation {
  /** Resolves once a navigation in flight has settled (or stalled, which takeStalled then names). */
  settle(): Promise<void>;
  /** Waits for the navigation input may have started. */
  afterInput(): Promise<void>;
  /** A navigation that stalled since last asked, once. */
  takeStalled(): string | undefined;
  reload(timeoutMs: number): Promise<Attempt>;
  history(direction: "back" | "forward", timeoutMs: number): Promise<Attempt>;
}

/** The expectations a cookie jar answers, not the page script. */
export type CookieExpectation = Extract<Expectation, { kind: "cookie" | "cookie_where" | "cookie_count" }>;

const isCookieCheck = (expect: Expectation): expect is CookieExpectation =>
  expect.kind === "cookie" || expect.kind === "cookie_where" || expect.kind === "cookie_count";

const LEFT_CLICK = { button: "left", clickCount: 1 } as const;

export abstract class PageDriver<N extends PageNavigation, D extends PageDialogs> {
  /** The downloads of the page's context, once the backend set them up. */
  protected downloadTracking: Downloads | undefined;

  protected constructor(
    protected readonly navigation: N,
    protected readonly dialogs: D,
  ) {}

  /** Resolves when input may go to the page again (the recorder's frame is read). */
  protected abstract held(): Promise<unknown>;
  /** One call of the injected page API (`afterward`: an expression read in the same round trip, where the backend can). */
  protected abstract callPage<T>(method: ApiMethod, arg: unknown, afterward?: string): Promise<T | Transient>;
  /** What fails a step before anything else: a refused `file:` read, or a page that faulted (it may throw). */
  protected abstract pageFault(): Attempt<never> | undefined;
  /** A trusted click at `at` (the navigation it starts is the skeleton's to wait for). */
  protected abstract sendClick(at: Point, options: Pick<PointerOptions, "button" | "clickCount">): Promise<void>;
  /** A trusted key press with its modifiers held. */
  protected abstract sendKey(key: string, modifiers: readonly KeyModifier[]): Promise<void>;
  /** Sets the file input `ladder` names to `path` (the page script is installed). */
  protected abstract setInputFile(ladder: readonly Selector[], path: string): Promise<Attempt>;
  /** A cookie check, answered from the browser's cookie jar. */
  protected abstract checkCookie(expect: CookieExpectation): Promise<Reading>;

  /** A fault, a navigation that stalled, or an undeclared dialog since the last look: the step fails on it. */
  protected takeDialog(): Attempt<never> | undefined {
    const fault = this.pageFault();
    if (fault) return fault;
    const stalled = this.navigation.takeStalled();
    if (stalled !== undefined) return fail("attached", stalled, false);
    const message = this.dialogs.takeUnexpected();
    return message === undefined ? undefined : fail("dialog", `an unexpected dialog opened: ${message}`, false);
  }

  /** Before an action: the frame being captured is done; a dialog that opened meanwhile answers instead. */
  protected async ready(): Promise<Attempt<never> | undefined> {
    await this.held();
    return this.takeDialog();
  }

  /** Calls the injected page API once a navigation in flight has settled. */
  protected async call<T>(method: ApiMethod, arg: unknown, afterward?: string): Promise<T | Transient> {
    await this.navigation.settle();
    return this.callPage<T>(method, arg, afterward);
  }

  protected async probe(
    ladder: readonly Selector[],
    purpose: "pointer" | "drag" | "type",
    at?: PointerOptions["at"],
    afterward?: string,
    guard?: boolean,
  ): Promise<Attempt<ProbeAnswer & { ok: true }>> {
    const dialog = this.takeDialog();
    if (dialog) return dialog;
    const request = { ladder: toRungs(ladder), purpose, at, ...(guard ? { guard } : {}) };
    const answer = await this.call<ProbeAnswer>(purpose === "type" ? "focusForTyping" : "probe", request, afterward);
    return probeAttempt(answer);
  }

  /** Whether the focus left the field just typed into before it got all `length` characters (the page-side `typingLost`): the sentence, or undefined. */
  protected async typingLost(length: number): Promise<string | undefined> {
    const answer = await this.callPage<string | null>("typingLost", { length });
    return typeof answer === "string" ? answer : undefined;
  }

  /** A page-side scope method (value assignment, scroll) as one attempt. */
  protected async scoped(method: keyof ScopeMethods, arg: unknown): Promise<Attempt> {
    const blocked = await this.ready();
    if (blocked) return blocked;
    return scopeAttempt(await this.call<ScopeAnswer>(method, arg), () => this.takeDialog());
  }

  /** A trusted click, then the navigation it may have started. */
  protected async clickAt(at: Point, options: Pick<PointerOptions, "button" | "clickCount"> = LEFT_CLICK): Promise<void> {
    await this.sendClick(at, options);
    await this.navigation.afterInput();
  }

  /** How many downloads began since the flow started (an effect watch's baseline). */
  protected downloadsBegun(): number {
    const d = this.downloads(false);
    return d.completed.length + d.inProgress + d.canceled.length;
  }

  async reload(timeoutMs: number): Promise<Attempt> {
    await this.held();
    return this.navigation.reload(timeoutMs);
  }

  async history(direction: "back" | "forward", timeoutMs: number): Promise<Attempt> {
    const blocked = await this.ready();
    return blocked ?? this.navigation.history(direction, timeoutMs);
  }

  async click(ladder: readonly Selector[], options: PointerOptions): Promise<Attempt> {
    await this.held();
    const probe = await this.probe(ladder, "pointer", options.at, undefined, true);
    if (!probe.ok) return probe;
    await this.clickAt(probe.value, options);
    // The page changed under the point between the probe and the press: the click was kept from it.
    const landed = await this.callPage<string | null>("clickLanded", {});
    if (typeof landed === "string") return this.takeDialog() ?? fail("receives-pointer", landed);
    return this.takeDialog() ?? ok(undefined, probe.tier);
  }

  async setChecked(ladder: readonly Selector[], checked: boolean): Promise<Attempt> {
    await this.held();
    const page = {
      probe: (l: readonly Selector[], purpose: "pointer" | "drag", at?: PointerOptions["at"]) => this.probe(l, purpose, at),
      click: (at: Point) => this.clickAt(at),
      read: (method: "hovered" | "checkedState", arg: unknown) => this.call<ValueAnswer>(method, arg),
      takeDialog: () => this.takeDialog(),
    };
    return setCheckedState(page, ladder, checked);
  }

  async pressKey(key: string, modifiers: readonly KeyModifier[]): Promise<Attempt> {
    const blocked = await this.ready();
    if (blocked) return blocked;
    if (!keyDefinition(key)) return fail("unsupported", `flowproof has no key named ${JSON.stringify(key)}`, false);
    await this.sendKey(key, modifiers);
    await this.navigation.afterInput();
    return this.takeDialog() ?? ok(undefined);
  }

  async upload(ladder: readonly Selector[], path: string): Promise<Attempt> {
    const blocked = await this.ready();
    if (blocked) return blocked;
    // `count` installs the page API when the document does not have it yet.
    const installed = await this.call<number>("count", { ladder: toRungs(ladder) });
    if (typeof installed !== "number") return fail("attached", installed.transient);
    return this.setInputFile(ladder, path);
  }

  armDialog(plan: DialogPlan | undefined): void {
    this.dialogs.arm(plan);
  }

  dialogOutcome(): DialogOutcome {
    return this.dialogs.outcome();
  }

  downloads(take: boolean): DownloadState {
    return this.downloadTracking ? this.downloadTracking.state(take) : { completed: [], inProgress: 0, canceled: [] };
  }

  async readText(ladder: readonly Selector[]): Promise<Attempt<string>> {
    return valueAttempt(await this.call<ValueAnswer>("read", { ladder: toRungs(ladder) }));
  }

  async scroll(ladder: readonly Selector[], to: ScrollTo): Promise<Attempt> {
    await this.held();
    return this.scoped("scroll", { ladder: ladder.length > 0 ? toRungs(ladder) : undefined, to });
  }

  async count(ladder: readonly Selector[]): Promise<number> {
    return countOf(await this.call<number>("count", { ladder: toRungs(ladder) }));
  }

  async candidates(ladder: readonly Selector[]): Promise<readonly Candidate[]> {
    return candidatesOf(await this.call<Candidate[]>("candidates", { ladder: toRungs(ladder) }));
  }

  async check(ladder: readonly Selector[], expect: Expectation): Promise<Reading> {
    const dialog = this.takeDialog();
    if (dialog && !dialog.ok) return { pass: false, actual: dialog.detail };
    if (isCookieCheck(expect)) return this.checkCookie(expect);
    return checkReading(await this.call<CheckAnswer>("check", { ladder: ladder.length > 0 ? toRungs(ladder) : undefined, expect }));
  }

  async pointFor(ladder: readonly Selector[], at?: PointerOptions["at"]): Promise<{ x: number; y: number } | undefined> {
    await this.held();
    return pointOf(await this.call<ProbeAnswer>("probe", { ladder: toRungs(ladder), purpose: "pointer", at }));
  }

  async scene(): Promise<SceneInventory> {
    return sceneOf(await this.call<SceneInventory>("scene", { max: 100 }));
  }
}
