// The sap AppDriver: one SAP GUI session driven through SAP GUI Scripting. Every method is one
// attempt; after Enter, navigation and every control action the status bar is read, and an
// error or abort message (type E or A) fails that step with SAP's own text. Password fields are
// never read, reported or shown unmasked.
import type { AppDriver, Attempt, Capability, DebugSnapshot, Expectation, KeyModifier, PointerOptions, RawFrame, Reading, Rect, RectTarget, RectsAnswer, SceneEntry, SceneInventory, Selector, TypeOptions } from "../../src/plugins/api.ts";
import { observingNothing, type EffectWatch } from "../../src/plugins/api.ts";
import { SapCallError, boolOf, isSapObject, itemsOf, numberOf, objectOf, sessionRelativeId, textOf, type SapObject, type ScriptingEngine } from "./engine.ts";
import { closeConnection, statusBar } from "./connect.ts";
import { INPUT_TYPES, matchAnchor, resolveLadder, screenElements, type Purpose } from "./resolve.ts";
import { VKEY_HINT, vkeyFor } from "./keys.ts";

const OK: Attempt = { ok: true, value: undefined };
const unsupported = (detail: string): Attempt => ({ ok: false, failed: "unsupported", detail, retryable: false });

export interface SapDriverOptions {
  readonly engine: ScriptingEngine;
  readonly session: SapObject;
  /** The connection flowproof opened for this flow (closed with it); absent when attached. */
  readonly own?: SapObject;
  readonly log: (line: string) => void;
}

export class SapDriver implements AppDriver {
  readonly capabilities: ReadonlySet<Capability>;
  /** Step effects: a desktop surface observes no kind yet (window and control changes are its only candidates), so its steps record `observes: []` and replay never judges them. */
  readonly observeEffect = async (): Promise<EffectWatch> => observingNothing();
  readonly #engine: ScriptingEngine;
  readonly #session: SapObject;
  readonly #own: SapObject | undefined;
  readonly #log: (line: string) => void;
  /** Ids of fields a secret was typed into: masked in every frame like password fields. */
  readonly #secretIds = new Set<string>();
  /** Status bar messages seen, oldest first (the debug snapshot's console). */
  readonly #messages: string[] = [];

  constructor(options: SapDriverOptions) {
    this.#engine = options.engine;
    this.#session = options.session;
    this.#own = options.own;
    this.#log = options.log;
    this.capabilities = new Set<Capability>(["keyboard", "navigation", "select", ...(options.engine.capture ? ["screenshot" as const] : [])]);
  }

