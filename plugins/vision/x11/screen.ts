// The X11 screen: windows found by walking the tree from the root (`_NET_WM_NAME`, else `WM_NAME`),
// pixels read with XGetImage, input injected with XTest. Before every input the window is raised
// and given the keyboard, and that is verified (XGetInputFocus, `_NET_ACTIVE_WINDOW` when a window
// manager keeps it, and no other client's active grab); a pointer input also verifies the window is
// the top one at its point.
import type { Rect } from "../../../src/plugins/api.ts";
import type { Frame } from "../frame.ts";
import { ScreenUnavailableError, type InputAnswer, type Modifier, type MouseButton, type Screen, type ScreenWindow } from "../screen.ts";
import { charKeysym, keysymName, MODIFIER_KEYSYMS } from "./keys.ts";
import { NONE, POINTER_ROOT, XConnection, type Xid } from "./xlib.ts";

/** How deep under the root a titled window is looked for (a window manager's frame adds a level). */
const MAX_DEPTH = 4;
/** How many times, and how far apart, the keyboard is asked for before an input fails. */
const FOCUS_TRIES = 5;
const FOCUS_PAUSE_MS = 50;
/** How long a placed window may take to take its new geometry. */
const PLACE_TRIES = 40;
const PLACE_PAUSE_MS = 50;
const BUTTONS: Readonly<Record<MouseButton, number>> = { left: 1, right: 3 };

const xid = (w: ScreenWindow): Xid => Number(w.id);
const hex = (id: Xid): string => `0x${id.toString(16)}`;

export class X11Screen implements Screen {
  readonly platform = "x11";
  readonly #x: XConnection;
  readonly #sleep: (ms: number) => Promise<void>;
  /** A keycode with no keysyms, borrowed to type characters the keyboard map lacks. */
  #spare: number | undefined;

  constructor(connection: XConnection, sleep: (ms: number) => Promise<void> = (ms) => Bun.sleep(ms)) {
    this.#x = connection;
    this.#sleep = sleep;
  }

