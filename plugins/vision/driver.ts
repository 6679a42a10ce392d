// The vision AppDriver: one window seen only through its pixels. Targets are OCR'd text (and the
// fields labels name); input is real pointer and keyboard input through the Screen, which verifies
// the window is the input target before every input. Every method is one attempt.
import type {
  AppDriver,
  Attempt,
  Candidate,
  Capability,
  DebugSnapshot,
  Expectation,
  KeyModifier,
  PointerOptions,
  RawFrame,
  Reading,
  Rect,
  RectTarget,
  RectsAnswer,
  SceneInventory,
  Selector,
  TypeOptions,
} from "../../src/plugins/api.ts";
import { observingNothing, payloadOf, type EffectWatch, type TextAnchorPayload } from "../../src/plugins/api.ts";
import { encodeFramePng, frameHash, regionHash } from "./frame.ts";
import { textInside } from "./scene.ts";
import { checkShown, checkText } from "../desktop/surface-check.ts";
import { visionSnapshot } from "./snapshot.ts";
import { sceneInventory } from "./scene-tokens.ts";
import type { InputAnswer, Screen, ScreenWindow } from "./screen.ts";
import { secretRects, type SecretField } from "./secrets.ts";
import { allMatches, anchorOf, ordinal, resolveTarget, shownBy, type Resolved, type Want } from "./target.ts";
import { collapse, showsFuzzy } from "./text.ts";
import { WindowReader, type TextReader, type View } from "./view.ts";

const CAPABILITIES: ReadonlySet<Capability> = new Set<Capability>(["pointer", "keyboard", "screenshot"]);
/** After typing, how long the field may take to show the text (through a remote-desktop viewer too). */
const TYPE_SETTLE_MS = 3_000;
const SETTLE_PAUSE_MS = 50;
/**
 * After pointer input, how long the window must hold still (and the most that is waited for it):
 * a remote-desktop link may deliver a click after keystrokes sent just behind it (x11vnc defers
 * pointer events), so keys wait until the click has had its effect.
 */
const POINTER_SETTLE_MS = 100;
const POINTER_SETTLE_MAX_MS = 1_000;
/** A target is stable when the pixels this far around it did not change between the read and the act. */
const STABLE_MARGIN = 4;
/** The engine and OCR model the scene comes from, recorded in the trace header. */
export const OCR_INFO = { engine: "tesseract.js 7", model: "eng 4.0.0_best_int", psm: "sparse text", scale: 2 } as const;

/** The launch config of a vision surface: the window it attaches to and the geometry it pins. */
export interface VisionConfig {
  /** A substring of the window's title (`window.title`). */
  readonly title: string;
  readonly width?: number;
  readonly height?: number;
  readonly x?: number;
  readonly y?: number;
}

export interface VisionDriverOptions {
  readonly screen: Screen;
  readonly window: ScreenWindow;
  readonly ocr: TextReader;
  /** The window's screen rectangle once the geometry was applied (or as found). */
  readonly geometry: Rect;
  /** Whether `geometry` was pinned by the config. */
  readonly pinned: boolean;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Called once by close() (releases the screen; the OCR engine belongs to the session). */
  readonly onClose?: () => Promise<void>;
}

type Failure = Extract<Attempt, { ok: false }>;
const fail = (failed: Failure["failed"], detail: string, retryable = true): Failure => ({ ok: false, failed, detail, retryable });
const done = (tier?: string): Attempt => (tier ? { ok: true, value: undefined, tier } : { ok: true, value: undefined });
const fromInput = (a: Extract<InputAnswer, { ok: false }>): Failure => fail(a.failed, a.detail, a.failed !== "unsupported");
const at = (box: Rect, pct?: PointerOptions["at"]) => ({
  x: Math.round(box.x + (box.width * (pct?.xPct ?? 50)) / 100),
  y: Math.round(box.y + (box.height * (pct?.yPct ?? 50)) / 100),
});

export class VisionDriver implements AppDriver {
  readonly capabilities = CAPABILITIES;
  /** A window's pixels show no requests or file writes: vision steps observe no effects. */
  readonly observeEffect = async (): Promise<EffectWatch> => observingNothing();
  readonly #screen: Screen;
  readonly #window: ScreenWindow;
  readonly #reader: WindowReader;
  readonly #geometry: Rect;
  readonly #pinned: boolean;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #onClose: (() => Promise<void>) | undefined;
  /** Fields a secret was typed into, and the secrets typed: masked in every frame. Never logged. */
  readonly #secretFields: SecretField[] = [];
  readonly #secrets = new Set<string>();
  /** The field the last fill or click went to (where `typeFocused` types). */
  #focusedField: SecretField | undefined;
  /** What each ladder last resolved to, for recordedLadder. */
  readonly #resolved = new Map<string, { readonly target: Extract<Resolved, { ok: true }>; readonly size: readonly [number, number] }>();
  #png: { readonly hash: string; readonly png: Uint8Array } | undefined;
  #closed = false;

