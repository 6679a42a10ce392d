// The Windows surface of the desktop driver: one program's main window (and the dialogs it owns),
// its controls read through an ElementBackend (UI Automation or Win32), input injected through the
// Desktop. Input goes only to the surface's own window: before each one the foreground is verified
// (and re-asked for, bounded); when another window keeps it, the attempt fails naming that window.
// The calculator's and Notepad's sugar lives here too. Every act is one attempt.
import type { Attempt, Capability, KeyModifier, PointerOptions, RawFrame, Rect } from "../../src/plugins/api.ts";
import { DesktopDriver } from "../desktop/driver.ts";
import type { DesktopSurface, ElementBackend, ElementView, Found, SurfaceWindows } from "../desktop/backend.ts";
import { describeElement, isEditable, type DesktopElement, type SurfaceWindow } from "../desktop/element.ts";
import type { Desktop } from "./backend.ts";
import { CALC_BUTTONS, NOTEPAD_EDITOR_ID, calcTypeButtons } from "./sugar.ts";
import { TITLES, type AppFlavour } from "./grammar.ts";

export type { AppFlavour } from "./grammar.ts";

const CAPABILITIES: ReadonlySet<Capability> = new Set<Capability>(["pointer", "keyboard", "select", "screenshot"]);
/** How many times the driver asks for its window back before an input fails. */
const FOREGROUND_TRIES = 5;
const FOREGROUND_PAUSE_MS = 100;
/** How often, and how far apart, a field is read back until typed keystrokes have landed. */
const SETTLE_READS = 20;
const SETTLE_PAUSE_MS = 50;

/** Each flavour's adapter title (plugins/windows/index.ts), how messages name its surface. */

export interface WindowsDriverOptions {
  readonly desktop: Desktop;
  readonly backend: ElementBackend;
  /** The program's main window, already found. */
  readonly window: SurfaceWindow;
  readonly flavour: AppFlavour;
  /** Ends the launched program (close() calls it); absent when the driver attached to a running one. */
  readonly stop?: () => Promise<void>;
  /** The window's rectangle after `window:` was applied, recorded as applied. */
  readonly geometry?: Rect;
  readonly sleep?: (ms: number) => Promise<void>;
}

type Failure = Extract<Attempt, { ok: false }>;
const fail = (failed: Failure["failed"], detail: string, retryable = true): Failure => ({ ok: false, failed, detail, retryable });
const done = (tier?: string): Attempt => (tier ? { ok: true, value: undefined, tier } : { ok: true, value: undefined });

/** A Windows program's windows, input and frames around its element backend. */
export class WindowsSurface implements DesktopSurface {
  readonly capabilities = CAPABILITIES;
  /** How messages name it: its adapter's title. */
  get what(): string {
    return TITLES[this.#flavour];
  }
  readonly nativeIdHint = "`id:<AutomationId>`";
  readonly recordedIdKey = "automation_id";
  readonly #desktop: Desktop;
  readonly #backend: ElementBackend;
  readonly #window: SurfaceWindow;
  readonly #flavour: AppFlavour;
  readonly #stop: (() => Promise<void>) | undefined;
  readonly #geometry: Rect | undefined;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: WindowsDriverOptions) {
    this.#desktop = options.desktop;
    this.#backend = options.backend;
    this.#window = options.window;
    this.#flavour = options.flavour;
    this.#stop = options.stop;
    this.#geometry = options.geometry;
    this.#sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  get goneTitle(): string {
    return this.#window.title;
  }

  get window(): SurfaceWindow {
    return this.#window;
  }

