// The web AppDriver on Firefox: one page (a browsing context) in its own user context, driven over
// WebDriver BiDi. The grammar's meaning comes from the same injected page script as on Chromium
// (resolution, visibility, ambiguity, checks), installed with script.addPreloadScript and called
// with script.evaluate; input is trusted (input.performActions). The steps that only go through the
// page script are the skeleton's that every protocol shares (page-driver.ts). What BiDi cannot do
// yet is left out of FIREFOX_CAPABILITIES, and a step that needs it is refused naming Firefox.
import type {
  AppDriver,
  Attempt,
  Capability,
  EffectWatch,
  KeyModifier,
  PointerOptions,
  RawFrame,
  Reading,
  RectTarget,
  RectsAnswer,
  Selector,
  TypeOptions,
} from "../../../src/plugins/api.ts";
import { FlowproofError, type DebugSnapshot } from "../../../src/plugins/api.ts";
import { FirefoxConsoleLog, firefoxDebugSnapshot } from "./debug.ts";
import type { SelectAnswer, ValueAnswer } from "../injected/protocol.ts";
import { fail, notHovered, ok, toRungs, type ApiMethod, type Transient } from "../page-calls.ts";
import { PageDriver, type CookieExpectation } from "../page-driver.ts";
import type { Point } from "../pointer.ts";
import { selectOptions } from "../select-moves.ts";
import { TypedSecrets } from "../typed-secrets.ts";
import type { WebConfig } from "../config.ts";
import { viewportOf } from "../page-setup.ts";
import type { BidiConnection } from "./connection.ts";
import { BidiDialogs } from "./dialogs.ts";
import { BidiEffects } from "./effects.ts";
import { BidiInput } from "./input.ts";
import { BidiNavigation } from "./navigation.ts";
import { BidiPage } from "./page.ts";
import { startFirefoxPage } from "./page-start.ts";
import { createFirefoxDownloads } from "./downloads.ts";
import { interceptFirefoxRequests } from "./mocks.ts";
import { FirefoxScreenChanges } from "./screen-changes.ts";
import { FirefoxStorage } from "./storage.ts";
import { setFirefoxInputFile } from "./upload.ts";
import { fillFirefoxField, typeIntoFirefoxFocus } from "./text-entry.ts";

/** What flowproof drives in Firefox; the Chromium driver's set (docs/browsers.md). */
export const FIREFOX_CAPABILITIES: ReadonlySet<Capability> = new Set<Capability>([
  "pointer",
  "keyboard",
  "navigation",
  "select",
  "dialogs",
  "screenshot",
  "hover",
  "drag",
  "scroll",
  "upload",
  "cookies",
  "downloads",
]);

/**
 * Firefox cannot finish a native HTML5 drag (a `draggable` element's drag and drop) driven over
 * WebDriver BiDi: once the drag begins the browser takes no more input, so nothing is dropped (the
 * protocol has no drag commands yet). So a Drag whose source starts one is stopped at its trusted
 * `dragstart` (no drag begins, the pointer stays free) and the step is refused, naming Firefox,
 * instead of dropping nothing in silence. Pointer-driven drags (sortable lists, sliders) run as in Chromium.
 */
const ARM_NATIVE_DRAG = `(() => {
  const w = window;
  if (w.__flowproofNativeDrag) removeEventListener("dragstart", w.__flowproofNativeDrag.listen, true);
  const state = { started: false, listen: (e) => { if (e.isTrusted) { state.started = true; e.preventDefault(); } } };
  w.__flowproofNativeDrag = state;
  addEventListener("dragstart", state.listen, true);
  return true;
})()`;
const NATIVE_DRAG_STARTED = `(() => {
  const state = window.__flowproofNativeDrag;
  if (!state) return false;
  removeEventListener("dragstart", state.listen, true);
  delete window.__flowproofNativeDrag;
  return state.started;
})()`;
export const NATIVE_DRAG_REFUSED =
  "the drag's source starts a native HTML5 drag (a draggable element), which Firefox cannot drop under WebDriver BiDi (the browser takes no input once such a drag begins): run this flow in Chromium (--browser chromium)";

export class FirefoxDriver extends PageDriver<BidiNavigation, BidiDialogs> implements AppDriver {
  readonly capabilities = FIREFOX_CAPABILITIES;
  readonly #connection: BidiConnection;
  readonly #page: BidiPage;
  readonly #input: BidiInput;
  readonly #secrets = new TypedSecrets();
  readonly #config: WebConfig;
  readonly #userContext: string;
  readonly #onClose: () => Promise<void>;
  readonly #info: Readonly<Record<string, unknown>>;
  readonly #offs: Array<() => void> = [];
  #held: Promise<unknown> = Promise.resolve();
  #effects: BidiEffects | undefined;
  #failure: FlowproofError | undefined;
  readonly #storage: FirefoxStorage;
  readonly #log: (line: string) => void;
  /** The flow's `session:` seed goes with its first navigation (it needs the start URL); done once. */
  #seeded = false;
  /** Whether the page may have changed since the recorder's last frame. */
  readonly #changes = new FirefoxScreenChanges();
  readonly #console = new FirefoxConsoleLog();