  constructor(options: VisionDriverOptions) {
    this.#screen = options.screen;
    this.#window = options.window;
    this.#reader = new WindowReader(options.screen, options.window, options.ocr);
    this.#geometry = options.geometry;
    this.#pinned = options.pinned;
    this.#sleep = options.sleep ?? ((ms) => Bun.sleep(ms));
    this.#onClose = options.onClose;
  }

  /** Captures and OCR runs so far (frames and OCR are reused while the pixels are unchanged). */
  get stats(): { readonly captures: number; readonly ocrRuns: number } {
    return { ...this.#reader.stats };
  }

  /** The window as found (its title when attached). */
  get window(): ScreenWindow {
    return this.#window;
  }

  /** Facts for the trace header's app entry: the window, the geometry as applied, the OCR engine. */
  appInfo(): Readonly<Record<string, unknown>> {
    const g = this.#geometry;
    return {
      window_title: this.#window.title,
      platform: this.#screen.platform,
      geometry: { x: g.x, y: g.y, width: g.width, height: g.height },
      geometry_pinned: this.#pinned,
      ocr: OCR_INFO,
    };
  }

  // ---- resolution ---------------------------------------------------------------------------

  /** Resolves on the window now, and checks the target's pixels hold still until the act. */
  async #target(ladder: readonly Selector[], want: Want): Promise<{ view: View; target: Extract<Resolved, { ok: true }> } | Failure> {
    const view = await this.#reader.look();
    const target = resolveTarget(view, ladder, want);
    if (!target.ok) return fail(target.failed, target.detail, target.retryable);
    // The text itself must hold still (a field's own box may hold a blinking caret).
    const anchor = target.match.box;
    const region = {
      x: anchor.x - STABLE_MARGIN,
      y: anchor.y - STABLE_MARGIN,
      width: anchor.width + 2 * STABLE_MARGIN,
      height: anchor.height + 2 * STABLE_MARGIN,
    };
    const now = await this.#reader.frameNow();
    if (now.width !== view.frame.width || now.height !== view.frame.height || regionHash(now, region) !== regionHash(view.frame, region)) {
      return fail("stable", `the window was still changing around ${JSON.stringify(target.text)} at ${anchor.x},${anchor.y}`);
    }
    this.#resolved.set(JSON.stringify(ladder), { target, size: [view.frame.width, view.frame.height] });
    return { view, target };
  }

  /**
   * The ladder to record for a step that passed: the text anchor it resolved, with its box
   * relative to the window and the window's size then, ahead of the step's own rungs.
   */
  async recordedLadder(ladder: readonly Selector[]): Promise<readonly Selector[] | undefined> {
    const key = JSON.stringify(ladder);
    const hit = this.#resolved.get(key);
    this.#resolved.delete(key);
    if (!hit) return undefined;
    const { target, size } = hit;
    const b = target.match.box;
    const anchor = payloadOf(target.rung, "text_anchor") ?? { text: target.text };
    const payload: TextAnchorPayload = {
      ...anchor,
      box: { x: b.x, y: b.y, width: b.width, height: b.height },
      window: { width: size[0], height: size[1] },
      ...(target.field ? { field_box: { ...target.field } } : {}),
    };
    return [{ tier: "text_anchor", provenance: "recorder", payload }, ...ladder];
  }

  // ---- actions -------------------------------------------------------------------------------

  /** The flow's start: a vision flow has no start page (the engine passes `about:blank`), so there is nothing to open. */
  async navigate(url: string): Promise<Attempt> {
    if (url === "" || url === "about:blank") return done();
    return fail("unsupported", "a vision app attaches to a window that is already open; it never navigates", false);
  }

  /** An `apps:` block starting on this surface: the window is raised and given the keyboard, verified. */
  async bringToFront(): Promise<Attempt> {
    const r = await this.#screen.activate(this.#window);
    return r.ok ? done() : fromInput(r);
  }

  async reload(): Promise<Attempt> {
    return fail("unsupported", "`Reload the page` cannot be done on a window seen only as pixels: it has no page to reload", false);
  }

