// A window seen only through its pixels, as a surface of the one desktop driver: its element
// backend reads the window's OCR lines as text controls and answers a rung the vision way (a text
// names the start of a line, in four tiers; a field is the input box its label names), says what
// is at a missed rung's recorded place now, waits until a target holds still before an act, and
// records the text with its box. Its surface sends real pointer and keyboard input through the
// Screen, which verifies the window is the input target before every input.
import type { Attempt, Capability, KeyModifier, PointerOptions, RawFrame, Rect, Selector, TextAnchorPayload } from "../../src/plugins/api.ts";
import { cssOf, payloadOf } from "../../src/plugins/api.ts";
import type { DesktopSurface, ElementBackend, ElementView, Failure, Found, SurfaceWindows, Want } from "../desktop/backend.ts";
import type { DesktopElement, SurfaceWindow } from "../desktop/element.ts";
import { encodeFramePng, frameHash, regionHash } from "./frame.ts";
import { findText, textInside, type TextMatch } from "./scene.ts";
import { sceneInventory } from "./scene-tokens.ts";
import type { InputAnswer, Screen, ScreenWindow } from "./screen.ts";
import { secretRects, type SecretField } from "./secrets.ts";
import { visionSnapshot } from "./snapshot.ts";
import { anchorOf, missDetail, shownBy } from "./target.ts";
import { showsFuzzy } from "./text.ts";
import { WindowReader, type TextReader, type View } from "./view.ts";

const CAPABILITIES: ReadonlySet<Capability> = new Set<Capability>(["pointer", "keyboard", "screenshot"]);
/** After typing, how long the field may take to show the text (through a remote-desktop viewer too). */
const TYPE_SETTLE_MS = 3_000;
const SETTLE_PAUSE_MS = 50;
/** How long a masked field a secret was typed into must hold still before the fill is done. */
const SECRET_SETTLE_MS = 500;
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

export interface VisionSurfaceOptions {
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

/** What a made element stands for: the text matched on one view, the rung that named it, the field its label names. */
interface Placed {
  readonly view: View;
  readonly match: TextMatch;
  readonly rung: Selector;
  readonly text: string;
  readonly nth?: number;
  readonly field?: Rect;
}

const fail = (failed: Failure["failed"], detail: string, retryable = true): Failure => ({ ok: false, failed, detail, retryable });
const done = (tier?: string): Attempt => (tier ? { ok: true, value: undefined, tier } : { ok: true, value: undefined });
const fromInput = (a: Extract<InputAnswer, { ok: false }>): Failure => fail(a.failed, a.detail, a.failed !== "unsupported");
const at = (box: Rect, pct?: PointerOptions["at"]) => ({
  x: Math.round(box.x + (box.width * (pct?.xPct ?? 50)) / 100),
  y: Math.round(box.y + (box.height * (pct?.yPct ?? 50)) / 100),
});
const where = (r: Rect): string => `${r.x},${r.y}`;

export class VisionSurface implements DesktopSurface {
  readonly capabilities = CAPABILITIES;
  readonly what = "a vision app";
  readonly nativeIdHint = "the text it shows";
  readonly recordedIdKey = "id";
  readonly goneTitle: string;
  readonly screen: Screen;
  readonly window: ScreenWindow;
  readonly reader: WindowReader;
  readonly #geometry: Rect;
  readonly #pinned: boolean;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #onClose: (() => Promise<void>) | undefined;
  /** Fields a secret was typed into, and the secrets typed: masked in every frame. Never logged. */
  readonly #secretFields: SecretField[] = [];
  readonly #secrets = new Set<string>();
  /** The field the last fill or click went to (where `typeFocused` types). */
  #focusedField: SecretField | undefined;
  /** The view the backend last read. */
  #view: View | undefined;
  /** What each element made for a match stands for. */
  readonly #placed = new WeakMap<DesktopElement, Placed>();
  #png: { readonly hash: string; readonly png: Uint8Array } | undefined;

  constructor(options: VisionSurfaceOptions) {
    this.screen = options.screen;
    this.window = options.window;
    this.goneTitle = options.window.title;
    this.reader = new WindowReader(options.screen, options.window, options.ocr);
    this.#geometry = options.geometry;
    this.#pinned = options.pinned;
    this.#sleep = options.sleep ?? ((ms) => Bun.sleep(ms));
    this.#onClose = options.onClose;
  }

  // ---- the element backend: OCR lines, matched the vision way ---------------------------------