  #find(id: string): SapObject | undefined {
    const v = this.#session.call("FindById", id, false);
    return isSapObject(v) ? v : undefined;
  }

  #window(): SapObject {
    return objectOf(this.#session, "ActiveWindow") ?? this.#find("wnd[0]")!;
  }

  /** One scripting attempt: a SapCallError (SAP refused the call) is a failed, non-retryable step with SAP's text. */
  #attempt<T>(run: () => Attempt<T>): Attempt<T> {
    try {
      return run();
    } catch (error) {
      if (error instanceof SapCallError) return { ok: false, failed: "unsupported", detail: `SAP GUI: ${error.message}`, retryable: false };
      throw error;
    }
  }

  /** After a round trip to the server: E/A in the status bar fails the step; W is reported. */
  #afterRoundTrip(): Attempt {
    const s = statusBar(this.#session);
    if (s.text !== "") this.#messages.push(`${s.type || "-"}: ${s.text}`);
    if (s.type === "E" || s.type === "A") return { ok: false, failed: "dialog", detail: `SAP ${s.type === "A" ? "abort" : "error"} message: ${s.text}`, retryable: false };
    if (s.type === "W") this.#log(`SAP warning: ${s.text}`);
    return OK;
  }

  #resolve(ladder: readonly Selector[], purpose: Purpose): { ok: true; element: SapObject; tier: string } | { ok: false; attempt: Attempt & { ok: false } } {
    const r = resolveLadder(this.#session, ladder, purpose);
    return r.ok ? r : { ok: false, attempt: { ok: false, failed: "not-found", detail: r.detail, retryable: true } };
  }

  async navigate(url: string): Promise<Attempt> {
    if (url === "about:blank") return OK;
    // `Go to /nVA01`; a URL-shaped value keeps only its path (`sap://session/nVA01`).
    const code = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "");
    if (!/^\/[a-z*]/i.test(code)) return unsupported(`"${url}" is not a transaction: write \`Go to /nVA01\` (or \`Go to VA01\`)`);
    return this.#attempt(() => {
      const okcd = this.#find("wnd[0]/tbar[0]/okcd");
      if (!okcd) return unsupported("this screen has no command field (wnd[0]/tbar[0]/okcd)");
      okcd.set("Text", code);
      this.#window().call("SendVKey", 0);
      return this.#afterRoundTrip();
    });
  }

  async reload(): Promise<Attempt> {
    return unsupported("SAP GUI has no page to reload");
  }

  async click(ladder: readonly Selector[], options: PointerOptions): Promise<Attempt> {
    if (options.button === "right") return unsupported("SAP GUI Scripting has no right-click; open the context menu with Shift+F10 (`Press Shift+F10`)");
    return this.#attempt(() => {
      const r = this.#resolve(ladder, "press");
      if (!r.ok) return r.attempt;
      const el = r.element;
      const type = textOf(el, "Type");
      // Buttons, tabs and menus go to the server; a checkbox, radio button or focus change does not.
      const roundTrip = type === "GuiButton" || type === "GuiTab" || type === "GuiMenu" || options.clickCount === 2;
      if (type === "GuiButton") el.call("Press");
      else if (type === "GuiTab" || type === "GuiMenu" || type === "GuiRadioButton") el.call("Select");
      else if (type === "GuiCheckBox") el.set("Selected", !boolOf(el, "Selected"));
      else el.call("SetFocus");
      // Double-click on a field or list line is F2 ("choose") in SAP GUI.
      if (options.clickCount === 2) this.#window().call("SendVKey", 2);
      const after = roundTrip ? this.#afterRoundTrip() : OK;
      return after.ok ? { ok: true, value: undefined, tier: r.tier } : after;
    });
  }

  async hover(): Promise<Attempt> {
    return unsupported("SAP GUI Scripting has no hover; read the tooltip with an assertion instead");
  }

  async fill(ladder: readonly Selector[], text: string, options?: TypeOptions): Promise<Attempt> {
    return this.#attempt(() => {
      const r = this.#resolve(ladder, "input");
      if (!r.ok) return r.attempt;
      const el = r.element;
      const type = textOf(el, "Type");
      if (type === "GuiComboBox") return this.#choose(el, text, r.tier);
      if (!INPUT_TYPES.has(type)) return unsupported(`${sessionRelativeId(textOf(el, "Id"))} is a ${type}, not a field to type into`);
      if (!boolOf(el, "Changeable")) return { ok: false, failed: "editable", detail: `${sessionRelativeId(textOf(el, "Id"))} is not changeable on this screen`, retryable: true };
      el.set("Text", text);
      if (options?.secret) this.#secretIds.add(sessionRelativeId(textOf(el, "Id")));
      return { ok: true, value: undefined, tier: r.tier };
    });
  }

  async typeFocused(text: string, options?: TypeOptions): Promise<Attempt> {
    return this.#attempt(() => {
      const focus = objectOf(this.#window(), "GuiFocus");
      if (!focus || !INPUT_TYPES.has(textOf(focus, "Type"))) return { ok: false, failed: "not-found", detail: "no field has the focus", retryable: true };
      focus.set("Text", textOf(focus, "Text") + text);
      if (options?.secret) this.#secretIds.add(sessionRelativeId(textOf(focus, "Id")));
      return OK;
    });
  }

  async pressKey(key: string, modifiers: readonly KeyModifier[]): Promise<Attempt> {
    const vkey = vkeyFor(key, modifiers);
    if (vkey === undefined) return unsupported(`SAP GUI has no virtual key for ${[...modifiers, key].join("+")}: ${VKEY_HINT}`);
    return this.#attempt(() => {
      this.#window().call("SendVKey", vkey);
      return this.#afterRoundTrip();
    });
  }

  #choose(el: SapObject, value: string, tier: string): Attempt {
    const entries = itemsOf(objectOf(el, "Entries"));
    const entry = entries.find((e) => textOf(e, "Value") === value) ?? entries.find((e) => textOf(e, "Key") === value)
      ?? entries.find((e) => textOf(e, "Value").toLowerCase() === value.toLowerCase());
    if (!entry) return { ok: false, failed: "not-found", detail: `no entry ${JSON.stringify(value)} in ${sessionRelativeId(textOf(el, "Id"))} (entries: ${entries.map((e) => JSON.stringify(textOf(e, "Value"))).join(", ")})`, retryable: true };
    el.set("Key", textOf(entry, "Key"));
    const after = this.#afterRoundTrip();
    return after.ok ? { ok: true, value: undefined, tier } : after;
  }

  async select(ladder: readonly Selector[], values: readonly string[]): Promise<Attempt> {
    if (values.length !== 1) return unsupported("a SAP GUI dropdown takes exactly one entry");
    return this.#attempt(() => {
      const r = this.#resolve(ladder, "input");
      if (!r.ok) return r.attempt;
      if (textOf(r.element, "Type") !== "GuiComboBox") return unsupported(`${sessionRelativeId(textOf(r.element, "Id"))} is not a dropdown (GuiComboBox)`);
      return this.#choose(r.element, values[0]!, r.tier);
    });
  }

  async setChecked(ladder: readonly Selector[], checked: boolean): Promise<Attempt> {
    return this.#attempt(() => {
      const r = this.#resolve(ladder, "press");
      if (!r.ok) return r.attempt;
      const el = r.element;
      const type = textOf(el, "Type");
      if (type === "GuiRadioButton") {
        if (!checked) return unsupported("a radio button cannot be unchecked; select another one of its group");
        el.call("Select");
      } else if (type === "GuiCheckBox") {
        if (boolOf(el, "Selected") !== checked) el.set("Selected", checked);
      } else return unsupported(`${sessionRelativeId(textOf(el, "Id"))} is a ${type}, not a checkbox`);
      if (boolOf(el, "Selected") !== checked) return { ok: false, failed: "enabled", detail: "the checkbox did not take the new state", retryable: true };
      return { ok: true, value: undefined, tier: r.tier };
    });
  }

  async readText(ladder: readonly Selector[]): Promise<Attempt<string>> {
    try {
      const r = this.#resolve(ladder, "read");
      if (!r.ok) return r.attempt;
      if (textOf(r.element, "Type") === "GuiPasswordField") return { ok: false, failed: "unsupported", detail: "a password field is never read", retryable: false };
      return { ok: true, value: textOf(r.element, "Text").trim(), tier: r.tier };
    } catch (error) {
      if (error instanceof SapCallError) return { ok: false, failed: "unsupported", detail: `SAP GUI: ${error.message}`, retryable: false };
      throw error;
    }
  }

  async count(ladder: readonly Selector[]): Promise<number> {
    for (const rung of ladder) {
      const p = rung.payload;
      if (typeof p["id"] === "string" && this.#find(p["id"])) return 1;
      if (typeof p["text"] === "string") {
        const n = matchAnchor(screenElements(this.#session), p["text"], "read", typeof p["role"] === "string" ? p["role"] : undefined).length;
        if (n > 0) return n;
      }
    }
    return 0;
  }

  /** Everything the session shows as text: title, controls (never password fields) and the status bar. */
  #surfaceText(): string {
    const wnd = this.#window();
    const parts = [textOf(wnd, "Text"), ...screenElements(this.#session).flatMap((e) => [e.text, e.tooltip])];
    return parts.filter((t) => t.trim() !== "").join("\n");
  }

  async check(ladder: readonly Selector[], expect: Expectation): Promise<Reading> {
    if (ladder.length === 0) return this.#checkSurface(expect);
    const r = resolveLadder(this.#session, ladder, "read");
    if (!r.ok) {
      if (expect.kind === "visible") return { pass: !expect.visible, actual: r.detail };
      if (expect.kind === "count") return { pass: expect.count === 0, actual: "0 controls" };
      return { pass: false, actual: r.detail };
    }
    const el = r.element;
    const isPassword = textOf(el, "Type") === "GuiPasswordField";
    const text = isPassword ? "" : textOf(el, "Text").trim();
    const shown = isPassword ? "a password field (never read)" : JSON.stringify(text);
    switch (expect.kind) {
      case "text_contains":
        return { pass: !isPassword && (text.includes(expect.text) || text.toLowerCase().includes(expect.text.toLowerCase())), actual: shown, tier: r.tier };
      case "text_absent":
        return { pass: !isPassword && !text.toLowerCase().includes(expect.text.toLowerCase()), actual: shown, tier: r.tier };
      case "empty":
        return { pass: !isPassword && (text === "") === expect.empty, actual: shown, tier: r.tier };
      case "numeric_equals": {
        const n = Number(text.replace(/[\s,]/g, ""));
        return { pass: Number.isFinite(n) && n === expect.value, actual: shown, tier: r.tier };
      }
      case "visible":
        return { pass: expect.visible, actual: "present on this screen", tier: r.tier };
      case "enabled": {
        const enabled = boolOf(el, "Changeable") || textOf(el, "Type") === "GuiButton";
        return { pass: enabled === expect.enabled, actual: enabled ? "changeable" : "not changeable", tier: r.tier };
      }
      case "checked": {
        const on = boolOf(el, "Selected");
        return { pass: on === expect.checked, actual: on ? "selected" : "not selected", tier: r.tier };
      }
      case "selected": {
        const on = boolOf(el, "Selected");
        return { pass: on === expect.selected, actual: on ? "selected" : "not selected", tier: r.tier };
      }
      case "count": {
        const n = await this.count(ladder);
        return { pass: n === expect.count, actual: `${n} controls`, tier: r.tier };
      }
      default:
        return { pass: false, actual: `SAP GUI cannot check ${expect.kind} (a web page's property)`, retryable: false };
    }
  }

  #checkSurface(expect: Expectation): Reading {
    switch (expect.kind) {
      case "text_contains":
      case "text_absent": {
        const text = this.#surfaceText();
        const found = text.includes(expect.text) || text.toLowerCase().includes(expect.text.toLowerCase());
        return { pass: expect.kind === "text_contains" ? found : !found, actual: `the screen shows ${JSON.stringify(text.replace(/\s+/g, " ").slice(0, 300))}` };
      }
      case "title": {
        const title = textOf(this.#window(), "Text");
        return { pass: expect.op === "equals" ? title === expect.value : title.includes(expect.value), actual: JSON.stringify(title) };
      }
      case "url": {
        // A SAP screen's "address" is its transaction code.
        const tcode = textOf(objectOf(this.#session, "Info") ?? this.#session, "Transaction");
        return { pass: expect.op === "equals" ? tcode === expect.value.replace(/^\/n/i, "") : tcode.includes(expect.value.replace(/^\/n/i, "")), actual: `transaction ${tcode}` };
      }
      default:
        return { pass: false, actual: `SAP GUI cannot check ${expect.kind} of the whole screen`, retryable: false };
    }
  }

  async captureFrame(): Promise<RawFrame> {
    const png = this.#engine.capture?.(numberOf(this.#window(), "Handle"));
    if (!png) throw new SapCallError("the SAP GUI window could not be captured");
    return { png };
  }

  async rectsFor(targets: readonly RectTarget[]): Promise<RectsAnswer[]> {
    const wnd = this.#window();
    const ox = numberOf(wnd, "ScreenLeft");
    const oy = numberOf(wnd, "ScreenTop");
    const rectOf = (o: SapObject): Rect => ({ x: numberOf(o, "ScreenLeft") - ox, y: numberOf(o, "ScreenTop") - oy, width: numberOf(o, "Width"), height: numberOf(o, "Height") });
    const elements = screenElements(this.#session);
    return targets.map((t): RectsAnswer => {
      if ("secretFields" in t) return { ok: true, rects: elements.filter((e) => e.type === "GuiPasswordField" || this.#secretIds.has(e.id)).map((e) => rectOf(e.obj)) };
      // The password rule every recorder applies: SAP GUI's password fields (GuiPasswordField).
      if ("passwordFields" in t) return { ok: true, rects: elements.filter((e) => e.type === "GuiPasswordField").map((e) => rectOf(e.obj)) };
      if ("text" in t) return { ok: true, rects: elements.filter((e) => e.text.includes(t.text)).map((e) => rectOf(e.obj)) };
      return { ok: false, detail: "css selectors do not apply to SAP GUI" };
    });
  }

  async scene(): Promise<SceneInventory> {
    const entries: SceneEntry[] = screenElements(this.#session)
      .filter((e) => e.type !== "GuiToolbar" && e.type !== "GuiUserArea" && !(e.type === "GuiLabel" && e.text === ""))
      .map((e) => {
        const actionable = INPUT_TYPES.has(e.type) || e.type === "GuiButton" || e.type === "GuiTab";
        const value = e.type === "GuiPasswordField" || !INPUT_TYPES.has(e.type) ? undefined : e.text.slice(0, 80);
        return {
          target: `id:${e.id}`, tag: e.type, actionable,
          ...(e.type !== "GuiPasswordField" && !INPUT_TYPES.has(e.type) && e.text ? { text: e.text.slice(0, 80) } : {}),
          ...(e.label || e.tooltip ? { label: e.label || e.tooltip } : {}),
          ...(value !== undefined ? { value } : {}),
          ...(e.type === "GuiPasswordField" ? { type: "password" } : {}),
        };
      });
    const info = objectOf(this.#session, "Info");
    return { url: `transaction ${info ? textOf(info, "Transaction") : ""}`, title: textOf(this.#window(), "Text"), text: this.#surfaceText().replace(/\s+/g, " ").slice(0, 4000), entries: entries.slice(0, 100), omitted: Math.max(0, entries.length - 100), loaded: !boolOf(this.#session, "Busy") };
  }

  async debugSnapshot(redact: (text: string) => string = (t) => t): Promise<DebugSnapshot> {
    const elements = screenElements(this.#session);
    const dom = elements.map((e) => `${e.id} ${e.type}${e.type === "GuiPasswordField" ? "" : ` ${JSON.stringify(redact(e.text))}`}${e.tooltip ? ` tooltip=${JSON.stringify(redact(e.tooltip))}` : ""}`).join("\n");
    const anchors = [...new Set(elements.flatMap((e) => [e.text, e.tooltip, e.label, e.name]).filter((t) => t.trim() !== ""))].map(redact);
    return { dom: redact(dom), console: this.#messages.map(redact), anchors };
  }

  async environment(): Promise<{ os: string; resolution: [number, number] }> {
    const wnd = this.#window();
    return { os: "windows", resolution: [numberOf(wnd, "Width"), numberOf(wnd, "Height")] };
  }

  async close(): Promise<void> {
    if (this.#own) closeConnection(this.#own);
    this.#engine.close();
  }
}