  async click(ladder: readonly Selector[], options: PointerOptions): Promise<Attempt> {
    const r = await this.#target(ladder, "any");
    if ("ok" in r) return r;
    const p = at(r.target.box, options.at);
    const sent = await this.#screen.click(this.#window, p.x, p.y, options.button, options.clickCount);
    if (!sent.ok) return fromInput(sent);
    await this.#settle();
    const field = r.view.field(r.target.match.box);
    this.#focusedField = field.ok ? { anchor: r.target.text, box: field.box } : undefined;
    return done("text_anchor");
  }

  async hover(ladder: readonly Selector[]): Promise<Attempt> {
    const r = await this.#target(ladder, "any");
    if ("ok" in r) return r;
    const p = at(r.target.box);
    const sent = await this.#screen.hover(this.#window, p.x, p.y);
    return sent.ok ? done("text_anchor") : fromInput(sent);
  }

  /**
   * Clicks into the field the label names, selects its line (End, Shift+Home) and types `text`;
   * done once the field shows the text (OCR, allowing its misreadings), or, for a field that shows
   * something else (a masked field), once the field's pixels changed.
   */
  async fill(ladder: readonly Selector[], text: string, options?: TypeOptions): Promise<Attempt> {
    const r = await this.#target(ladder, "field");
    if ("ok" in r) return r;
    const box = r.target.box;
    const anchor = anchorOf(r.target.rung);
    const field: SecretField = { anchor: r.target.text, ...(anchor?.nth !== undefined ? { nth: anchor.nth } : {}), box };
    const before = regionHash(r.view.frame, box);
    const p = at(box);
    for (const step of [
      () => this.#screen.click(this.#window, p.x, p.y, "left", 1),
      async () => {
        await this.#settle();
        return this.#screen.pressKey(this.#window, "End", []);
      },
      () => this.#screen.pressKey(this.#window, "Home", ["shift"]),
    ]) {
      const sent = await step();
      if (!sent.ok) return fromInput(sent);
    }
    this.#focusedField = field;
    const typed = await this.#type(text, options);
    if (!typed.ok) return typed;
    if (text === "") return done("text_anchor");
    for (let waited = 0; ; waited += SETTLE_PAUSE_MS) {
      const view = await this.#reader.look();
      if (showsFuzzy(textInside(view.scene, box), text)) return done("text_anchor");
      if (waited >= TYPE_SETTLE_MS) {
        if (regionHash(view.frame, box) !== before) return done("text_anchor");
        // Retryable: a fill selects the field's line before typing, so typing again is safe.
        return fail("editable", `the field of ${JSON.stringify(r.target.text)} did not change within ${TYPE_SETTLE_MS} ms of typing into it`);
      }
      await this.#sleep(SETTLE_PAUSE_MS);
    }
  }

