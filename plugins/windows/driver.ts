// The Windows AppDriver: one program's main window (and the dialogs it owns), its controls read
// through an ElementBackend, input injected through the Desktop. Every method is one attempt.
// Input goes only to the surface's own window: before each one the foreground is verified (and
// re-asked for, bounded); when another window keeps it, the attempt fails naming that window.
import type { AppDriver, Attempt, Capability, DebugSnapshot, Expectation, KeyModifier, PointerOptions, RawFrame, Reading, Rect, RectTarget, RectsAnswer, SceneInventory, Selector, TypeOptions } from "../../src/plugins/api.ts";
import { observingNothing, type EffectWatch } from "../../src/plugins/api.ts";
import { describeElement, isEditable, plainLabel, type Desktop, type ElementBackend, type TopWindow, type WinElement } from "./backend.ts";
import { clip, labelPath, matchRung, nearestTexts, textOf, wantedText, type Want } from "./match.ts";
import { anchorTexts, windowSnapshot } from "./snapshot.ts";
import { pageText, sceneOf } from "./scene.ts";
import { CALC_BUTTONS, CALC_DISPLAY_ID, NOTEPAD_EDITOR_ID, calcTypeButtons, readNumber } from "./sugar.ts";

const CAPABILITIES: ReadonlySet<Capability> = new Set<Capability>(["pointer", "keyboard", "select", "screenshot"]);
/** How many times the driver asks for its window back before an input fails. */
const FOREGROUND_TRIES = 5;
const FOREGROUND_PAUSE_MS = 100;
/** How often, and how far apart, a field is read back until typed keystrokes have landed. */
const SETTLE_READS = 20;
const SETTLE_PAUSE_MS = 50;

export type AppFlavour = "windows" | "calc" | "notepad";

export interface WindowsDriverOptions {
  readonly desktop: Desktop;
  readonly backend: ElementBackend;
  /** The program's main window, already found. */
  readonly window: TopWindow;
  readonly flavour: AppFlavour;
  /** Ends the launched program (close() calls it); absent when the driver attached to a running one. */
  readonly stop?: () => Promise<void>;
  /** The window's rectangle after `window:` was applied, recorded as applied. */
  readonly geometry?: Rect;
  readonly sleep?: (ms: number) => Promise<void>;
}

type Failed = Extract<Attempt, { ok: false }>["failed"];
type Failure = Extract<Attempt, { ok: false }>;
const fail = (failed: Failed, detail: string, retryable = true): Failure => ({ ok: false, failed, detail, retryable });
const done = (tier?: string): Attempt => (tier ? { ok: true, value: undefined, tier } : { ok: true, value: undefined });


type Found = { readonly ok: true; readonly el: WinElement; readonly tier: string; readonly window: TopWindow } | Failure;

export class WindowsDriver implements AppDriver {
  readonly capabilities = CAPABILITIES;
  /** Step effects: a desktop surface observes no kind yet (window and control changes are its only candidates), so its steps record `observes: []` and replay never judges them. */
  readonly observeEffect = async (): Promise<EffectWatch> => observingNothing();
  readonly #desktop: Desktop;
  readonly #backend: ElementBackend;
  readonly #window: TopWindow;
  readonly #flavour: AppFlavour;
  readonly #stop: (() => Promise<void>) | undefined;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #geometry: Rect | undefined;
  /** Controls a secret was typed into (refs): masked in every frame while they exist. */
  readonly #secretRefs = new Set<string>();
  /** The control each ladder last resolved to (by the ladder's JSON), with the window's controls then. */
  readonly #resolved = new Map<string, { readonly el: WinElement; readonly elements: readonly WinElement[] }>();
  #closed = false;

  constructor(options: WindowsDriverOptions) {
    this.#desktop = options.desktop;
    this.#backend = options.backend;
    this.#window = options.window;
    this.#flavour = options.flavour;
    this.#stop = options.stop;
    this.#sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.#geometry = options.geometry;
  }