  private constructor(
    connection: BidiConnection,
    context: string,
    userContext: string,
    config: WebConfig,
    info: Readonly<Record<string, unknown>>,
    onClose: () => Promise<void>,
    log: (line: string) => void,
  ) {
    const page = new BidiPage(connection, context);
    // The round trip after an action's input reads its effects when they are observed (one call, not two).
    const afterInput = { read: (): Promise<unknown> => page.evaluate("0") };
    super(new BidiNavigation(connection, page, () => afterInput.read()), new BidiDialogs());
    afterInput.read = () => this.#effects?.readAfterInput() ?? page.evaluate("0");
    this.#log = log;
    this.#connection = connection;
    this.#page = page;
    this.#input = new BidiInput(connection, context);
    this.#config = config;
    this.#userContext = userContext;
    this.#info = info;
    this.#onClose = onClose;
    this.#storage = new FirefoxStorage(this.#page, userContext);
  }

  /** Opens a fresh user context (an isolated profile) with one tab, shaped by `config`. */
  static async open(
    connection: BidiConnection,
    config: WebConfig,
    info: Readonly<Record<string, unknown>>,
    onClose: () => Promise<void>,
    log: (line: string) => void = () => undefined,
  ): Promise<FirefoxDriver> {
    const { userContext } = await connection.send<{ userContext: string }>("browser.createUserContext", {});
    try {
      const { context } = await connection.send<{ context: string }>("browsingContext.create", { type: "tab", userContext });
      const driver = new FirefoxDriver(connection, context, userContext, config, info, onClose, log);
      driver.#offs.push(
        ...driver.navigation.listen(),
        ...driver.#changes.listen(connection, context),
        ...driver.dialogs.listen(connection, context, (message) => {
          driver.#failure ??= new FlowproofError({ code: "browser-error", message });
        }),
      );
      driver.#offs.push(await driver.#console.listen(connection, context));
      await startFirefoxPage(driver.#page, userContext, config);
      driver.#offs.push(await interceptFirefoxRequests(connection, context, config.mock ?? []));
      driver.downloadTracking = await createFirefoxDownloads(connection, userContext, context, config.downloads_dir);
      return driver;
    } catch (error) {
      await connection.send("browser.removeUserContext", { userContext }).catch(() => undefined);
      throw error;
    }
  }

  protected held(): Promise<unknown> {
    return this.#held;
  }

  protected callPage<T>(method: ApiMethod, arg: unknown, afterward?: string): Promise<T | Transient> {
    return this.#page.call<T>(method, arg, afterward);
  }

  /** A dialog storm fails the page: every step from then on errors with it. */
  protected pageFault(): undefined {
    if (this.#failure) throw this.#failure;
    return undefined;
  }

  protected sendClick(at: Point, options: Pick<PointerOptions, "button" | "clickCount">): Promise<void> {
    return this.#input.click(at, options);
  }

  protected sendKey(key: string, modifiers: readonly KeyModifier[]): Promise<void> {
    return this.#input.press(key, modifiers);
  }

  protected setInputFile(ladder: readonly Selector[], path: string): Promise<Attempt> {
    return setFirefoxInputFile(this.#page, ladder, path);
  }

  protected checkCookie(expect: CookieExpectation): Promise<Reading> {
    return this.#storage.check(expect, this.#log);
  }

  async navigate(url: string, timeoutMs: number): Promise<Attempt> {
    await this.#held;
    let unseed: (() => Promise<void>) | undefined;
    if (!this.#seeded) {
      this.#seeded = true;
      try {
        unseed = await this.#storage.seed(this.#config, url);
      } catch (error) {
        return fail("not-found", `could not seed the flow's session for ${url}: ${(error as Error).message}`, false);
      }
    }
    try {
      return await this.navigation.navigate(url, timeoutMs);
    } finally {
      await unseed?.();
    }
  }

  async clearStorage(what: "local" | "session" | "cookies"): Promise<Attempt> {
    await this.#held;
    return this.#storage.clear(what);
  }

  async setCookie(name: string, value: string): Promise<Attempt> {
    await this.#held;
    return this.#storage.setCookie(name, value);
  }

  async setViewport(width: number, height: number): Promise<Attempt> {
    await this.#held;
    await this.#connection.send("browsingContext.setViewport", { context: this.#page.context, viewport: { width, height } });
    await this.#page.nextFrame();
    const size = await this.#page.tryEvaluate<[number, number]>("[innerWidth, innerHeight]");
    if (!size || size[0] !== width || size[1] !== height)
      return fail("unsupported", `the viewport did not take ${width}×${height}${size ? ` (it is ${size[0]}×${size[1]})` : ""}`, false);
    return ok(undefined);
  }

  async hover(ladder: readonly Selector[]): Promise<Attempt> {
    await this.#held;
    const probe = await this.probe(ladder, "pointer");
    if (!probe.ok) return probe;
    await this.#input.move(probe.value);
    await this.#page.nextFrame();
    const dialog = this.takeDialog();
    if (dialog) return dialog;
    const state = await this.call<ValueAnswer>("hovered", { ladder: toRungs(ladder), x: probe.value.x, y: probe.value.y });
    if ("transient" in state) return fail("attached", state.transient);
    if (!state.ok) return fail(state.failed, state.detail);
    if (state.value !== "true") return notHovered(probe.value);
    return ok(undefined, probe.tier);
  }

  async drag(source: readonly Selector[], onto: readonly Selector[], at?: PointerOptions["at"]): Promise<Attempt> {
    await this.#held;
    let from = await this.probe(source, "drag");
    if (!from.ok) return from;
    const to = await this.probe(onto, "pointer", at);
    if (!to.ok) return { ...to, detail: `the drop target: ${to.detail}` };
    from = await this.probe(source, "drag");
    if (!from.ok) return from;
    await this.#page.tryEvaluate(ARM_NATIVE_DRAG);
    await this.#input.drag(from.value, to.value);
    await this.navigation.afterInput();
    const native = await this.#page.tryEvaluate<boolean>(NATIVE_DRAG_STARTED);
    if (native === true) return fail("unsupported", NATIVE_DRAG_REFUSED, false);
    return this.takeDialog() ?? ok(undefined, from.tier);
  }

  debugSnapshot(redact?: (text: string) => string): Promise<DebugSnapshot> {
    return firefoxDebugSnapshot(this.#page, this.#console, redact);
  }

  async observeEffect(_ladder: readonly Selector[]): Promise<EffectWatch | undefined> {
    this.#effects ??= new BidiEffects(this.#connection, this.#page.context, this.navigation, {
      downloadsBegun: () => this.downloadsBegun(),
    });
    return this.#effects.watch();
  }

  #textPage() {
    return {
      input: this.#input,
      secrets: this.#secrets,
      evaluate: (expression: string) => this.#page.evaluate<unknown>(expression),
      focus: (ladder: readonly Selector[], afterward?: string) => this.probe(ladder, "type", undefined, afterward),
      typingLost: (length: number) => this.typingLost(length),
      assign: (ladder: readonly Selector[], value: string) => this.scoped("assignValue", { ladder: toRungs(ladder), value }),
      nextFrame: () => this.#page.nextFrame(),
      afterInput: () => this.navigation.afterInput(),
      takeDialog: () => this.takeDialog(),
    };
  }