  /** Waits (bounded) until the window's pixels held still for POINTER_SETTLE_MS. */
  async #settle(): Promise<void> {
    let last = await this.#reader.hashNow();
    let still = 0;
    for (let waited = 0; waited < POINTER_SETTLE_MAX_MS && still < POINTER_SETTLE_MS; waited += SETTLE_PAUSE_MS) {
      await this.#sleep(SETTLE_PAUSE_MS);
      const now = await this.#reader.hashNow();
      still = now === last ? still + SETTLE_PAUSE_MS : 0;
      last = now;
    }
  }

  async typeFocused(text: string, options?: TypeOptions): Promise<Attempt> {
    return this.#type(text, options);
  }

  async #type(text: string, options?: TypeOptions): Promise<Attempt> {
    // Remembered before the keystrokes, so no frame taken while they land shows the secret.
    if (options?.secret) {
      if (text !== "") this.#secrets.add(text);
      if (this.#focusedField) this.#secretFields.push(this.#focusedField);
    }
    const sent = await this.#screen.typeText(this.#window, text);
    return sent.ok ? done() : fromInput(sent);
  }

  async pressKey(key: string, modifiers: readonly KeyModifier[]): Promise<Attempt> {
    const sent = await this.#screen.pressKey(this.#window, key, modifiers);
    return sent.ok ? done() : fromInput(sent);
  }

  async select(): Promise<Attempt> {
    return fail("unsupported", "a vision app shows no lists it can name: click the dropdown's text, then the option's text", false);
  }

  async setChecked(): Promise<Attempt> {
    return fail("unsupported", "a vision app cannot read a check box's state from text: click its label instead, and assert what the window shows", false);
  }

  // ---- reads ---------------------------------------------------------------------------------

  async readText(ladder: readonly Selector[]): Promise<Attempt<string>> {
    const view = await this.#reader.look();
    const target = resolveTarget(view, ladder, "any");
    if (!target.ok) return target;
    return { ok: true, value: shownBy(view, target), tier: "text_anchor" };
  }

  async count(ladder: readonly Selector[]): Promise<number> {
    return allMatches(await this.#reader.look(), ladder).length;
  }

  async candidates(ladder: readonly Selector[]): Promise<readonly Candidate[]> {
    const first = ladder[0];
    const anchor = first && anchorOf(first);
    if (!anchor || anchor.nth !== undefined) return [];
    const matches = allMatches(await this.#reader.look(), [first]);
    return matches.map((m, i) => ({ nth: i + 1, what: `${ordinal(i + 1)} ${JSON.stringify(m.line.text)} at ${m.box.x},${m.box.y}` }));
  }

  async check(ladder: readonly Selector[], expect: Expectation): Promise<Reading> {
    const view = await this.#reader.look();
    if (ladder.length === 0) return this.#checkWindow(view, expect);
    if (expect.kind === "count" || (expect.kind === "visible" && !expect.visible)) {
      const n = allMatches(view, ladder).length;
      if (expect.kind === "count") return { pass: n === expect.count, actual: `${n} matching` };
      return { pass: n === 0, actual: n === 0 ? "absent" : "present" };
    }
    const target = resolveTarget(view, ladder, "any");
    if (!target.ok) return { pass: false, actual: target.detail, retryable: target.retryable };
    if (expect.kind === "visible") return { pass: true, actual: "present", tier: "text_anchor" };
    const reading = checkText(shownBy(view, target), expect, "text_anchor");
    return reading ?? { pass: false, actual: `\`${expect.kind}\` cannot be read from a window's pixels`, retryable: false };
  }

  /** A check of the whole window: the desktop kit's one rule for titles and what a surface shows. */
  async #checkWindow(view: View, expect: Expectation): Promise<Reading> {
    const now = expect.kind === "title" ? (await this.#screen.windows()).find((w) => w.id === this.#window.id) : this.#window;
    if (!now) return { pass: false, actual: `the window ${JSON.stringify(this.#window.title)} is gone`, retryable: false };
    const reading = checkShown({ title: now.title, text: view.scene.text }, expect);
    return reading ?? { pass: false, actual: `\`${expect.kind}\` cannot be checked on a vision app`, retryable: false };
  }

  // ---- frames --------------------------------------------------------------------------------

  async captureFrame(): Promise<RawFrame> {
    const frame = await this.#reader.frameNow();
    const hash = frameHash(frame);
    if (this.#png?.hash !== hash) this.#png = { hash, png: encodeFramePng(frame) };
    return { png: this.#png.png };
  }

  async rectsFor(targets: readonly RectTarget[]): Promise<RectsAnswer[]> {
    const view = await this.#reader.look();
    return targets.map((t): RectsAnswer => {
      if ("secretFields" in t) return { ok: true, rects: secretRects(view, this.#secretFields, [...this.#secrets]) };
      // Every line that shows a secret of the run's (allowing OCR's misreadings), typed here or not.
      if ("secretText" in t) return { ok: true, rects: secretRects(view, [], t.secretText) };
      // Pixels do not say which field holds a password: none is known; a typed secret is masked above.
      if ("passwordFields" in t) return { ok: true, rects: [] };
      if ("css" in t) {
        return { ok: false, detail: `css rule ${JSON.stringify(t.css)} cannot be resolved on a vision app (use a rect rule, or a text rule resolved by OCR)` };
      }
      const want = collapse(t.text);
      return { ok: true, rects: view.scene.lines.filter((l) => want !== "" && collapse(l.text).includes(want)).map((l) => l.box) };
    });
  }

  async screenChanged(): Promise<boolean> {
    return this.#reader.changed();
  }

  async pointFor(ladder: readonly Selector[], pct?: PointerOptions["at"]): Promise<{ readonly x: number; readonly y: number } | undefined> {
    const target = resolveTarget(await this.#reader.look(), ladder, "any");
    return target.ok ? at(target.box, pct) : undefined;
  }

  // ---- model authoring and debugging ---------------------------------------------------------

  async scene(): Promise<SceneInventory> {
    return sceneInventory(await this.#reader.look(), this.#window.title, [...this.#secrets], this.#secretFields);
  }

  /** What OCR saw (lines, boxes, confidences, the field each label names), for a failed step's debug files. */
  async debugSnapshot(redact?: (text: string) => string): Promise<DebugSnapshot> {
    return visionSnapshot(await this.#reader.look(), this.#window.title, redact);
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  async environment(): Promise<{ os: string; resolution: [number, number] }> {
    return { os: this.#screen.platform === "win32" ? "windows" : "linux", resolution: await this.#screen.screenSize() };
  }

  async untilClosed(): Promise<void> {
    while ((await this.#screen.windows()).some((w) => w.id === this.#window.id)) await this.#sleep(500);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#onClose?.();
  }
}
