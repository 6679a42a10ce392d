// The SAP GUI surface of the desktop driver: one SAP GUI session driven through SAP GUI Scripting.
// Its controls are read by the SAP backend; its acts set properties and send virtual keys, never
// keystrokes. After Enter, navigation and every control action that goes to the server the status
// bar is read, and an error or abort message (type E or A) fails that step with SAP's own text.
// Password fields are never read, reported or shown unmasked.
import type { Attempt, Capability, KeyModifier, PointerOptions, RawFrame, Reading } from "../../src/plugins/api.ts";
import { DesktopDriver } from "../desktop/driver.ts";
import type { DesktopSurface, ElementView, Found, SurfaceWindows } from "../desktop/backend.ts";
import { describeElement, type SurfaceWindow } from "../desktop/element.ts";
import { SapCallError, boolOf, isSapObject, itemsOf, numberOf, objectOf, sessionRelativeId, textOf, type SapObject, type ScriptingEngine } from "./engine.ts";
import { closeConnection, statusBar } from "./connect.ts";
import { INPUT_TYPES, PRESSABLE, SapBackend } from "./backend.ts";
import { VKEY_HINT, vkeyFor } from "./keys.ts";

const OK: Attempt = { ok: true, value: undefined };
const unsupported = (detail: string): Attempt => ({ ok: false, failed: "unsupported", detail, retryable: false });
const done = (tier: string): Attempt => ({ ok: true, value: undefined, tier });

export interface SapDriverOptions {
  readonly engine: ScriptingEngine;
  readonly session: SapObject;
  /** The connection flowproof opened for this flow (closed with it); absent when attached. */
  readonly own?: SapObject;
  readonly log: (line: string) => void;
}

/** A SAP GUI session's windows, acts, status bar and frames around the SAP backend. */
export class SapSurface implements DesktopSurface {
  readonly capabilities: ReadonlySet<Capability>;
  readonly what = "SAP GUI";
  readonly nativeIdHint = "`id:<scripting id>` (e.g. `id:wnd[0]/usr/ctxtVBAK-AUART`)";
  readonly recordedIdKey = "id";
  readonly goneTitle = "SAP";
  readonly #engine: ScriptingEngine;
  readonly #session: SapObject;
  readonly #own: SapObject | undefined;
  readonly #log: (line: string) => void;
  readonly #backend: SapBackend;
  /** Status bar messages seen, oldest first (the debug snapshot's console). */
  readonly #messages: string[] = [];

  constructor(options: SapDriverOptions, backend: SapBackend) {
    this.#engine = options.engine;
    this.#session = options.session;
    this.#own = options.own;
    this.#log = options.log;
    this.#backend = backend;
    this.capabilities = new Set<Capability>(["pointer", "keyboard", "navigation", "select", ...(options.engine.capture ? ["screenshot" as const] : [])]);
  }