  async windows(): Promise<readonly ScreenWindow[]> {
    const out: ScreenWindow[] = [];
    const walk = (w: Xid, depth: number): void => {
      const children = this.#x.tree(w)?.children ?? [];
      // Top of the stacking order first.
      for (const c of [...children].reverse()) {
        const attrs = this.#x.attributes(c);
        if (!attrs?.viewable) continue;
        const title = this.#x.windowName(c);
        if (title !== "") out.push({ id: String(c), title });
        else if (depth < MAX_DEPTH) walk(c, depth + 1);
      }
    };
    walk(this.#x.root, 1);
    return out;
  }

  async rect(w: ScreenWindow): Promise<Rect | undefined> {
    const attrs = this.#x.attributes(xid(w));
    const at = attrs && this.#x.toRoot(xid(w), 0, 0);
    if (!attrs || !at) return undefined;
    return { x: at.x, y: at.y, width: attrs.width, height: attrs.height };
  }

  async place(w: ScreenWindow, rect: Rect): Promise<Rect> {
    const error = this.#x.moveResize(xid(w), rect.x, rect.y, rect.width, rect.height);
    if (error) throw new ScreenUnavailableError(`the window ${JSON.stringify(w.title)} could not be placed: ${error}`, "check that the window is still open");
    let now = await this.rect(w);
    for (let i = 0; i < PLACE_TRIES && now && (now.width !== rect.width || now.height !== rect.height || now.x !== rect.x || now.y !== rect.y); i++) {
      await this.#sleep(PLACE_PAUSE_MS);
      now = await this.rect(w);
    }
    if (!now) throw new ScreenUnavailableError(`the window ${JSON.stringify(w.title)} closed while it was placed`, "keep the window open while the flow runs");
    return now;
  }

  async capture(w: ScreenWindow): Promise<Frame> {
    const attrs = this.#x.attributes(xid(w));
    if (!attrs) throw new ScreenUnavailableError(`the window ${JSON.stringify(w.title)} is gone`, "keep the window open while the flow runs");
    const image = this.#x.image(xid(w), attrs.width, attrs.height);
    if (typeof image === "string")
      throw new ScreenUnavailableError(`the window ${JSON.stringify(w.title)} could not be read: ${image}`, "keep the whole window on the screen and mapped");
    return image;
  }

  /** Whether `focus` is `w` or inside it. */
  #holds(w: Xid, focus: Xid): boolean {
    for (let f = focus, i = 0; f !== NONE && f !== POINTER_ROOT && i < 32; i++) {
      if (f === w) return true;
      const parent = this.#x.tree(f)?.parent;
      if (parent === undefined || parent === this.#x.root) return false;
      f = parent;
    }
    return false;
  }

  /** The top-level (a child of the root) that holds `w`: w itself, or a window manager's frame. */
  #topLevel(w: Xid): Xid {
    let f = w;
    for (let i = 0; i < 32; i++) {
      const parent = this.#x.tree(f)?.parent;
      if (parent === undefined || parent === this.#x.root || parent === NONE) return f;
      f = parent;
    }
    return f;
  }

  /** A window as messages name it: its id and the title of it or of the titled window inside it. */
  #describe(id: Xid): string {
    if (id === NONE) return "no window";
    if (id === POINTER_ROOT) return "whichever window is under the pointer";
    const own = this.#x.windowName(id);
    if (own !== "") return `window ${hex(id)} ${JSON.stringify(own)}`;
    const stack = [...(this.#x.tree(id)?.children ?? [])];
    for (let i = 0; i < 64 && stack.length > 0; i++) {
      const c = stack.shift()!;
      const name = this.#x.windowName(c);
      if (name !== "") return `window ${hex(id)} holding ${JSON.stringify(name)}`;
      stack.push(...(this.#x.tree(c)?.children ?? []));
    }
    return `window ${hex(id)} (untitled)`;
  }

  #hasKeyboard(w: Xid): boolean {
    if (!this.#holds(w, this.#x.focus())) return false;
    // With a window manager that keeps it, the active window must agree.
    const active = this.#x.windowProperty(this.#x.root, "_NET_ACTIVE_WINDOW");
    return active === undefined || active === NONE || this.#holds(w, active) || this.#holds(active, w);
  }

  async activate(w: ScreenWindow): Promise<InputAnswer> {
    const id = xid(w);
    const attrs = this.#x.attributes(id);
    if (!attrs?.viewable)
      return { ok: false, failed: "visible", detail: `the window ${JSON.stringify(w.title)} is ${attrs ? "not mapped (minimised or hidden)" : "gone"}` };
    for (let i = 0; i < FOCUS_TRIES; i++) {
      this.#x.raise(this.#topLevel(id));
      this.#x.requestActive(id);
      this.#x.setFocus(id);
      if (this.#hasKeyboard(id)) {
        if (!this.#x.grabbedElsewhere(id, "keyboard")) return { ok: true };
        return {
          ok: false,
          failed: "visible",
          detail: `another X client holds the keyboard (an active grab, e.g. an open menu or a modal dialog of another program): keystrokes would go to it, not to ${JSON.stringify(w.title)}`,
        };
      }
      await this.#sleep(FOCUS_PAUSE_MS);
    }
    return {
      ok: false,
      failed: "visible",
      detail: `the window ${JSON.stringify(w.title)} does not get the keyboard: it stays with ${this.#describe(this.#x.focus())}`,
    };
  }

  /** The root point for (x, y) of `w`, when `w` is the top window there. */
  #pointOn(w: ScreenWindow, x: number, y: number): { ok: true; x: number; y: number } | Extract<InputAnswer, { ok: false }> {
    const id = xid(w);
    const at = this.#x.toRoot(id, x, y);
    if (!at) return { ok: false, failed: "visible", detail: `the window ${JSON.stringify(w.title)} is gone` };
    const [sw, sh] = this.#x.screenSize();
    if (at.x < 0 || at.y < 0 || at.x >= sw || at.y >= sh)
      return { ok: false, failed: "receives-pointer", detail: `the point ${x},${y} of the window is off the screen (at ${at.x},${at.y})` };
    const top = this.#topLevel(id);
    if (at.child !== top) return { ok: false, failed: "receives-pointer", detail: `${this.#describe(at.child)} is in front of the window at ${x},${y}` };
    if (this.#x.grabbedElsewhere(id, "pointer"))
      return {
        ok: false,
        failed: "receives-pointer",
        detail: `another X client holds the pointer (an active grab): a click at ${x},${y} would go to it, not to ${JSON.stringify(w.title)}`,
      };
    return { ok: true, x: at.x, y: at.y };
  }

  async hover(w: ScreenWindow, x: number, y: number): Promise<InputAnswer> {
    const active = await this.activate(w);
    if (!active.ok) return active;
    const p = this.#pointOn(w, x, y);
    if (!p.ok) return p;
    this.#x.fakeMotion(p.x, p.y);
    this.#x.sync();
    return { ok: true };
  }

  async click(w: ScreenWindow, x: number, y: number, button: MouseButton, count: 1 | 2): Promise<InputAnswer> {
    const active = await this.activate(w);
    if (!active.ok) return active;
    const p = this.#pointOn(w, x, y);
    if (!p.ok) return p;
    this.#x.fakeMotion(p.x, p.y);
    for (let i = 0; i < count; i++) {
      this.#x.fakeButton(BUTTONS[button], true);
      this.#x.fakeButton(BUTTONS[button], false);
    }
    this.#x.sync();
    return { ok: true };
  }

  async typeText(w: ScreenWindow, text: string): Promise<InputAnswer> {
    const active = await this.activate(w);
    if (!active.ok) return active;
    const shift = this.#keycodeOf(this.#x.keysym(MODIFIER_KEYSYMS.shift));
    let borrowed = false;
    for (const char of text.replace(/\r\n?/g, "\n")) {
      const ks = charKeysym(char);
      let kc = this.#x.keycode(ks);
      let shifted = false;
      if (kc === 0) {
        kc = this.#spareKeycode();
        this.#x.bindKeycode(kc, [ks, ks]);
        borrowed = true;
      } else {
        const syms = this.#x.keysymsOf(kc);
        shifted = syms[0] !== ks && syms[1] === ks;
      }
      if (shifted) this.#x.fakeKey(shift, true);
      this.#x.fakeKey(kc, true);
      this.#x.fakeKey(kc, false);
      if (shifted) this.#x.fakeKey(shift, false);
    }
    this.#x.sync();
    if (borrowed && this.#spare !== undefined) this.#x.bindKeycode(this.#spare, [0]);
    return { ok: true };
  }

  async pressKey(w: ScreenWindow, key: string, modifiers: readonly Modifier[]): Promise<InputAnswer> {
    const name = keysymName(key);
    const kc = name === undefined ? 0 : this.#keycodeOf(this.#x.keysym(name));
    if (kc === 0) return { ok: false, failed: "unsupported", detail: `the key ${JSON.stringify(key)} has no key on this X keyboard` };
    const active = await this.activate(w);
    if (!active.ok) return active;
    const held = [...new Set(modifiers.map((m) => this.#keycodeOf(this.#x.keysym(MODIFIER_KEYSYMS[m]))))].filter((c) => c !== 0);
    for (const m of held) this.#x.fakeKey(m, true);
    this.#x.fakeKey(kc, true);
    this.#x.fakeKey(kc, false);
    for (const m of [...held].reverse()) this.#x.fakeKey(m, false);
    this.#x.sync();
    return { ok: true };
  }

  #keycodeOf(keysym: number): number {
    return keysym === 0 ? 0 : this.#x.keycode(keysym);
  }

  /** The highest keycode bound to nothing (xdotool's trick for characters the map lacks). */
  #spareKeycode(): number {
    if (this.#spare !== undefined) return this.#spare;
    const { min, max } = this.#x.keycodeRange();
    for (let kc = max; kc >= min; kc--) {
      if (this.#x.keysymsOf(kc).every((s) => s === 0)) return (this.#spare = kc);
    }
    throw new ScreenUnavailableError("the X keyboard map has no free keycode to type a character it lacks", "type characters the keyboard layout has");
  }

  async screenSize(): Promise<[number, number]> {
    return this.#x.screenSize();
  }

  async close(): Promise<void> {
    this.#x.close();
  }
}

/** The screen of X display `display`: fails clearly when there is none, or it lacks XTEST. */
export function openX11Screen(display: string | undefined): Screen {
  if (display === undefined || display === "") {
    throw new ScreenUnavailableError(
      "there is no X display to read: DISPLAY is not set",
      "run flowproof inside the X session that shows the window (set DISPLAY, e.g. :0)",
    );
  }
  let x: XConnection | undefined;
  try {
    x = XConnection.open(display);
  } catch (error) {
    throw new ScreenUnavailableError(
      `libX11 or libXtst could not be opened: ${(error as Error).message}`,
      "install them (Debian: apt-get install libx11-6 libxtst6)",
      { cause: error },
    );
  }
  if (!x) throw new ScreenUnavailableError(`cannot connect to the X display ${display}`, "check DISPLAY and that the X server lets this user connect (xauth)");
  if (!x.hasXTest()) {
    x.close();
    throw new ScreenUnavailableError(
      `the X display ${display} has no XTEST extension, so no input can be sent to it`,
      "start the X server with XTEST enabled (Xvfb and Xorg have it by default)",
    );
  }
  return new X11Screen(x);
}
