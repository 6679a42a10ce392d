// The web AppDriver: one page in its own browser context, driven over CDP, on the skeleton every
// protocol shares (page-driver.ts). Every method is one attempt (the engine polls); probes are one
// round trip through the injected page API; input is trusted (Input.dispatchMouseEvent /
// dispatchKeyEvent). The concerns live in their modules:
// navigation.ts (documents and the navigations input starts), pointer.ts, pointer-gestures.ts,
// keyboard.ts and text-entry.ts (input), page-calls.ts (the page API and transient failures),
// page-start.ts, typed-secrets.ts, cdp/dialogs.ts, cdp/downloads.ts, crashes.ts, capture.ts.
import type {
  AppDriver,
  Attempt,
  DebugSnapshot,
  EffectWatch,
  Capability,
  KeyModifier,
  PointerOptions,
  RawFrame,
  Reading,
  RectTarget,
  RectsAnswer,
  Selector,
  TypeOptions,
} from "../../src/plugins/api.ts";
import { FlowproofError } from "../../src/plugins/api.ts";
import type { Connection, Session } from "./cdp/connection.ts";
import type { SelectAnswer, ValueAnswer } from "./injected/protocol.ts";
import { pressChord, typeOver } from "./keyboard.ts";
import { sendClick, type Point } from "./pointer.ts";
import { dragOnto, hoverOver, type GesturePage } from "./pointer-gestures.ts";
import { CaptureGate, untilContextClosed } from "./capture.ts";
import { ScreenChanges } from "./screen-changes.ts";
import { TypedSecrets } from "./typed-secrets.ts";
import { fillField, typeIntoFocus, type TextPage } from "./text-entry.ts";
import { ConsoleLog, debugSnapshot } from "./debug.ts";
import { readCookies, readPageCookie, setPageCookie } from "./cookies.ts";
import type { RemoteFiles } from "./downloads.ts";
import { createDownloads } from "./cdp/downloads.ts";
import { setInputFile } from "./upload.ts";
import { selectOptions } from "./select-moves.ts";
import type { OpenOptions, WebConfig } from "./config.ts";
import { FileRefusals } from "./mocks.ts";
import { clearSiteStorage, readEnvironment, resizeViewport, viewportOf } from "./page-setup.ts";
import { Navigation } from "./navigation.ts";
import { CdpDialogs } from "./cdp/dialogs.ts";
import { watchPageEnd } from "./crashes.ts";
import { WebEffects } from "./effects.ts";
import { discoverTargets, startPage } from "./page-start.ts";
import { callPage, fail, toRungs, type ApiMethod, type Transient } from "./page-calls.ts";
import { untilPageChange } from "./page-changes.ts";
import { PageDriver, type CookieExpectation } from "./page-driver.ts";

export const CAPABILITIES: ReadonlySet<Capability> = new Set<Capability>([
  "pointer",
  "keyboard",
  "navigation",
  "select",
  "dialogs",
  "cookies",
  "screenshot",
  "hover",
  "drag",
  "scroll",
  "upload",
  "downloads",
]);

export class WebDriver extends PageDriver<Navigation, CdpDialogs> implements AppDriver {
  readonly capabilities = CAPABILITIES;
  readonly #connection: Connection;
  readonly #session: Session;
  readonly #contextId: string;
  /** What frames mask because of what was typed (see typed-secrets.ts). */
  readonly #secrets = new TypedSecrets();
  /** Frames attached below the main frame (iframes), by id. */
  readonly #childFrames = new Set<string>();
  /** Frames for the recorder, and the input held back while one is read (see capture.ts). */
  readonly #frames = new CaptureGate();
  /** Whether the page may have changed since the recorder's last frame (see screen-changes.ts). */
  readonly #changes = new ScreenChanges();
  /** Console messages since the flow began, for the debug snapshot of a failed step. */
  readonly #console = new ConsoleLog();
  /** What each action did (step effects), observed from its first watch on. */
  #effects: WebEffects | undefined;
  readonly #offs: Array<() => void> = [];
  readonly #log: (line: string) => void;
  readonly #config: WebConfig;
  readonly #onClose: () => Promise<void>;
  /** `file:` URLs outside a confined run's roots that the page tried to read: the step fails on them. */
  readonly #refusals: FileRefusals;
  readonly #targetId: string;
  readonly #remote: RemoteFiles | undefined;
  readonly #info: Readonly<Record<string, unknown>> | undefined;
  #closing = false;