  readonly backend: ElementBackend = {
    name: "ocr",
    canSearch: async () => true,
    elements: async () => {
      const view = await this.reader.look();
      this.#view = view;
      return view.scene.lines.map((l, i): DesktopElement => ({ ...this.#control(`line:${i}`, l.box), value: l.text }));
    },
    focus: async () => undefined,
    selectAll: async () => undefined,
    invoke: async () => undefined,
    select: async () => "a vision app shows no lists it can name",
    matchRung: (_elements, rung, want) => this.#match(rung, want),
    describe: (el) => JSON.stringify(this.#placed.get(el)?.match.line.text ?? el.value ?? ""),
    missed: (ladder) => this.#missed(ladder),
    ready: (found) => this.#ready(found),
    recordedRungs: (found) => this.#recorded(found),
    reads: new Set(["visible", "text_contains", "text_absent", "empty", "numeric_equals"]),
    secretRects: async (t) => {
      const view = await this.reader.look();
      return "typed" in t ? secretRects(view, this.#secretFields, [...this.#secrets]) : secretRects(view, [], t.shown);
    },
    shownText: () => this.#view?.scene.text ?? "",
    scene: async (main) => sceneInventory(await this.#stillView(), main.title, [...this.#secrets], this.#secretFields),
    snapshot: (_groups, redact) => (this.#view ? visionSnapshot(this.#view, this.window.title, redact) : { dom: "", console: [], anchors: [] }),
  };

  #control(ref: string, rect: Rect): DesktopElement {
    return { ref, name: "", controlType: "text", automationId: "", rect, enabled: true, visible: true, focused: false, password: false };
  }

  /** The places a text rung names on the view just read (see scene.ts `findText`); a field rung names the input box its label names. */
  #match(rung: Selector, want: Want): readonly DesktopElement[] | Failure | undefined {
    const view = this.#view;
    const anchor = anchorOf(rung);
    if (!anchor) return cssOf(rung) !== undefined ? undefined : [];
    if (!view) return [];
    const matches = findText(view.scene, anchor.text);
    const field = want === "editable" || anchor.role === "field";
    // Only the place that will be acted on is asked for its field (a field search scans pixels).
    const chosen = anchor.nth !== undefined ? matches[anchor.nth - 1] : matches.length === 1 ? matches[0] : undefined;
    return matches
      .map((match, i): DesktopElement | Failure => {
        const placed = { view, match, rung, text: anchor.text, ...(anchor.nth !== undefined ? { nth: anchor.nth } : {}) };
        const ref = `text:${match.line.box.x},${match.line.box.y}:${match.wordCount}`;
        if (field && match === chosen) {
          const f = view.field(match.box);
          if (!f.ok) return fail("not-found", `${JSON.stringify(anchor.text)} is at ${where(match.box)}, but ${f.detail}`);
          const el: DesktopElement = {
            ...this.#control(`${ref}:field`, f.box),
            controlType: "edit",
            get value() {
              return textInside(view.scene, f.box);
            },
          };
          this.#placed.set(el, { ...placed, field: f.box });
          return el;
        }
        const el: DesktopElement = {
          ...this.#control(`${ref}:${i}`, match.box),
          get value() {
            return shownBy(view, { ok: true, match, box: match.box, rung, text: anchor.text });
          },
        };
        this.#placed.set(el, placed);
        return el;
      })
      .reduce<DesktopElement[] | Failure>((out, e) => ("ok" in out ? out : "ok" in e ? e : [...out, e]), []);
  }

  /** A miss: the first text rung's text, what is at its recorded place now and the nearest texts; a ladder without one is refused. */
  #missed(ladder: readonly Selector[]): Failure {
    const view = this.#view;
    for (const rung of ladder) {
      const anchor = anchorOf(rung);
      if (anchor && view) return fail("not-found", missDetail(view.scene, anchor.text, anchor.box));
    }
    if (ladder.length === 0) return fail("not-found", "the step names no text", false);
    const tiers = [...new Set(ladder.map((r) => (cssOf(r) !== undefined ? "css" : r.tier)))].join(", ");
    return fail(
      "unsupported",
      `a vision app is seen only as text; it cannot resolve ${tiers} targets: name what the window shows, e.g. \`Click "Save"\``,
      false,
    );
  }

  /** The text itself must hold still between the reading and the act (a field's own box may hold a blinking caret). */
  async #ready(found: Found): Promise<Failure | undefined> {
    const placed = this.#placed.get(found.el);
    if (!placed) return undefined;
    const anchor = placed.match.box;
    const region = {
      x: anchor.x - STABLE_MARGIN,
      y: anchor.y - STABLE_MARGIN,
      width: anchor.width + 2 * STABLE_MARGIN,
      height: anchor.height + 2 * STABLE_MARGIN,
    };
    const before = placed.view.frame;
    const now = await this.reader.frameNow();
    if (now.width !== before.width || now.height !== before.height || regionHash(now, region) !== regionHash(before, region))
      return fail("stable", `the window was still changing around ${JSON.stringify(placed.text)} at ${anchor.x},${anchor.y}`);
    return undefined;
  }

  /** The text anchor a step resolved, with its box relative to the window and the window's size then. */
  #recorded(found: Found): readonly Selector[] | undefined {
    const placed = this.#placed.get(found.el);
    if (!placed) return undefined;
    const b = placed.match.box;
    const anchor = payloadOf(placed.rung, "text_anchor") ?? { text: placed.text };
    const payload: TextAnchorPayload = {
      ...anchor,
      box: { x: b.x, y: b.y, width: b.width, height: b.height },
      window: { width: placed.view.frame.width, height: placed.view.frame.height },
      ...(placed.field ? { field_box: { ...placed.field } } : {}),
    };
    return [{ tier: "text_anchor", provenance: "recorder", payload }];
  }

  // ---- the surface: the window, real input, frames -----------------------------------------

  async windows(): Promise<SurfaceWindows | undefined> {
    const now = (await this.screen.windows()).find((w) => w.id === this.window.id);
    if (!now) return undefined;
    const main: SurfaceWindow = { handle: now.id, title: now.title, className: "", pid: 0, visible: true };
    return { main, shown: [main] };
  }

  /** Facts for the trace header's app entry: the window, the geometry as applied, the OCR engine. */
  appInfo(): Readonly<Record<string, unknown>> {
    const g = this.#geometry;
    return {
      window_title: this.window.title,
      platform: this.screen.platform,
      geometry: { x: g.x, y: g.y, width: g.width, height: g.height },
      geometry_pinned: this.#pinned,
      ocr: OCR_INFO,
    };
  }

  /** The flow's start: a vision flow has no start page (the engine passes `about:blank`), so there is nothing to open. */
  async navigate(url: string): Promise<Attempt> {
    if (url === "" || url === "about:blank") return done();
    return fail("unsupported", "a vision app attaches to a window that is already open; it never navigates", false);
  }

  /** An `apps:` block starting on this surface: the window is raised and given the keyboard, verified. */
  async bringToFront(): Promise<Attempt> {
    const r = await this.screen.activate(this.window);
    return r.ok ? done() : fromInput(r);
  }

  async reload(): Promise<Attempt> {
    return fail("unsupported", "`Reload the page` cannot be done on a window seen only as pixels: it has no page to reload", false);
  }

  async click(found: Found, options: PointerOptions): Promise<Attempt> {
    const p = at(found.el.rect, options.at);
    const sent = await this.screen.click(this.window, p.x, p.y, options.button, options.clickCount);
    if (!sent.ok) return fromInput(sent);
    await this.#settle();
    const placed = this.#placed.get(found.el);
    const field = placed?.view.field(placed.match.box);
    this.#focusedField = placed && field?.ok ? { anchor: placed.text, box: field.box } : undefined;
    return done("text_anchor");
  }

  async hover(ladder: readonly Selector[], view: ElementView): Promise<Attempt> {
    const f = await view.resolve(ladder, "any");
    if (!f.ok) return f;
    const p = at(f.el.rect);
    const sent = await this.screen.hover(this.window, p.x, p.y);
    return sent.ok ? done("text_anchor") : fromInput(sent);
  }

  /**
   * Clicks into the field the label names, selects its line (End, Shift+Home) and types `text`;
   * done once the field shows the text (OCR, allowing its misreadings), or, for a field that shows
   * something else (a masked field), once the field's pixels changed: for a secret once they
   * changed and held still for SECRET_SETTLE_MS, for any other text after TYPE_SETTLE_MS.
   */
  async fill(found: Found, text: string, secret: boolean): Promise<Attempt> {
    const placed = this.#placed.get(found.el);
    const box = found.el.rect;
    const label = placed?.text ?? "";
    const field: SecretField = { anchor: label, ...(placed?.nth !== undefined ? { nth: placed.nth } : {}), box };
    const before = regionHash(placed?.view.frame ?? (await this.reader.frameNow()), box);
    const p = at(box);
    for (const step of [
      () => this.screen.click(this.window, p.x, p.y, "left", 1),
      async () => {
        await this.#settle();
        return this.screen.pressKey(this.window, "End", []);
      },
      () => this.screen.pressKey(this.window, "Home", ["shift"]),
    ]) {
      const sent = await step();
      if (!sent.ok) return fromInput(sent);
    }
    this.#focusedField = field;
    const typed = await this.#type(text, secret);
    if (!typed.ok) return typed;
    if (text === "") return done("text_anchor");
    let last: string | undefined;
    let stillSince = 0;
    for (let waited = 0; ; waited += SETTLE_PAUSE_MS) {
      const view = await this.reader.look();
      if (showsFuzzy(textInside(view.scene, box), text)) return done("text_anchor");
      const now = regionHash(view.frame, box);
      if (now !== last) stillSince = waited;
      last = now;
      // A secret usually goes into a masked field, which never shows it: once the field's pixels
      // changed and then held still for SECRET_SETTLE_MS (keystrokes a remote desktop forwards
      // arrive in bursts), the keystrokes have landed.
      if (secret && now !== before && waited - stillSince >= SECRET_SETTLE_MS) return done("text_anchor");
      if (waited >= TYPE_SETTLE_MS) {
        if (now !== before) return done("text_anchor");
        // Retryable: a fill selects the field's line before typing, so typing again is safe.
        return fail("editable", `the field of ${JSON.stringify(label)} did not change within ${TYPE_SETTLE_MS} ms of typing into it`);
      }
      await this.#sleep(SETTLE_PAUSE_MS);
    }
  }

  /**
   * The view once the window's pixels held still from one look to the next (bounded by
   * POINTER_SETTLE_MAX_MS): what a model grounds on is never a picture caught while it changed
   * (a repaint half-way, a remote desktop's update still arriving). A still window costs one capture.
   */
  async #stillView(): Promise<View> {
    let view = this.#view ?? (await this.reader.look());
    for (let waited = 0; waited < POINTER_SETTLE_MAX_MS; waited += SETTLE_PAUSE_MS) {
      await this.#sleep(SETTLE_PAUSE_MS);
      const next = await this.reader.look();
      if (next.hash === view.hash) break;
      view = next;
    }
    this.#view = view;
    return view;
  }

  /** Waits (bounded) until the window's pixels held still for POINTER_SETTLE_MS. */
  async #settle(): Promise<void> {
    let last = await this.reader.hashNow();
    let still = 0;
    for (let waited = 0; waited < POINTER_SETTLE_MAX_MS && still < POINTER_SETTLE_MS; waited += SETTLE_PAUSE_MS) {
      await this.#sleep(SETTLE_PAUSE_MS);
      const now = await this.reader.hashNow();
      still = now === last ? still + SETTLE_PAUSE_MS : 0;
      last = now;
    }
  }