  /** Facts for the trace header's app entry: the backend that resolved the steps and the geometry as applied. */
  appInfo(): Readonly<Record<string, unknown>> {
    const g = this.#geometry;
    return { backend: this.#backend.name, ...(g ? { geometry: { x: g.x, y: g.y, width: g.width, height: g.height } } : {}) };
  }

  /** The window this driver drives. */
  get window(): TopWindow {
    return this.#window;
  }

  /** Which backend resolved the steps (recorded in the trace). */
  get backendName(): string {
    return this.#backend.name;
  }

  // ---- windows and elements -------------------------------------------------------------

  /** The main window and the visible windows it owns (dialogs), the foreground one first. */
  async #windows(): Promise<TopWindow[]> {
    const all = await this.#desktop.topWindows();
    const main = all.find((w) => w.handle === this.#window.handle);
    if (!main) return [];
    const owned = all.filter((w) => w.owner === main.handle && w.visible);
    const fg = await this.#desktop.foreground();
    const first = owned.find((w) => w.handle === fg?.handle);
    return first ? [first, main, ...owned.filter((w) => w !== first)] : [main, ...owned];
  }

  async #elements(): Promise<{ window: TopWindow; elements: readonly WinElement[] }[]> {
    const out: { window: TopWindow; elements: readonly WinElement[] }[] = [];
    for (const w of await this.#windows()) out.push({ window: w, elements: (await this.#backend.elements(w)).filter((e) => e.visible) });
    return out;
  }

  /** The one control the ladder names (first rung that names any); never the first of several. */
  async #resolve(ladder: readonly Selector[], want: Want): Promise<Found> {
    if (ladder.length === 0) return fail("not-found", "the step names no control", false);
    const groups = await this.#elements();
    if (groups.length === 0) return fail("not-found", `the window ${JSON.stringify(this.#window.title)} is gone`, false);
    for (const rung of ladder) {
      if (rung.payload["css"] !== undefined) return fail("unsupported", "css selectors are web-only; a Windows control is named by `id:<AutomationId>` or its label", false);
      for (const { window, elements } of groups) {
        const matches = matchRung(elements, rung, want);
        if (matches.length === 0) continue;
        const nth = typeof rung.payload["nth"] === "number" ? rung.payload["nth"] : undefined;
        if (nth !== undefined) {
          const el = matches[nth - 1];
          if (el) return this.#found(ladder, el, rung.tier, window, elements);
          return fail("not-found", `only ${matches.length} control${matches.length === 1 ? "" : "s"} match, so there is no ${nth}th`);
        }
        if (matches.length > 1) {
          return fail("ambiguous", `${matches.length} controls match: ${matches.slice(0, 5).map((m) => `${describeElement(m)} at ${m.rect.x},${m.rect.y}`).join("; ")}; name one with an ordinal (the 2nd "…") or \`id:<AutomationId>\``, false);
        }
        return this.#found(ladder, matches[0]!, rung.tier, window, elements);
      }
    }
    const wanted = wantedText(ladder);
    const near = wanted === undefined ? [] : nearestTexts(wanted, anchorTexts(groups.flatMap((g) => g.elements)));
    return fail("not-found", `no control in ${JSON.stringify(this.#window.title)} matches${wanted === undefined ? "" : ` ${JSON.stringify(wanted)}`}${near.length > 0 ? `; nearest texts it shows: ${near.map((t) => JSON.stringify(clip(t, 40))).join(", ")}` : "; it shows no text"}`);
  }