  private constructor(
    connection: Connection,
    session: Session,
    contextId: string,
    targetId: string,
    log: (line: string) => void,
    config: WebConfig,
    onClose: () => Promise<void>,
    options: OpenOptions,
  ) {
    super(new Navigation(connection, session, contextId, config), new CdpDialogs());
    this.#remote = options.remote;
    this.#info = options.info;
    this.#refusals = new FileRefusals(options.files);
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
  /** `options.files`: a confined run's roots (LaunchContext.paths); the page then opens no `file:` URL outside them. */
  static async open(
    connection: Connection,
    log: (line: string) => void = () => undefined,
    config: WebConfig = {},
    onClose: () => Promise<void> = async () => undefined,
    options: OpenOptions = {},
  ): Promise<WebDriver> {
    const { width, height } = viewportOf(config);
    // A remote browser is the flow's own (a grid session): its page opens in the browser's default
    // context, where the node's download directory applies.
    const created = options.remote ? undefined : (await connection.send("Target.createBrowserContext", { disposeOnDetach: true })).browserContextId;
    // (Its window was sized at start: a size here is for new windows only.)
    const { targetId } = await connection.send("Target.createTarget", { url: "about:blank", ...(created ? { browserContextId: created, width, height } : {}) });
    const browserContextId = created ?? (await connection.send("Target.getTargetInfo", { targetId })).targetInfo.browserContextId ?? "";
    const { sessionId } = await connection.send("Target.attachToTarget", { targetId, flatten: true });
    const driver = new WebDriver(connection, connection.session(sessionId), browserContextId, targetId, log, config, onClose, options);
    await driver.#init();
    return driver;
  }

  async #init(): Promise<void> {
    const s = this.#session;
    const fault = (message: string) => this.#fault(message);
    this.#offs.push(
      ...this.navigation.listen(),
      // The page's iframes, whose downloads are the flow's too.
      s.on("Page.frameAttached", (p) => void this.#childFrames.add(p.frameId)),
      s.on("Page.frameDetached", (p) => void this.#childFrames.delete(p.frameId)),
      ...this.dialogs.listen(s, fault, () => this.navigation.cancelled()),
      this.#console.listen(s),
      ...this.#changes.listen(s),
      ...watchPageEnd(this.#connection, s, this.#targetId, () => this.#closing, fault),
    );
    await discoverTargets(this.#connection);
    await startPage(s, this.#config, this.#refusals.gate(), (off) => void this.#offs.push(off));
    const tree = await s.send("Page.getFrameTree");
    const mainFrameId = tree.frameTree.frame.id;
    this.navigation.mainFrameId = mainFrameId;
    this.downloadTracking = await createDownloads(
      this.#connection,
      this.#contextId,
      (frameId) => frameId === mainFrameId || this.#childFrames.has(frameId),
      this.#config.downloads_dir,
      this.#remote,
    );
  }

  /** Fails the page's session: every command in flight and later errors with `message`. */
  #fault(message: string): void {
    if (this.#session.failure) return;
    this.#session.fail(new FlowproofError({ code: "browser-error", message }));
    this.navigation.loaded();
  }

  protected held(): Promise<unknown> {
    return this.#frames.held;
  }

  protected callPage<T>(method: ApiMethod, arg: unknown, afterward?: string): Promise<T | Transient> {
    return callPage<T>(this.#session, method, arg, afterward);
  }

  /** A `file:` URL outside a confined run's roots that the page tried to read. */
  protected pageFault(): Attempt<never> | undefined {
    const refused = this.#refusals.take();
    return refused !== undefined ? fail("not-found", refused, false) : undefined;
  }

  protected sendClick(at: Point, options: Pick<PointerOptions, "button" | "clickCount">): Promise<void> {
    return sendClick(this.#session, at, options);
  }

  protected sendKey(key: string, modifiers: readonly KeyModifier[]): Promise<void> {
    return pressChord(this.#session, key, modifiers);
  }

  protected setInputFile(ladder: readonly Selector[], path: string): Promise<Attempt> {
    return setInputFile(this.#session, ladder, path, this.#remote);
  }

  async navigate(url: string, timeoutMs: number): Promise<Attempt> {
    await this.#frames.held;
    const opened = await this.navigation.navigate(url, timeoutMs);
    // A `file:` document outside the run's roots was refused: the failure names it and the root.
    const refused = this.#refusals.take();
    return refused !== undefined ? fail("not-found", refused, false) : opened;
  }

  async clearStorage(what: "local" | "session" | "cookies"): Promise<Attempt> {
    await this.#frames.held;
    return clearSiteStorage(this.#connection, this.#session, this.#contextId, what);
  }

  setCookie = (name: string, value: string): Promise<Attempt> => setPageCookie(this.#session, name, value);
  async setViewport(width: number, height: number): Promise<Attempt> {
    await this.#frames.held;
    return resizeViewport(this.#session, this.#config, width, height, () => this.navigation.firstFrame());
  }

  async hover(ladder: readonly Selector[]): Promise<Attempt> {
    await this.#frames.held;
    return hoverOver(this.#gesturePage(), ladder);
  }

  async drag(source: readonly Selector[], onto: readonly Selector[], at?: PointerOptions["at"]): Promise<Attempt> {
    await this.#frames.held;
    return dragOnto(this.#gesturePage(), source, onto, at);
  }

  #gesturePage(): GesturePage {
    return {
      session: this.#session,
      probe: (ladder, purpose, at) => this.probe(ladder, purpose, at),
      click: (at) => this.clickAt(at),
      read: (method, arg) => this.call<ValueAnswer>(method, arg),
      afterInput: () => this.navigation.afterInput(),
      nextFrame: () => this.navigation.firstFrame(),
      takeDialog: () => this.takeDialog(),
    };
  }

  observeEffect(_ladder: readonly Selector[]): Promise<EffectWatch | undefined> {
    if (!this.#effects) {
      const effects = new WebEffects({
        session: this.#session,
        mainFrame: () => this.navigation.mainFrameId,
        downloadsBegun: () => this.downloadsBegun(),
      });
      this.#effects = effects;
      this.navigation.roundTripAfterInput = () => effects.readAfterInput();
    }
    return this.#effects.watch();
  }

  async fill(ladder: readonly Selector[], text: string, options: TypeOptions = {}): Promise<Attempt> {
    await this.#frames.held;
    return fillField(this.#textPage(), ladder, text, options);
  }

  async typeFocused(text: string, options: TypeOptions = {}): Promise<Attempt> {
    const blocked = await this.ready();
    if (blocked) return blocked;
    return typeIntoFocus(this.#textPage(), text, options);
  }

  #textPage(): TextPage {
    return {
      session: this.#session,
      secrets: this.#secrets,
      assign: (ladder, value) => this.scoped("assignValue", { ladder: toRungs(ladder), value }),
      focus: (ladder, afterward) => this.probe(ladder, "type", undefined, afterward),
      typingLost: (length) => this.typingLost(length),
      nextFrame: () => this.navigation.firstFrame(),
      takeDialog: () => this.takeDialog(),
    };
  }

  async select(ladder: readonly Selector[], values: readonly string[], exact?: boolean): Promise<Attempt<readonly string[] | undefined>> {
    const blocked = await this.ready();
    if (blocked) return blocked;
    return selectOptions(ladder, values, exact, {
      call: (arg) => this.call<SelectAnswer>("select", arg),
      click: (at) => this.clickAt(at),
      press: (key) => pressChord(this.#session, key, []),
      type: (text) => typeOver(this.#session, text),
      nextFrame: () => this.navigation.firstFrame(),
      takeDialog: () => this.takeDialog(),
    });
  }

  holdInput(until: Promise<unknown>): boolean {
    this.#frames.hold(until);
    return true;
  }

  screenChanged(): Promise<boolean> {
    return this.#changes.changed(this.#session);
  }

  untilChange(): Promise<void> {
    return untilPageChange(this.#session);
  }

  captureFrame(): Promise<RawFrame> {
    return this.#frames.capture(this.#session, viewportOf(this.#config).device_scale_factor ?? 1);
  }

  rectsFor(targets: readonly RectTarget[]): Promise<RectsAnswer[]> {
    return this.#secrets.rectsFor(this.#session, targets);
  }

  protected async checkCookie(expect: CookieExpectation): Promise<Reading> {
    if (expect.kind !== "cookie") return readCookies(this.#session, expect);
    const { reading, warning } = await readPageCookie(this.#session, expect.name, expect.fact, expect.negate === true);
    if (reading.pass && warning) this.#log(warning);
    return reading;
  }

  async environment(): Promise<{ os: string; resolution: [number, number]; locale?: string }> {
    return readEnvironment(this.#session, this.#config, () => this.navigation.settle());
  }

  async debugSnapshot(redact?: (text: string) => string): Promise<DebugSnapshot> {
    return debugSnapshot(this.#session, this.#console, redact);
  }

  /** Where the flow ran when that is not this machine (a grid node): recorded into the trace header and the run report. */
  appInfo(): Readonly<Record<string, unknown>> {
    return this.#info ?? {};
  }

  untilClosed(): Promise<void> {
    return untilContextClosed(this.#connection, this.#contextId);
  }

  async close(): Promise<void> {
    this.#closing = true;
    for (const off of this.#offs) off();
    this.#effects?.dispose();
    this.downloadTracking?.close();
    if (!this.#connection.closed) {
      await this.#connection.send("Target.disposeBrowserContext", { browserContextId: this.#contextId }).catch(() => undefined);
    }
    await this.#onClose();
  }
}
