// The one desktop AppDriver: a surface's windows (the main one and the dialogs it shows), their
// controls read through an ElementBackend, its acts done by the DesktopSurface. Resolution, checks,
// counts, masks, the scene and the debug snapshot are written here once, so a check, a count or a
// mask means the same on every desktop surface (Windows through UI Automation or Win32, SAP GUI
// Scripting). Every method is one attempt.
import type {
  AppDriver,
  Attempt,
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
import { cssOf, nativeIdOf, observingNothing, type EffectWatch } from "../../src/plugins/api.ts";
import type { DesktopSurface, ElementBackend, ElementView, Found, Want } from "./backend.ts";
import { describeElement, plainLabel, type DesktopElement, type SurfaceWindow, type WindowElements } from "./element.ts";
import { cellMiss, clip, closestId, labelPath, matchRung, nearestTexts, textOf, wantedId, wantedText } from "./match.ts";
import { anchorTexts, windowSnapshot } from "./snapshot.ts";
import { pageText, sceneOf } from "./scene.ts";
import { checkShown, checkText } from "./surface-check.ts";
import { ordinal, showsAny } from "./text.ts";

/** How often, and how far apart, a path's next label is looked for after the one before it was clicked. */
const PATH_READS = 20;
const PATH_PAUSE_MS = 50;
/** What a password field answers in place of its value. */
export const PASSWORD_UNREAD = "a password field is never read";

export interface DesktopDriverOptions {
  readonly surface: DesktopSurface;
  readonly backend: ElementBackend;
  readonly sleep?: (ms: number) => Promise<void>;
}

type Failure = Extract<Attempt, { ok: false }>;
const fail = (failed: Failure["failed"], detail: string, retryable = true): Failure => ({ ok: false, failed, detail, retryable });
const done = (tier?: string): Attempt => (tier ? { ok: true, value: undefined, tier } : { ok: true, value: undefined });

/** What one reading of the surface holds: its main window and each shown window's visible controls. */
interface Screen {
  readonly main: SurfaceWindow;
  readonly groups: readonly WindowElements[];
}

export class DesktopDriver implements AppDriver {
  readonly capabilities;
  /** Step effects: a desktop surface observes no kind yet (window and control changes are its only candidates), so its steps record `observes: []` and replay never judges them. */
  readonly observeEffect = async (): Promise<EffectWatch> => observingNothing();
  protected readonly surface: DesktopSurface;
  readonly #backend: ElementBackend;
  readonly #sleep: (ms: number) => Promise<void>;
  /** Controls a secret was typed into (refs): masked in every frame while they exist. */
  readonly #secretRefs = new Set<string>();
  /** The control each ladder last resolved to (by the ladder's JSON), with the window's controls then. */
  readonly #resolved = new Map<string, { readonly found: Found; readonly elements: readonly DesktopElement[] }>();
  readonly #view: ElementView;
  #closed = false;

  constructor(options: DesktopDriverOptions) {
    this.surface = options.surface;
    this.#backend = options.backend;
    this.capabilities = options.surface.capabilities;
    this.#sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.#view = {
      resolve: (ladder, want) => this.#resolveToAct(ladder, want),
      reread: async (el) => (await this.#read())?.groups.flatMap((g) => g.elements).find((e) => e.ref === el.ref),
      focused: async () => (await this.#read())?.groups.flatMap((g) => g.elements).find((e) => e.focused),
      typedInto: (ref, secret) => {
        if (secret) this.#secretRefs.add(ref);
        else this.#secretRefs.delete(ref);
      },
    };
  }

  /** Which backend resolved the steps. */
  get backendName(): string {
    return this.#backend.name;
  }

  /** Facts for the trace header's app entry (a Windows app's backend and geometry as applied). */
  appInfo(): Readonly<Record<string, unknown>> {
    return this.surface.appInfo?.() ?? {};
  }

  // ---- reading and resolving ---------------------------------------------------------------

  /** The surface now: every shown window's visible controls; undefined once the main window is gone. */
  async #read(): Promise<Screen | undefined> {
    const windows = await this.surface.windows();
    if (!windows) return undefined;
    const groups: WindowElements[] = [];
    for (const w of windows.shown) groups.push({ window: w, elements: (await this.#backend.elements(w)).filter((e) => e.visible) });
    return { main: windows.main, groups };
  }

  /** What an act needs: the control the ladder names, once the backend says it is ready to be acted on. */
  async #resolveToAct(ladder: readonly Selector[], want: Want): Promise<Found | Failure> {
    const f = await this.#resolve(ladder, want);
    if (!f.ok || !this.#backend.ready) return f;
    return (await this.#backend.ready(f)) ?? f;
  }

  /** The controls one rung names in one window's controls: the backend's own rule when it has one, else the kit's. */
  #match(elements: readonly DesktopElement[], rung: Selector, want: Want): readonly DesktopElement[] | Failure {
    return this.#backend.matchRung?.(elements, rung, want) ?? matchRung(elements, rung, want);
  }

  async #resolve(ladder: readonly Selector[], want: Want): Promise<Found | Failure> {
    if (ladder.length === 0) return fail("not-found", "the step names no control", false);
    const screen = await this.#read();
    if (!screen) return fail("not-found", `the window ${JSON.stringify(this.surface.goneTitle)} is gone`, false);
    for (const rung of ladder) {
      const own = this.#backend.matchRung ? screen.groups.map((g) => this.#backend.matchRung!(g.elements, rung, want)) : [];
      const refused = own.find((m): m is Failure => m !== undefined && "ok" in m);
      if (refused) return refused;
      if (cssOf(rung) !== undefined && own.every((m) => m === undefined))
        return fail(
          "unsupported",
          `a css selector cannot be used on ${this.surface.what}: it has no CSS selectors; a control is named by ${this.surface.nativeIdHint} or its label`,
          false,
        );
      for (const [g, { window, elements }] of screen.groups.entries()) {
        const matches = (own[g] as readonly DesktopElement[] | undefined) ?? matchRung(elements, rung, want);
        if (matches.length === 0) continue;
        const nth = rung.payload.nth;
        if (nth !== undefined) {
          const el = matches[nth - 1];
          if (el) return this.#found(ladder, el, rung, window, elements);
          return fail("not-found", `only ${matches.length} control${matches.length === 1 ? "" : "s"} match, so there is no ${ordinal(nth)}`);
        }
        if (matches.length > 1) {
          return fail(
            "ambiguous",
            `${matches.length} controls match: ${matches
              .slice(0, 5)
              .map((m) => `${(this.#backend.describe ?? describeElement)(m)} at ${m.rect.x},${m.rect.y}`)
              .join("; ")}; name one with an ordinal (the 2nd "…") or ${this.surface.nativeIdHint}`,
            false,
          );
        }
        return this.#found(ladder, matches[0]!, rung, window, elements);
      }
    }
    return (
      this.#backend.missed?.(
        ladder,
        screen.groups.flatMap((g) => g.elements),
      ) ?? fail("not-found", this.#missed(ladder, screen))
    );
  }

  /** A miss's message: what was wanted, the closest id when it looks like a typo, the nearest texts shown. */
  #missed(ladder: readonly Selector[], screen: Screen): string {
    const all = screen.groups.flatMap((g) => g.elements);
    const cell = cellMiss(ladder, all);
    if (cell !== undefined) return cell;
    const wanted = wantedText(ladder);
    const id = wantedId(ladder);
    const typo =
      id === undefined
        ? undefined
        : closestId(
            id,
            all.map((e) => e.automationId),
          );
    const near = wanted === undefined ? [] : nearestTexts(wanted, anchorTexts(all));
    return `no control in ${JSON.stringify(screen.main.title)} matches${wanted === undefined ? "" : ` ${JSON.stringify(wanted)}`}${typo === undefined ? "" : `; did you mean ${JSON.stringify(typo)}?`}${near.length > 0 ? `; nearest texts it shows: ${near.map((t) => JSON.stringify(clip(t, 40))).join(", ")}` : "; it shows no text"}`;
  }

  #found(ladder: readonly Selector[], el: DesktopElement, rung: Selector, window: SurfaceWindow, elements: readonly DesktopElement[]): Found {
    const found: Found = { ok: true, el, tier: rung.tier, window, rung };
    this.#resolved.set(JSON.stringify(ladder), { found, elements });
    return found;
  }

  /**
   * The ladder to record for a step that passed on `ladder`: the control it acted on by its native
   * id (`native_id`), then by control type and name (`structural`), each only when it named that
   * one control, then the step's own rungs; undefined when the step resolved no control or a
   * table cell.
   */
  async recordedLadder(ladder: readonly Selector[]): Promise<readonly Selector[] | undefined> {
    const key = JSON.stringify(ladder);
    const hit = this.#resolved.get(key);
    this.#resolved.delete(key);
    if (hit && this.#backend.recordedRungs) {
      const own = this.#backend.recordedRungs(hit.found);
      return own && own.length > 0 ? [...own, ...ladder] : undefined;
    }
    // A table cell is named by its column and row texts: an id pins a row position, which moves.
    if (!hit || hit.found.el.cell) return undefined;
    const { elements } = hit;
    const el = hit.found.el;
    const name = plainLabel(el.name);
    const idKey = this.surface.recordedIdKey;
    const live: Selector[] = [];
    if (el.automationId !== "" && elements.filter((e) => e.automationId === el.automationId).length === 1) {
      live.push({
        tier: "native_id",
        provenance: "recorder",
        payload: idKey === "automation_id" ? { automation_id: el.automationId, ...(name ? { name } : {}) } : { id: el.automationId, ...(name ? { name } : {}) },
      });
    }
    if (name !== "" && elements.filter((e) => e.controlType === el.controlType && plainLabel(e.name) === name).length === 1) {
      live.push({ tier: "structural", provenance: "recorder", confidence: 0.7, payload: { control_type: el.controlType, name } });
    }
    const same = (a: Selector, b: Selector) => a.tier === b.tier && JSON.stringify(a.payload) === JSON.stringify(b.payload);
    const own = ladder.filter((r) => !live.some((l) => same(l, r)) && nativeIdOf(r) !== el.automationId);
    return live.length > 0 ? [...live, ...own] : undefined;
  }

  // ---- actions -----------------------------------------------------------------------------

  async bringToFront(): Promise<Attempt> {
    return this.surface.bringToFront?.() ?? done();
  }

  async navigate(url: string): Promise<Attempt> {
    return this.surface.navigate(url, this.#view);
  }

  async reload(): Promise<Attempt> {
    return this.surface.reload();
  }

  async hover(ladder: readonly Selector[] = []): Promise<Attempt> {
    return this.surface.hover(ladder, this.#view);
  }

  async click(ladder: readonly Selector[], options: PointerOptions): Promise<Attempt> {
    const f = await this.#resolveToAct(ladder, "clickable");
    if (!f.ok) {
      const path = f.failed === "not-found" ? labelPath(ladder) : undefined;
      return path ? this.#clickPath(path, options) : f;
    }
    return this.surface.click(f, options, this.#view);
  }

  /**
   * `Click "File > Save As…"`: each label of the path clicked in turn (a menu bar item, then the
   * item of the menu it opened), each after the one before it appeared (bounded). Past the first
   * label a miss is final: retrying would click the menu closed again.
   */
  async #clickPath(path: readonly string[], options: PointerOptions): Promise<Attempt> {
    for (const [i, label] of path.entries()) {
      const rung: Selector[] = [{ tier: "text_anchor", provenance: "rules", payload: { text: label } }];
      let f = await this.#resolveToAct(rung, "clickable");
      for (let k = 0; i > 0 && !f.ok && f.retryable && k < PATH_READS; k++) {
        await this.#sleep(PATH_PAUSE_MS);
        f = await this.#resolveToAct(rung, "clickable");
      }
      const last = i === path.length - 1;
      const r = f.ok ? await this.surface.click(f, last ? options : { button: "left", clickCount: 1 }, this.#view) : f;
      if (!r.ok) return { ...r, detail: `${JSON.stringify(label)} of ${path.join(" > ")}: ${r.detail}`, retryable: i === 0 && r.retryable };
    }
    return done("text_anchor");
  }

  async fill(ladder: readonly Selector[], text: string, options?: TypeOptions): Promise<Attempt> {
    const f = await this.#resolveToAct(ladder, "editable");
    if (!f.ok) return f;
    return this.surface.fill(f, text, options?.secret === true, this.#view);
  }

  async typeFocused(text: string, options?: TypeOptions): Promise<Attempt> {
    return this.surface.typeFocused(text, options?.secret === true, this.#view);
  }

  async pressKey(key: string, modifiers: readonly KeyModifier[]): Promise<Attempt> {
    return this.surface.pressKey(key, modifiers, this.#view);
  }

  async select(ladder: readonly Selector[], values: readonly string[]): Promise<Attempt> {
    const f = await this.#resolveToAct(ladder, "selectable");
    if (!f.ok) return f;
    return this.surface.select(f, values, this.#view);
  }

  async setChecked(ladder: readonly Selector[], checked: boolean): Promise<Attempt> {
    const f = await this.#resolveToAct(ladder, "checkable");
    if (!f.ok) return f;
    return this.surface.setChecked(f, checked, this.#view);
  }

  // ---- reads -------------------------------------------------------------------------------

  async readText(ladder: readonly Selector[]): Promise<Attempt<string>> {
    const f = await this.#resolve(ladder, "any");
    if (!f.ok) return f;
    if (f.el.password) return fail("unsupported", PASSWORD_UNREAD, false);
    return { ok: true, value: textOf(f.el), tier: f.tier };
  }

  async count(ladder: readonly Selector[]): Promise<number> {
    const screen = await this.#read();
    if (!screen) return 0;
    for (const rung of ladder) {
      const n = screen.groups.reduce((sum, g) => {
        const m = this.#match(g.elements, rung, "any");
        return sum + ("ok" in m ? 0 : m.length);
      }, 0);
      if (n > 0) return n;
    }
    return 0;
  }

  async check(ladder: readonly Selector[], expect: Expectation): Promise<Reading> {
    if (ladder.length === 0) return this.#checkSurface(expect);
    if (expect.kind === "visible" && !expect.visible) {
      const n = await this.count(ladder);
      return { pass: n === 0, actual: n === 0 ? "absent" : "present" };
    }
    if (expect.kind === "count") {
      const n = await this.count(ladder);
      return { pass: n === expect.count, actual: `${n} matching` };
    }
    const f = await this.#resolve(ladder, "any");
    if (!f.ok) return { pass: false, actual: f.failed === "ambiguous" ? f.detail : "absent", retryable: f.retryable };
    const el = f.el;
    if (this.#backend.reads && !this.#backend.reads.has(expect.kind))
      return { pass: false, actual: `\`${expect.kind}\` cannot be checked on a control of ${this.surface.what}`, retryable: false };
    const reading = (pass: boolean, actual: string): Reading => ({ pass, actual, tier: f.tier });
    switch (expect.kind) {
      case "visible":
        return reading(true, "present");
      case "enabled":
        return reading(el.enabled === expect.enabled, el.enabled ? "enabled" : "disabled");
      case "checked":
        if (el.checked === undefined) return { pass: false, actual: `${describeElement(el)} cannot be checked`, retryable: false };
        return reading(el.checked === expect.checked, el.checked ? "checked" : "not checked");
      case "selected":
        if (el.itemSelected === undefined)
          return { pass: false, actual: `${describeElement(el)} is not a tab or an item that can be selected`, retryable: false };
        return reading(el.itemSelected === expect.selected, el.itemSelected ? "selected" : "not selected");
      case "text_contains":
      case "text_absent":
      case "empty":
        if (el.password) return { pass: false, actual: `${PASSWORD_UNREAD} (its value)`, retryable: false };
        return checkText(expect.kind === "empty" ? (el.value ?? "") : textOf(el), expect, f.tier)!;
      case "numeric_equals":
        return checkText(textOf(el), expect, f.tier)!;
      default:
        return { pass: false, actual: `\`${expect.kind}\` cannot be checked on a control of ${this.surface.what}`, retryable: false };
    }
  }

  /** A check of the whole surface: its title, its address, and what it shows (`page shows`, the one rule of text.ts). */
  async #checkSurface(expect: Expectation): Promise<Reading> {
    if (expect.kind === "url" && this.surface.checkAddress) return this.surface.checkAddress(expect.op, expect.value);
    const screen = await this.#read();
    if (!screen) return { pass: false, actual: `the window ${JSON.stringify(this.surface.goneTitle)} is gone`, retryable: false };
    const text = this.#backend.shownText?.(screen.main, screen.groups) ?? pageText(screen.main, screen.groups);
    const reading = checkShown({ title: screen.main.title, text }, expect);
    return reading ?? { pass: false, actual: `\`${expect.kind}\` cannot be checked on ${this.surface.what}`, retryable: false };
  }

  /** The surface's visible controls as text, and the texts a step could name (for "did you mean"). */
  async debugSnapshot(redact?: (text: string) => string): Promise<DebugSnapshot> {
    const screen = await this.#read();
    if (this.#backend.snapshot) return this.#backend.snapshot(screen?.groups ?? [], redact ?? ((t) => t));
    return windowSnapshot(screen?.groups ?? [], redact, this.surface.messages?.() ?? []);
  }

  // ---- frames ------------------------------------------------------------------------------

  async captureFrame(): Promise<RawFrame> {
    return this.surface.captureFrame();
  }

  /**
   * Each target's rectangles relative to the frame: password fields (always masked), the fields a
   * secret was typed into (and password fields), the controls showing a text; a css rule is not
   * something a desktop surface can answer.
   */
  async rectsFor(targets: readonly RectTarget[]): Promise<RectsAnswer[]> {
    const origin = await this.surface.frameOrigin();
    const all = (await this.#read())?.groups.flatMap((g) => g.elements) ?? [];
    const rel = (r: Rect): Rect => ({ x: r.x - origin.x, y: r.y - origin.y, width: r.width, height: r.height });
    const own = this.#backend.secretRects;
    const answers: RectsAnswer[] = [];
    for (const t of targets) {
      if (own && "secretFields" in t)
        answers.push({ ok: true, rects: [...all.filter((e) => e.password).map((e) => e.rect), ...(await own({ typed: true }))].map(rel) });
      else if (own && "secretText" in t) answers.push({ ok: true, rects: (await own({ shown: t.secretText })).map(rel) });
      else answers.push(this.#rectsOf(t, all, rel));
    }
    return answers;
  }

  /** One target's rectangles, read off the controls' flags and texts. */
  #rectsOf(t: RectTarget, all: readonly DesktopElement[], rel: (r: Rect) => Rect): RectsAnswer {
    if ("passwordFields" in t) return { ok: true, rects: all.filter((e) => e.password).map((e) => rel(e.rect)) };
    if ("secretFields" in t) return { ok: true, rects: all.filter((e) => e.password || this.#secretRefs.has(e.ref)).map((e) => rel(e.rect)) };
    if ("css" in t) return { ok: false, detail: `css rule ${JSON.stringify(t.css)} cannot be resolved on ${this.surface.what} (use a rect rule)` };
    // Every control whose label, value or tooltip shows a secret, letter case and whitespace ignored.
    if ("secretText" in t)
      return { ok: true, rects: all.filter((e) => showsAny([plainLabel(e.name), e.value ?? "", e.tooltip ?? ""], t.secretText)).map((e) => rel(e.rect)) };
    return {
      ok: true,
      rects: all.filter((e) => plainLabel(e.name).includes(t.text) || (!e.password && (e.value ?? "").includes(t.text))).map((e) => rel(e.rect)),
    };
  }

  // ---- model authoring ---------------------------------------------------------------------

  async scene(): Promise<SceneInventory> {
    const screen = await this.#read();
    const facts = (await this.surface.sceneFacts?.()) ?? { url: "", loaded: true };
    if (!screen) return sceneOf({ handle: "", title: this.surface.goneTitle, className: "", pid: 0, visible: false }, [], facts);
    if (this.#backend.scene) return this.#backend.scene(screen.main, screen.groups);
    return sceneOf(screen.groups[0]?.window ?? screen.main, screen.groups, facts);
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  async environment(): Promise<{ os: string; resolution: [number, number] }> {
    return this.surface.environment();
  }

  async untilClosed(): Promise<void> {
    if (this.surface.untilClosed) return this.surface.untilClosed();
    for (;;) {
      if (!(await this.surface.windows())) return;
      await this.#sleep(500);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.surface.close();
  }
}