  appInfo(): Readonly<Record<string, unknown>> {
    const g = this.#geometry;
    return { backend: this.#backend.name, ...(g ? { geometry: { x: g.x, y: g.y, width: g.width, height: g.height } } : {}) };
  }

  /** The main window and the visible windows it owns (dialogs), the foreground one first. */
  async windows(): Promise<SurfaceWindows | undefined> {
    const all = await this.#desktop.topWindows();
    const main = all.find((w) => w.handle === this.#window.handle);
    if (!main) return undefined;
    const owned = all.filter((w) => w.owner === main.handle && w.visible);
    const fg = await this.#desktop.foreground();
    const first = owned.find((w) => w.handle === fg?.handle);
    return { main, shown: first ? [first, main, ...owned.filter((w) => w !== first)] : [main, ...owned] };
  }

  /**
   * Verifies (and, bounded, restores) that input goes where it is meant: `target`, the window
   * holding the control acted on; without one, this window or a dialog it owns.
   */
  async #foreground(target?: SurfaceWindow): Promise<Attempt> {
    const ours = (w: SurfaceWindow | undefined) =>
      w !== undefined && (target ? w.handle === target.handle : w.handle === this.#window.handle || w.owner === this.#window.handle);
    const want = target ?? this.#window;
    let fg: SurfaceWindow | undefined;
    for (let i = 0; i < FOREGROUND_TRIES; i++) {
      fg = await this.#desktop.foreground();
      if (ours(fg)) return done();
      await this.#desktop.bringToFront(want);
      await this.#sleep(FOREGROUND_PAUSE_MS);
    }
    fg = await this.#desktop.foreground();
    if (ours(fg)) return done();
    return fail(
      "receives-pointer",
      `no input was sent: ${fg ? `the window ${JSON.stringify(fg.title)} (${fg.className}, pid ${fg.pid})` : "no window"} has the keyboard and ${JSON.stringify(want.title)} could not be brought to the front`,
      false,
    );
  }

  // ---- acts --------------------------------------------------------------------------------

  async bringToFront(): Promise<Attempt> {
    return this.#foreground();
  }

  async navigate(): Promise<Attempt> {
    return done();
  }

  async reload(): Promise<Attempt> {
    return fail("unsupported", `\`Reload the page\` cannot be done on ${this.what}: a desktop window has no page to reload`, false);
  }

  async hover(): Promise<Attempt> {
    return fail("unsupported", `\`Hover\` cannot be done on ${this.what}: it has no hover (the \`hover\` capability)`, false);
  }

  async click(f: Found, options: PointerOptions): Promise<Attempt> {
    if (!f.el.enabled) return fail("enabled", `${describeElement(f.el)} is disabled`);
    const fg = await this.#foreground(f.window);
    if (!fg.ok) return fg;
    // A plain click presses a button through its default action; a right- or double-click is a real
    // mouse gesture on the control (the context menu, the open-on-double-click of a list entry).
    const plain = options.button === "left" && options.clickCount === 1;
    if (plain && (f.el.controlType === "button" || f.el.controlType === "checkbox" || f.el.controlType === "radio")) await this.#backend.invoke(f.el);
    else {
      const at = options.at ?? { xPct: 50, yPct: 50 };
      await this.#desktop.click(
        Math.round(f.el.rect.x + (f.el.rect.width * at.xPct) / 100),
        Math.round(f.el.rect.y + (f.el.rect.height * at.yPct) / 100),
        options.button,
        options.clickCount,
      );
    }
    return done(f.tier);
  }

  async fill(f: Found, text: string, secret: boolean, view: ElementView): Promise<Attempt> {
    if (!isEditable(f.el)) return fail("editable", `${describeElement(f.el)} does not take typed text`, false);
    if (!f.el.enabled) return fail("enabled", `${describeElement(f.el)} is disabled`);
    const fg = await this.#foreground(f.window);
    if (!fg.ok) return fg;
    await this.#backend.focus(f.el);
    await this.#backend.selectAll(f.el);
    // Focus may move while the field is prepared (a dialog opening): verified again before typing.
    const again = await this.#foreground(f.window);
    if (!again.ok) return again;
    // Nothing to type empties the field: the selection is deleted.
    if (text === "") await this.#desktop.pressKey("Delete", []);
    else await this.#desktop.typeText(text);
    view.typedInto(f.el.ref, secret);
    if (!f.el.password) {
      // Keystrokes are queued: the field is read until it holds the text, for a bounded while.
      let now = await view.reread(f.el);
      for (let i = 0; i < SETTLE_READS && now?.value !== undefined && now.value !== text; i++) {
        await this.#sleep(SETTLE_PAUSE_MS);
        now = await view.reread(f.el);
      }
      if (now && now.value !== undefined && now.value !== text) return fail("editable", `the field holds ${JSON.stringify(now.value)} after typing`, false);
    }
    return done(f.tier);
  }

  async typeFocused(text: string, secret: boolean, view: ElementView): Promise<Attempt> {
    if (this.#flavour === "calc") {
      const buttons = calcTypeButtons(text);
      if (typeof buttons === "string") return fail("unsupported", buttons, false);
      for (const id of buttons) {
        const r = await this.#pressById(id, view);
        if (!r.ok) return r;
      }
      return done("native_id");
    }
    let target: DesktopElement | undefined;
    let targetWindow: SurfaceWindow | undefined;
    if (this.#flavour === "notepad") {
      const f = await view.resolve(
        [
          { tier: "native_id", provenance: "rules", payload: { id: NOTEPAD_EDITOR_ID } },
          { tier: "structural", provenance: "rules", payload: { control_type: "edit" } },
        ],
        "editable",
      );
      if (!f.ok) return f;
      target = f.el;
      targetWindow = f.window;
    }
    const fg = await this.#foreground(targetWindow);
    if (!fg.ok) return fg;
    if (target) await this.#backend.focus(target);
    await this.#desktop.typeText(text);
    if (secret) {
      const focused = await view.focused();
      if (focused) view.typedInto(focused.ref, true);
    }
    return done();
  }

  async pressKey(key: string, modifiers: readonly KeyModifier[], view: ElementView): Promise<Attempt> {
    if (this.#flavour === "calc" && modifiers.length === 0 && CALC_BUTTONS.has(key)) return this.#pressById(CALC_BUTTONS.get(key)!, view);
    const fg = await this.#foreground();
    if (!fg.ok) return fg;
    await this.#desktop.pressKey(
      key,
      modifiers.map((m) => (m === "mod" ? "ctrl" : m)),
    );
    return done();
  }

  async #pressById(id: string, view: ElementView): Promise<Attempt> {
    const f = await view.resolve([{ tier: "native_id", provenance: "rules", payload: { id } }], "clickable");
    if (!f.ok) return f;
    if (!f.el.enabled) return fail("enabled", `${describeElement(f.el)} is disabled`);
    const fg = await this.#foreground(f.window);
    if (!fg.ok) return fg;
    await this.#backend.invoke(f.el);
    return done(f.tier);
  }