  async fill(ladder: readonly Selector[], text: string, options: TypeOptions = {}): Promise<Attempt> {
    await this.#held;
    return fillFirefoxField(this.#textPage(), ladder, text, options);
  }

  async typeFocused(text: string, options: TypeOptions = {}): Promise<Attempt> {
    const blocked = await this.ready();
    return blocked ?? typeIntoFirefoxFocus(this.#textPage(), text, options);
  }

  async select(ladder: readonly Selector[], values: readonly string[], exact?: boolean): Promise<Attempt<readonly string[] | undefined>> {
    const blocked = await this.ready();
    if (blocked) return blocked;
    return selectOptions(ladder, values, exact, {
      call: (arg) => this.call<SelectAnswer>("select", arg),
      click: (at) => this.clickAt(at),
      press: (key) => this.#input.press(key, []),
      type: async (text) => {
        await this.#input.press("a", ["mod"]);
        await this.#input.type(text, 35_000);
      },
      nextFrame: () => this.#page.nextFrame(),
      takeDialog: () => this.takeDialog(),
    });
  }

  holdInput(until: Promise<unknown>): boolean {
    this.#held = Promise.all([this.#held, until.catch(() => undefined)]);
    return true;
  }

  screenChanged(): Promise<boolean> {
    return this.#changes.changed(this.#page, () => this.navigation.loading);
  }

  async captureFrame(): Promise<RawFrame> {
    const { data } = await this.#connection.send<{ data: string }>("browsingContext.captureScreenshot", {
      context: this.#page.context,
      origin: "viewport",
      format: { type: "image/png" },
    });
    return { png: Buffer.from(data, "base64") };
  }

  rectsFor(targets: readonly RectTarget[]): Promise<RectsAnswer[]> {
    return this.#secrets.rectsFor((expression) => this.#page.evaluate<unknown>(expression), targets);
  }

  async environment(): Promise<{ os: string; resolution: [number, number]; locale?: string }> {
    await this.navigation.settle();
    const vp = viewportOf(this.#config);
    const read = await this.#page.tryEvaluate<[number, number, string]>("[innerWidth, innerHeight, navigator.language]");
    const [w, h, locale] = read ?? [vp.width, vp.height, ""];
    return { os: process.platform, resolution: [w, h], ...(locale ? { locale } : {}) };
  }

  /** The browser the flow ran in, recorded into the trace header (`app.engine`). */
  appInfo(): Readonly<Record<string, unknown>> {
    return this.#info;
  }

  async close(): Promise<void> {
    for (const off of this.#offs.splice(0)) off();
    // The page's observers go with its user context, removed next: the page is not asked about them.
    await this.#effects?.dispose(false);
    this.downloadTracking?.close();
    if (!this.#connection.closed) await this.#connection.send("browser.removeUserContext", { userContext: this.#userContext }, 10_000).catch(() => undefined);
    await this.#onClose();
  }
}