  async typeFocused(text: string, secret: boolean): Promise<Attempt> {
    return this.#type(text, secret);
  }

  async #type(text: string, secret: boolean): Promise<Attempt> {
    // Remembered before the keystrokes, so no frame taken while they land shows the secret.
    if (secret) {
      if (text !== "") this.#secrets.add(text);
      if (this.#focusedField) this.#secretFields.push(this.#focusedField);
    }
    const sent = await this.screen.typeText(this.window, text);
    return sent.ok ? done() : fromInput(sent);
  }

  async pressKey(key: string, modifiers: readonly KeyModifier[]): Promise<Attempt> {
    const sent = await this.screen.pressKey(this.window, key, modifiers);
    return sent.ok ? done() : fromInput(sent);
  }

  async select(): Promise<Attempt> {
    return fail("unsupported", "a vision app shows no lists it can name: click the dropdown's text, then the option's text", false);
  }

  async setChecked(): Promise<Attempt> {
    return fail("unsupported", "a vision app cannot read a check box's state from text: click its label instead, and assert what the window shows", false);
  }

  async captureFrame(): Promise<RawFrame> {
    const frame = await this.reader.frameNow();
    const hash = frameHash(frame);
    if (this.#png?.hash !== hash) this.#png = { hash, png: encodeFramePng(frame) };
    return { png: this.#png.png };
  }

  /** Rectangles are answered in window pixels, the frame's own. */
  async frameOrigin(): Promise<{ x: number; y: number }> {
    return { x: 0, y: 0 };
  }

  async environment(): Promise<{ os: string; resolution: [number, number] }> {
    return { os: this.screen.platform === "win32" ? "windows" : "linux", resolution: await this.screen.screenSize() };
  }

  async untilClosed(): Promise<void> {
    while ((await this.screen.windows()).some((w) => w.id === this.window.id)) await this.#sleep(500);
  }

  async close(): Promise<void> {
    await this.#onClose?.();
  }
}