  async select(f: Found, values: readonly string[], view: ElementView): Promise<Attempt> {
    if (f.el.controlType !== "combobox" && f.el.controlType !== "list")
      return fail("unsupported", `${describeElement(f.el)} is not a combo box or list box`, false);
    if (!f.el.enabled) return fail("enabled", `${describeElement(f.el)} is disabled`);
    const missing = values.filter((v) => !(f.el.items ?? []).includes(v));
    if (missing.length > 0)
      return fail(
        "not-found",
        `${describeElement(f.el)} at ${f.el.rect.x},${f.el.rect.y} has no item ${JSON.stringify(missing[0])}; its items: ${(f.el.items ?? []).map((i) => JSON.stringify(i)).join(", ")}`,
      );
    const fg = await this.#foreground(f.window);
    if (!fg.ok) return fg;
    const problem = await this.#backend.select(f.el, values);
    if (problem) return fail("unsupported", problem, false);
    const now = await view.reread(f.el);
    if (now && !values.every((v) => now.selected?.includes(v)))
      return fail("stable", `${describeElement(f.el)} shows ${JSON.stringify(now.selected ?? [])} after selecting`);
    return done(f.tier);
  }

  async setChecked(f: Found, checked: boolean, view: ElementView): Promise<Attempt> {
    if (f.el.checked === undefined) return fail("unsupported", `${describeElement(f.el)} is not a check box or radio button`, false);
    if (f.el.checked === checked) return done(f.tier);
    if (!f.el.enabled) return fail("enabled", `${describeElement(f.el)} is disabled`);
    const fg = await this.#foreground(f.window);
    if (!fg.ok) return fg;
    await this.#backend.invoke(f.el);
    const now = await view.reread(f.el);
    if (now?.checked !== checked) return fail("stable", `${describeElement(f.el)} is still ${now?.checked ? "checked" : "not checked"} after clicking it`);
    return done(f.tier);
  }

  // ---- frames and lifecycle ----------------------------------------------------------------

  async captureFrame(): Promise<RawFrame> {
    const shot = await this.#desktop.capture(this.#window);
    return { png: shot.png };
  }

  async frameOrigin(): Promise<{ x: number; y: number }> {
    const r = await this.#desktop.windowRect(this.#window);
    return { x: r.x, y: r.y };
  }

  async environment(): Promise<{ os: string; resolution: [number, number] }> {
    return { os: "windows", resolution: await this.#desktop.screenSize() };
  }

  async close(): Promise<void> {
    await this.#stop?.();
  }
}

/** The desktop driver over a Windows program's surface. */
export class WindowsDriver extends DesktopDriver {
  readonly #surface: WindowsSurface;

  constructor(options: WindowsDriverOptions) {
    const surface = new WindowsSurface(options);
    super({ surface, backend: options.backend, ...(options.sleep ? { sleep: options.sleep } : {}) });
    this.#surface = surface;
  }

  /** The window this driver drives. */
  get window(): SurfaceWindow {
    return this.#surface.window;
  }
}
