// An in-memory desktop surface and element backend in one, for the desktop driver's unit tests:
// windows of plain controls, acts that change them the way a simple app would (a click runs the
// control's handler, typing replaces a field's value), and a log of what was done.
import type { Attempt, Capability, PointerOptions, RawFrame, Reading } from "../../src/plugins/api.ts";
import type { DesktopSurface, ElementBackend, ElementView, Found, SurfaceWindows } from "./backend.ts";
import type { DesktopElement, SurfaceWindow } from "./element.ts";

/** A control of the fake: a desktop element whose state the test changes, and what a click does. */
export type FakeElement = { -readonly [K in keyof DesktopElement]: DesktopElement[K] } & { onClick?: () => void };

/** A control with defaults (visible, enabled, not a password, a 10x10 box at 0,0). */
export function fakeElement(e: Partial<FakeElement> & Pick<FakeElement, "ref" | "name" | "controlType">): FakeElement {
  return { automationId: "", rect: { x: 0, y: 0, width: 10, height: 10 }, enabled: true, visible: true, focused: false, password: false, ...e };
}

const ok = (tier?: string): Attempt => (tier ? { ok: true, value: undefined, tier } : { ok: true, value: undefined });

export class FakeSurface implements DesktopSurface {
  readonly capabilities: ReadonlySet<Capability> = new Set<Capability>(["pointer", "keyboard", "select", "screenshot"]);
  readonly what = "the fake app";
  readonly nativeIdHint = "`id:<id>`";
  readonly recordedIdKey = "id";
  readonly goneTitle = "Fake";
  /** The windows shown, the main one first; empty once it is gone. */
  readonly windowList: { window: SurfaceWindow; elements: FakeElement[] }[] = [];
  /** What the acts did, in order. */
  readonly log: string[] = [];
  /** Where the frame's corner is on the screen. */
  origin = { x: 0, y: 0 };
  /** The surface's address for `page url`. */
  address = "";
  /** What the surface reported (the debug snapshot's console). */
  readonly reported: string[] = [];
  /** The element backend reading these windows. */
  readonly backend: ElementBackend = {
    name: "fake",
    canSearch: async () => true,
    elements: async (w) => (this.windowList.find((x) => x.window.handle === w.handle)?.elements ?? []).map(({ onClick: _, ...e }) => ({ ...e })),
    focus: async (el) => {
      for (const e of this.windowList.flatMap((w) => w.elements)) e.focused = e.ref === el.ref;
    },
    selectAll: async () => undefined,
    invoke: async (el) => this.#element(el.ref)?.onClick?.(),
    select: async (el, values) => {
      const e = this.#element(el.ref);
      if (e) e.selected = [...values];
      return undefined;
    },
  };

  addWindow(title: string, elements: FakeElement[] = []): { window: SurfaceWindow; elements: FakeElement[] } {
    const w = { window: { handle: String(this.windowList.length + 1), title, className: "Fake", pid: 1, visible: true }, elements };
    this.windowList.push(w);
    return w;
  }

  #element(ref: string): FakeElement | undefined {
    return this.windowList.flatMap((w) => w.elements).find((e) => e.ref === ref);
  }

  // ---- DesktopSurface ------------------------------------------------------------------------

  async windows(): Promise<SurfaceWindows | undefined> {
    const [main, ...others] = this.windowList.map((w) => w.window);
    return main ? { main, shown: [...others.reverse(), main] } : undefined;
  }

  async click(f: Found, options: PointerOptions): Promise<Attempt> {
    this.log.push(`click ${f.el.ref} ${options.button} ${options.clickCount}`);
    await this.backend.invoke(f.el);
    return ok(f.tier);
  }

  async fill(f: Found, text: string, secret: boolean, view: ElementView): Promise<Attempt> {
    const e = this.#element(f.el.ref);
    if (e) e.value = text;
    view.typedInto(f.el.ref, secret);
    this.log.push(`fill ${f.el.ref}`);
    return ok(f.tier);
  }

  async typeFocused(text: string, secret: boolean, view: ElementView): Promise<Attempt> {
    const focused = await view.focused();
    const e = focused && this.#element(focused.ref);
    if (!e) return { ok: false, failed: "not-found", detail: "nothing has the focus", retryable: true };
    e.value = (e.value ?? "") + text;
    if (secret) view.typedInto(e.ref, true);
    return ok();
  }

  async pressKey(key: string): Promise<Attempt> {
    this.log.push(`key ${key}`);
    return ok();
  }

  async select(f: Found, values: readonly string[]): Promise<Attempt> {
    await this.backend.select(f.el, values);
    return ok(f.tier);
  }

  async setChecked(f: Found, checked: boolean): Promise<Attempt> {
    const e = this.#element(f.el.ref);
    if (e) e.checked = checked;
    return ok(f.tier);
  }

  async navigate(): Promise<Attempt> {
    return ok();
  }

  async reload(): Promise<Attempt> {
    return { ok: false, failed: "unsupported", detail: "the fake app has no page", retryable: false };
  }

  async hover(): Promise<Attempt> {
    return { ok: false, failed: "unsupported", detail: "the fake app has no pointer to hover", retryable: false };
  }

  async checkAddress(op: "equals" | "contains", value: string): Promise<Reading> {
    const address = this.address ?? "";
    return { pass: op === "equals" ? address === value : address.includes(value), actual: address };
  }

  messages(): readonly string[] {
    return this.reported;
  }

  async captureFrame(): Promise<RawFrame> {
    return { png: new Uint8Array([137, 80, 78, 71]) };
  }

  async frameOrigin(): Promise<{ x: number; y: number }> {
    return this.origin;
  }

  async environment(): Promise<{ os: string; resolution: [number, number] }> {
    return { os: "fake", resolution: [800, 600] };
  }

  async close(): Promise<void> {
    this.log.push("close");
  }
}