  #find(id: string): SapObject | undefined {
    const v = this.#session.call("FindById", id, false);
    return isSapObject(v) ? v : undefined;
  }

  /** The window that has the keyboard (a modal popup over the main window), else the main window. */
  #active(): SapObject {
    return objectOf(this.#session, "ActiveWindow") ?? this.#find("wnd[0]")!;
  }

  /** The main window and, over it, the popup that has the keyboard. */
  async windows(): Promise<SurfaceWindows | undefined> {
    const window = (o: SapObject, handle: string): SurfaceWindow => ({ handle, title: textOf(o, "Text"), className: textOf(o, "Type"), pid: 0, visible: true });
    const wnd = this.#find("wnd[0]");
    if (!wnd) return undefined;
    const main = window(wnd, "wnd[0]");
    const active = objectOf(this.#session, "ActiveWindow");
    const activeId = active ? sessionRelativeId(textOf(active, "Id")) : "wnd[0]";
    return { main, shown: active && activeId !== "wnd[0]" && activeId !== "" ? [window(active, activeId), main] : [main] };
  }

  /** One scripting attempt: a SapCallError (SAP refused the call) is a failed, non-retryable step with SAP's text. */
  #attempt(run: () => Attempt): Attempt {
    try {
      return run();
    } catch (error) {
      if (error instanceof SapCallError) return unsupported(`SAP GUI: ${error.message}`);
      throw error;
    }
  }

  /** After a round trip to the server: E/A in the status bar fails the step; W is reported. */
  #afterRoundTrip(): Attempt {
    const s = statusBar(this.#session);
    if (s.text !== "") this.#messages.push(`${s.type || "-"}: ${s.text}`);
    if (s.type === "E" || s.type === "A")
      return { ok: false, failed: "dialog", detail: `SAP ${s.type === "A" ? "abort" : "error"} message: ${s.text}`, retryable: false };
    if (s.type === "W") this.#log(`SAP warning: ${s.text}`);
    return OK;
  }

  #object(f: Found): SapObject {
    const o = this.#backend.objectOf(f.el);
    if (!o) throw new SapCallError(`the control ${f.el.ref} is no longer on the screen`);
    return o;
  }

  // ---- acts --------------------------------------------------------------------------------

  async navigate(url: string): Promise<Attempt> {
    if (url === "about:blank") return OK;
    // `Go to /nVA01`; a URL-shaped value keeps only its path (`sap://session/nVA01`).
    const code = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "");
    if (!/^\/[a-z*]/i.test(code)) return unsupported(`"${url}" is not a transaction: write \`Go to /nVA01\` (or \`Go to VA01\`)`);
    return this.#attempt(() => {
      const okcd = this.#find("wnd[0]/tbar[0]/okcd");
      if (!okcd) return unsupported("this screen has no command field (wnd[0]/tbar[0]/okcd)");
      okcd.set("Text", code);
      this.#active().call("SendVKey", 0);
      return this.#afterRoundTrip();
    });
  }

  async reload(): Promise<Attempt> {
    return unsupported("SAP GUI has no page to reload");
  }

  async hover(): Promise<Attempt> {
    return unsupported("SAP GUI Scripting has no hover; read the tooltip with an assertion instead");
  }

  async click(f: Found, options: PointerOptions): Promise<Attempt> {
    if (options.button === "right") return unsupported("SAP GUI Scripting has no right-click; open the context menu with Shift+F10 (`Press Shift+F10`)");
    const type = f.el.className ?? "";
    if (PRESSABLE.has(type) && !f.el.enabled) return { ok: false, failed: "enabled", detail: `${describeElement(f.el)} is disabled`, retryable: true };
    return this.#attempt(() => {
      // Buttons, tabs and menus go to the server; a checkbox, radio button or focus change does not.
      const roundTrip = type === "GuiButton" || type === "GuiTab" || type === "GuiMenu" || options.clickCount === 2;
      const o = this.#object(f);
      if (type === "GuiButton") o.call("Press");
      else if (type === "GuiTab" || type === "GuiMenu" || type === "GuiRadioButton") o.call("Select");
      else if (type === "GuiCheckBox") o.set("Selected", !boolOf(o, "Selected"));
      else o.call("SetFocus");
      // Double-click on a field or list line is F2 ("choose") in SAP GUI.
      if (options.clickCount === 2) this.#active().call("SendVKey", 2);
      const after = roundTrip ? this.#afterRoundTrip() : OK;
      return after.ok ? done(f.tier) : after;
    });
  }

  async fill(f: Found, text: string, secret: boolean, view: ElementView): Promise<Attempt> {
    return this.#attempt(() => {
      const type = f.el.className ?? "";
      if (type === "GuiComboBox") return this.#choose(f, text);
      if (!INPUT_TYPES.has(type)) return unsupported(`${f.el.ref} is a ${type}, not a field to type into`);
      const o = this.#object(f);
      if (!boolOf(o, "Changeable")) return { ok: false, failed: "editable", detail: `${f.el.ref} is not changeable on this screen`, retryable: true };
      o.set("Text", text);
      view.typedInto(f.el.ref, secret);
      return done(f.tier);
    });
  }

  async typeFocused(text: string, secret: boolean, view: ElementView): Promise<Attempt> {
    return this.#attempt(() => {
      const focus = objectOf(this.#active(), "GuiFocus");
      if (!focus || !INPUT_TYPES.has(textOf(focus, "Type"))) return { ok: false, failed: "not-found", detail: "no field has the focus", retryable: true };
      focus.set("Text", textOf(focus, "Text") + text);
      if (secret) view.typedInto(sessionRelativeId(textOf(focus, "Id")), true);
      return OK;
    });
  }

  async pressKey(key: string, modifiers: readonly KeyModifier[]): Promise<Attempt> {
    const vkey = vkeyFor(key, modifiers);
    if (vkey === undefined) return unsupported(`SAP GUI has no virtual key for ${[...modifiers, key].join("+")}: ${VKEY_HINT}`);
    return this.#attempt(() => {
      this.#active().call("SendVKey", vkey);
      return this.#afterRoundTrip();
    });
  }

  /** Chooses a dropdown's entry by its text, its key, or its text in any case; an unknown one lists the entries. */
  #choose(f: Found, value: string): Attempt {
    const o = this.#object(f);
    const entries = itemsOf(objectOf(o, "Entries"));
    const entry =
      entries.find((e) => textOf(e, "Value") === value) ??
      entries.find((e) => textOf(e, "Key") === value) ??
      entries.find((e) => textOf(e, "Value").toLowerCase() === value.toLowerCase());
    if (!entry)
      return {
        ok: false,
        failed: "not-found",
        detail: `no entry ${JSON.stringify(value)} in ${f.el.ref} (entries: ${entries.map((e) => JSON.stringify(textOf(e, "Value"))).join(", ")})`,
        retryable: true,
      };
    o.set("Key", textOf(entry, "Key"));
    const after = this.#afterRoundTrip();
    return after.ok ? done(f.tier) : after;
  }

  async select(f: Found, values: readonly string[]): Promise<Attempt> {
    if (values.length !== 1) return unsupported("a SAP GUI dropdown takes exactly one entry");
    return this.#attempt(() => {
      if (f.el.className !== "GuiComboBox") return unsupported(`${f.el.ref} is not a dropdown (GuiComboBox)`);
      return this.#choose(f, values[0]!);
    });
  }

  async setChecked(f: Found, checked: boolean): Promise<Attempt> {
    return this.#attempt(() => {
      const type = f.el.className ?? "";
      const o = this.#object(f);
      if (type === "GuiRadioButton") {
        if (!checked) return unsupported("a radio button cannot be unchecked; select another one of its group");
        o.call("Select");
      } else if (type === "GuiCheckBox") {
        if (boolOf(o, "Selected") !== checked) o.set("Selected", checked);
      } else return unsupported(`${f.el.ref} is a ${type}, not a checkbox`);
      if (boolOf(o, "Selected") !== checked) return { ok: false, failed: "enabled", detail: "the checkbox did not take the new state", retryable: true };
      return done(f.tier);
    });
  }

  // ---- what the surface shows besides its controls -----------------------------------------

  /** A SAP screen's "address" is its transaction code (`/n` dropped from the value). */
  async checkAddress(op: "equals" | "contains", value: string): Promise<Reading> {
    const tcode = this.#transaction();
    const wanted = value.replace(/^\/n/i, "");
    return { pass: op === "equals" ? tcode === wanted : tcode.includes(wanted), actual: `transaction ${tcode}` };
  }

  #transaction(): string {
    return textOf(objectOf(this.#session, "Info") ?? this.#session, "Transaction");
  }

  async sceneFacts(): Promise<{ url: string; loaded: boolean }> {
    return { url: `transaction ${this.#transaction()}`, loaded: !boolOf(this.#session, "Busy") };
  }

  messages(): readonly string[] {
    return this.#messages;
  }

  // ---- frames and lifecycle ----------------------------------------------------------------

  async captureFrame(): Promise<RawFrame> {
    const png = this.#engine.capture?.(numberOf(this.#active(), "Handle"));
    if (!png) throw new SapCallError("the SAP GUI window could not be captured");
    return { png };
  }

  async frameOrigin(): Promise<{ x: number; y: number }> {
    const wnd = this.#active();
    return { x: numberOf(wnd, "ScreenLeft"), y: numberOf(wnd, "ScreenTop") };
  }

  async environment(): Promise<{ os: string; resolution: [number, number] }> {
    const wnd = this.#active();
    return { os: "windows", resolution: [numberOf(wnd, "Width"), numberOf(wnd, "Height")] };
  }

  async close(): Promise<void> {
    if (this.#own) closeConnection(this.#own);
    this.#engine.close();
  }
}

/** The desktop driver over a SAP GUI session. */
export class SapDriver extends DesktopDriver {
  constructor(options: SapDriverOptions) {
    const backend = new SapBackend(options.session);
    super({ surface: new SapSurface(options, backend), backend });
  }
}