  #found(ladder: readonly Selector[], el: WinElement, tier: string, window: TopWindow, elements: readonly WinElement[]): Found {
    this.#resolved.set(JSON.stringify(ladder), { el, elements });
    return { ok: true, el, tier, window };
  }

  /**
   * The ladder to record for a step that passed on `ladder`: the control it acted on by its
   * AutomationId (`native_id`), then by control type and name (`structural`), each only when it
   * named that one control, then the step's own rungs; undefined when the step resolved no control.
   */
  async recordedLadder(ladder: readonly Selector[]): Promise<readonly Selector[] | undefined> {
    const key = JSON.stringify(ladder);
    const hit = this.#resolved.get(key);
    this.#resolved.delete(key);
    if (!hit) return undefined;
    const { el, elements } = hit;
    const name = plainLabel(el.name);
    const live: Selector[] = [];
    if (el.automationId !== "" && elements.filter((e) => e.automationId === el.automationId).length === 1) {
      live.push({ tier: "native_id", provenance: "recorder", payload: { automation_id: el.automationId, ...(name ? { name } : {}) } });
    }
    if (name !== "" && elements.filter((e) => e.controlType === el.controlType && plainLabel(e.name) === name).length === 1) {
      live.push({ tier: "structural", provenance: "recorder", confidence: 0.7, payload: { control_type: el.controlType, name } });
    }
    const same = (a: Selector, b: Selector) => a.tier === b.tier && JSON.stringify(a.payload) === JSON.stringify(b.payload);
    const own = ladder.filter((r) => !live.some((l) => same(l, r)) && !(r.tier === "native_id" && (r.payload["id"] === el.automationId || r.payload["automation_id"] === el.automationId)));
    return live.length > 0 ? [...live, ...own] : undefined;
  }

  /**
   * Verifies (and, bounded, restores) that input goes where it is meant: `target`, the window
   * holding the control acted on; without one, this window or a dialog it owns.
   */
  async #foreground(target?: TopWindow): Promise<Attempt> {
    const ours = (w: TopWindow | undefined) => w !== undefined && (target ? w.handle === target.handle : w.handle === this.#window.handle || w.owner === this.#window.handle);
    const want = target ?? this.#window;
    let fg: TopWindow | undefined;
    for (let i = 0; i < FOREGROUND_TRIES; i++) {
      fg = await this.#desktop.foreground();
      if (ours(fg)) return done();
      await this.#desktop.bringToFront(want);
      await this.#sleep(FOREGROUND_PAUSE_MS);
    }
    fg = await this.#desktop.foreground();
    if (ours(fg)) return done();
    return fail("receives-pointer", `no input was sent: ${fg ? `the window ${JSON.stringify(fg.title)} (${fg.className}, pid ${fg.pid})` : "no window"} has the keyboard and ${JSON.stringify(want.title)} could not be brought to the front`, false);
  }

  // ---- actions -----------------------------------------------------------------------------

  /** Brings the window to the front (a multi-surface block starting on it); fails naming the window that keeps it. */
  async bringToFront(): Promise<Attempt> {
    return this.#foreground();
  }

  async navigate(): Promise<Attempt> {
    return done();
  }

  async reload(): Promise<Attempt> {
    return fail("unsupported", "`Reload the page` is not implemented for windows apps", false);
  }

  async click(ladder: readonly Selector[], options: PointerOptions): Promise<Attempt> {
    const f = await this.#resolve(ladder, "clickable");
    if (!f.ok) {
      const path = f.failed === "not-found" ? labelPath(ladder) : undefined;
      return path ? this.#clickPath(path, options) : f;
    }
    return this.#press(f, options);
  }

  /**
   * `Click "File > Save As…"`: each label of the path clicked in turn (a menu bar item, then the
   * item of the menu it opened), each after the one before it appeared (bounded). Past the first
   * label a miss is final: retrying would click the menu closed again.
   */
  async #clickPath(path: readonly string[], options: PointerOptions): Promise<Attempt> {
    for (const [i, label] of path.entries()) {
      const rung: Selector[] = [{ tier: "text_anchor", provenance: "rules", payload: { text: label } }];
      let f = await this.#resolve(rung, "clickable");
      for (let k = 0; i > 0 && !f.ok && f.retryable && k < SETTLE_READS; k++) {
        await this.#sleep(SETTLE_PAUSE_MS);
        f = await this.#resolve(rung, "clickable");
      }
      const last = i === path.length - 1;
      const r = f.ok ? await this.#press(f, last ? options : { button: "left", clickCount: 1 }) : f;
      if (!r.ok) return { ...r, detail: `${JSON.stringify(label)} of ${path.join(" > ")}: ${r.detail}`, retryable: i === 0 && r.retryable };
    }
    return done("text_anchor");
  }

  async #press(f: Extract<Found, { ok: true }>, options: PointerOptions): Promise<Attempt> {
    if (!f.el.enabled) return fail("enabled", `${describeElement(f.el)} is disabled`);
    const fg = await this.#foreground(f.window);
    if (!fg.ok) return fg;
    // A plain click presses a button through its default action; a right- or double-click is a real
    // mouse gesture on the control (the context menu, the open-on-double-click of a list entry).
    const plain = options.button === "left" && options.clickCount === 1;
    if (plain && (f.el.controlType === "button" || f.el.controlType === "checkbox" || f.el.controlType === "radio")) await this.#backend.invoke(f.el);
    else {
      const at = options.at ?? { xPct: 50, yPct: 50 };
      await this.#desktop.click(Math.round(f.el.rect.x + (f.el.rect.width * at.xPct) / 100), Math.round(f.el.rect.y + (f.el.rect.height * at.yPct) / 100), options.button, options.clickCount);
    }
    return done(f.tier);
  }

  async hover(): Promise<Attempt> {
    return fail("unsupported", "`Hover` is not implemented for windows apps yet", false);
  }

  async fill(ladder: readonly Selector[], text: string, options?: TypeOptions): Promise<Attempt> {
    const f = await this.#resolve(ladder, "editable");
    if (!f.ok) return f;
    if (!isEditable(f.el)) return fail("editable", `${describeElement(f.el)} does not take typed text`, false);
    if (!f.el.enabled) return fail("enabled", `${describeElement(f.el)} is disabled`);
    const fg = await this.#foreground(f.window);
    if (!fg.ok) return fg;
    await this.#backend.focus(f.el);
    await this.#backend.selectAll(f.el);
    // Focus may move while the field is prepared (a dialog opening): verified again before typing.
    const again = await this.#foreground(f.window);
    if (!again.ok) return again;
    await this.#desktop.typeText(text);
    if (options?.secret) this.#secretRefs.add(f.el.ref);
    else this.#secretRefs.delete(f.el.ref);
    if (!f.el.password) {
      // Keystrokes are queued: the field is read until it holds the text, for a bounded while.
      let now = await this.#reread(f.el);
      for (let i = 0; i < SETTLE_READS && now?.value !== undefined && now.value !== text; i++) {
        await this.#sleep(SETTLE_PAUSE_MS);
        now = await this.#reread(f.el);
      }
      if (now && now.value !== undefined && now.value !== text) return fail("editable", `the field holds ${JSON.stringify(now.value)} after typing`, false);
    }
    return done(f.tier);
  }

  async typeFocused(text: string, options?: TypeOptions): Promise<Attempt> {
    if (this.#flavour === "calc") {
      const buttons = calcTypeButtons(text);
      if (typeof buttons === "string") return fail("unsupported", buttons, false);
      for (const id of buttons) {
        const r = await this.#pressById(id);
        if (!r.ok) return r;
      }
      return done("native_id");
    }
    let target: WinElement | undefined;
    let targetWindow: TopWindow | undefined;
    if (this.#flavour === "notepad") {
      const f = await this.#resolve([{ tier: "native_id", provenance: "rules", payload: { id: NOTEPAD_EDITOR_ID } }, { tier: "structural", provenance: "rules", payload: { control_type: "edit" } }], "editable");
      if (!f.ok) return f;
      target = f.el;
      targetWindow = f.window;
    }
    const fg = await this.#foreground(targetWindow);
    if (!fg.ok) return fg;
    if (target) await this.#backend.focus(target);
    await this.#desktop.typeText(text);
    if (options?.secret) {
      const focused = (await this.#elements()).flatMap((g) => g.elements).find((e) => e.focused);
      if (focused) this.#secretRefs.add(focused.ref);
    }
    return done();
  }

  async pressKey(key: string, modifiers: readonly KeyModifier[]): Promise<Attempt> {
    if (this.#flavour === "calc" && modifiers.length === 0 && CALC_BUTTONS.has(key)) return this.#pressById(CALC_BUTTONS.get(key)!);
    const fg = await this.#foreground();
    if (!fg.ok) return fg;
    await this.#desktop.pressKey(key, modifiers.map((m) => (m === "mod" ? "ctrl" : m)));
    return done();
  }

  async #pressById(id: string): Promise<Attempt> {
    const f = await this.#resolve([{ tier: "native_id", provenance: "rules", payload: { id } }], "clickable");
    if (!f.ok) return f;
    if (!f.el.enabled) return fail("enabled", `${describeElement(f.el)} is disabled`);
    const fg = await this.#foreground(f.window);
    if (!fg.ok) return fg;
    await this.#backend.invoke(f.el);
    return done(f.tier);
  }

  async select(ladder: readonly Selector[], values: readonly string[]): Promise<Attempt> {
    const f = await this.#resolve(ladder, "selectable");
    if (!f.ok) return f;
    if (f.el.controlType !== "combobox" && f.el.controlType !== "list") return fail("unsupported", `${describeElement(f.el)} is not a combo box or list box`, false);
    if (!f.el.enabled) return fail("enabled", `${describeElement(f.el)} is disabled`);
    const missing = values.filter((v) => !(f.el.items ?? []).includes(v));
    if (missing.length > 0) return fail("not-found", `${describeElement(f.el)} has no item ${JSON.stringify(missing[0])}; its items: ${(f.el.items ?? []).map((i) => JSON.stringify(i)).join(", ")}`);
    const fg = await this.#foreground(f.window);
    if (!fg.ok) return fg;
    const problem = await this.#backend.select(f.el, values);
    if (problem) return fail("unsupported", problem, false);
    const now = await this.#reread(f.el);
    if (now && !values.every((v) => now.selected?.includes(v))) return fail("stable", `${describeElement(f.el)} shows ${JSON.stringify(now.selected ?? [])} after selecting`);
    return done(f.tier);
  }

  async setChecked(ladder: readonly Selector[], checked: boolean): Promise<Attempt> {
    const f = await this.#resolve(ladder, "checkable");
    if (!f.ok) return f;
    if (f.el.checked === undefined) return fail("unsupported", `${describeElement(f.el)} is not a check box or radio button`, false);
    if (f.el.checked === checked) return done(f.tier);
    if (!f.el.enabled) return fail("enabled", `${describeElement(f.el)} is disabled`);
    const fg = await this.#foreground(f.window);
    if (!fg.ok) return fg;
    await this.#backend.invoke(f.el);
    const now = await this.#reread(f.el);
    if (now?.checked !== checked) return fail("stable", `${describeElement(f.el)} is still ${now?.checked ? "checked" : "not checked"} after clicking it`);
    return done(f.tier);
  }

  /** The control again, read now (by its ref). */
  async #reread(el: WinElement): Promise<WinElement | undefined> {
    return (await this.#elements()).flatMap((g) => g.elements).find((e) => e.ref === el.ref);
  }

  // ---- reads -------------------------------------------------------------------------------

  async readText(ladder: readonly Selector[]): Promise<Attempt<string>> {
    const f = await this.#resolve(ladder, "any");
    if (!f.ok) return f;
    if (f.el.password) return fail("unsupported", "a password field's value is never read", false);
    return { ok: true, value: textOf(f.el), tier: f.tier };
  }

  async count(ladder: readonly Selector[]): Promise<number> {
    const groups = await this.#elements();
    for (const rung of ladder) {
      const n = groups.reduce((sum, g) => sum + matchRung(g.elements, rung, "any").length, 0);
      if (n > 0) return n;
    }
    return 0;
  }

  async check(ladder: readonly Selector[], expect: Expectation): Promise<Reading> {
    if (ladder.length === 0) return this.#checkWindow(expect);
    if (expect.kind === "visible" && !expect.visible) {
      const n = await this.count(ladder);
      return { pass: n === 0, actual: n === 0 ? "absent" : "present" };
    }
    if (expect.kind === "count") {
      const n = await this.count(ladder);
      return { pass: n === expect.count, actual: `${n} matching`, };
    }
    const f = await this.#resolve(ladder, "any");
    if (!f.ok) return { pass: false, actual: f.failed === "ambiguous" ? f.detail : "absent", retryable: f.retryable };
    const el = f.el;
    const tier = f.tier;
    const reading = (pass: boolean, actual: string): Reading => ({ pass, actual, tier });
    switch (expect.kind) {
      case "visible":
        return reading(true, "present");
      case "enabled":
        return reading(el.enabled === expect.enabled, el.enabled ? "enabled" : "disabled");
      case "checked":
        if (el.checked === undefined) return { pass: false, actual: `${describeElement(el)} cannot be checked`, retryable: false };
        return reading(el.checked === expect.checked, el.checked ? "checked" : "not checked");
      case "selected":
        if (el.itemSelected === undefined) return { pass: false, actual: `${describeElement(el)} is not a tab or an item that can be selected`, retryable: false };
        return reading(el.itemSelected === expect.selected, el.itemSelected ? "selected" : "not selected");
      case "text_contains": {
        if (el.password) return { pass: false, actual: "a password field, whose value is never read", retryable: false };
        const text = textOf(el);
        return reading(text.includes(expect.text), JSON.stringify(text));
      }
      case "numeric_equals": {
        const n = readNumber(textOf(el));
        return reading(n !== undefined && Math.abs(n - expect.value) < 1e-9, JSON.stringify(textOf(el)));
      }
      case "empty": {
        if (el.password) return { pass: false, actual: "a password field, whose value is never read", retryable: false };
        const empty = (el.value ?? "") === "";
        return reading(empty === expect.empty, empty ? "empty" : JSON.stringify(el.value));
      }
      default:
        return { pass: false, actual: `\`${expect.kind}\` cannot be checked on a Windows control`, retryable: false };
    }
  }

  async #checkWindow(expect: Expectation): Promise<Reading> {
    const current = (await this.#desktop.topWindows()).find((w) => w.handle === this.#window.handle);
    if (!current) return { pass: false, actual: `the window ${JSON.stringify(this.#window.title)} is gone`, retryable: false };
    switch (expect.kind) {
      case "title":
        return { pass: expect.op === "equals" ? current.title === expect.value : current.title.includes(expect.value), actual: `titled ${JSON.stringify(current.title)}` };
      case "text_contains":
      case "text_absent": {
        const text = await this.#windowText(current);
        const needle = expect.text;
        if (expect.kind === "text_absent") return { pass: !text.includes(needle), actual: clip(text) };
        const times = text.split(needle).length - 1;
        return { pass: expect.count === undefined ? times > 0 : times === expect.count, actual: clip(text) };
      }
      default:
        return { pass: false, actual: `\`${expect.kind}\` cannot be checked on a Windows app`, retryable: false };
    }
  }

  /** What the window shows: its title and every visible control's name and value (never a password). */
  async #windowText(main: TopWindow): Promise<string> {
    return pageText(main, await this.#elements());
  }

  /** The window's visible controls as text, and the texts a step could name (for "did you mean"). */
  async debugSnapshot(redact?: (text: string) => string): Promise<DebugSnapshot> {
    return windowSnapshot(await this.#elements(), redact);
  }

  // ---- frames ------------------------------------------------------------------------------

  async captureFrame(): Promise<RawFrame> {
    const shot = await this.#desktop.capture(this.#window);
    return { png: shot.png };
  }

  async rectsFor(targets: readonly RectTarget[]): Promise<RectsAnswer[]> {
    const origin = await this.#desktop.windowRect(this.#window);
    const all = (await this.#elements()).flatMap((g) => g.elements);
    const rel = (r: Rect): Rect => ({ x: r.x - origin.x, y: r.y - origin.y, width: r.width, height: r.height });
    return targets.map((t): RectsAnswer => {
      if ("secretFields" in t) {
        return { ok: true, rects: all.filter((e) => e.password || this.#secretRefs.has(e.ref)).map((e) => rel(e.rect)) };
      }
      if ("passwordFields" in t) return { ok: true, rects: all.filter((e) => e.password).map((e) => rel(e.rect)) };
      if ("css" in t) {
        return { ok: false, detail: `css rule ${JSON.stringify(t.css)} cannot be resolved on a Windows app (use a rect rule)` };
      }
      return { ok: true, rects: all.filter((e) => plainLabel(e.name).includes(t.text) || (!e.password && (e.value ?? "").includes(t.text))).map((e) => rel(e.rect)) };
    });
  }

  // ---- model authoring ---------------------------------------------------------------------

  async scene(): Promise<SceneInventory> {
    const groups = await this.#elements();
    return sceneOf(groups[0]?.window ?? this.#window, groups);
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  async environment(): Promise<{ os: string; resolution: [number, number] }> {
    return { os: "windows", resolution: await this.#desktop.screenSize() };
  }

  async untilClosed(): Promise<void> {
    for (;;) {
      const alive = (await this.#desktop.topWindows()).some((w) => w.handle === this.#window.handle);
      if (!alive) return;
      await this.#sleep(500);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#stop?.();
  }
}
