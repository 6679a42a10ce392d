// bun:ffi bindings to libX11 and libXtst: the few Xlib calls the vision surface needs (the window
// tree and its names, pixels, focus, geometry, XTest input). Opened on first use, on Linux only.
import { dlopen, FFIType, JSCallback, ptr, read, toArrayBuffer, type Pointer } from "bun:ffi";

/** An X resource id (a window, an atom). */
export type Xid = number;

export const NONE = 0;
export const POINTER_ROOT = 1;
export const REVERT_TO_PARENT = 2;
export const CURRENT_TIME = 0;
export const IS_VIEWABLE = 2;
export const Z_PIXMAP = 2;
export const ALL_PLANES = 0xffffffff;
export const ANY_PROPERTY_TYPE = 0;
export const CLIENT_MESSAGE = 33;
export const SUBSTRUCTURE_REDIRECT_MASK = 1 << 20;
export const SUBSTRUCTURE_NOTIFY_MASK = 1 << 19;
export const GRAB_MODE_ASYNC = 1;
export const GRAB_SUCCESS = 0;
export const ALREADY_GRABBED = 1;

function open() {
  const P = FFIType.ptr;
  const { i32, u32, u8, i64, u64, u64_fast: u64f } = FFIType;
  const x11 = dlopen("libX11.so.6", {
    XOpenDisplay: { args: [P], returns: P },
    XCloseDisplay: { args: [P], returns: i32 },
    XDefaultRootWindow: { args: [P], returns: u64f },
    XDefaultScreen: { args: [P], returns: i32 },
    XDisplayWidth: { args: [P, i32], returns: i32 },
    XDisplayHeight: { args: [P, i32], returns: i32 },
    XQueryTree: { args: [P, u64, P, P, P, P], returns: i32 },
    XFree: { args: [P], returns: i32 },
    XInternAtom: { args: [P, P, i32], returns: u64f },
    XGetWindowProperty: { args: [P, u64, u64, i64, i64, i32, u64, P, P, P, P, P], returns: i32 },
    XGetWindowAttributes: { args: [P, u64, P], returns: i32 },
    XTranslateCoordinates: { args: [P, u64, u64, i32, i32, P, P, P], returns: i32 },
    XGetImage: { args: [P, u64, i32, i32, u32, u32, u64, i32], returns: P },
    XDestroyImage: { args: [P], returns: i32 },
    XRaiseWindow: { args: [P, u64], returns: i32 },
    XSetInputFocus: { args: [P, u64, i32, u64], returns: i32 },
    XGetInputFocus: { args: [P, P, P], returns: i32 },
    XMoveResizeWindow: { args: [P, u64, i32, i32, u32, u32], returns: i32 },
    XSendEvent: { args: [P, u64, i32, i64, P], returns: i32 },
    XSync: { args: [P, i32], returns: i32 },
    XKeysymToKeycode: { args: [P, u64], returns: u8 },
    XStringToKeysym: { args: [P], returns: u64f },
    XGetKeyboardMapping: { args: [P, u8, i32, P], returns: P },
    XDisplayKeycodes: { args: [P, P, P], returns: i32 },
    XChangeKeyboardMapping: { args: [P, i32, i32, P, i32], returns: i32 },
    XSetErrorHandler: { args: [P], returns: P },
    XGrabKeyboard: { args: [P, u64, i32, i32, i32, u64], returns: i32 },
    XUngrabKeyboard: { args: [P, u64], returns: i32 },
    XGrabPointer: { args: [P, u64, i32, u32, i32, i32, u64, u64, u64], returns: i32 },
    XUngrabPointer: { args: [P, u64], returns: i32 },
    XGetErrorText: { args: [P, i32, P, i32], returns: i32 },
  }).symbols;
  const xtst = dlopen("libXtst.so.6", {
    XTestQueryExtension: { args: [P, P, P, P, P], returns: i32 },
    XTestFakeKeyEvent: { args: [P, u32, i32, u64], returns: i32 },
    XTestFakeButtonEvent: { args: [P, u32, i32, u64], returns: i32 },
    XTestFakeMotionEvent: { args: [P, i32, i32, i32, u64], returns: i32 },
  }).symbols;
  return { ...x11, ...xtst };
}

let lib: ReturnType<typeof open> | undefined;
/** The Xlib and XTest symbols (opened on first use). */
export const xlib = (): ReturnType<typeof open> => (lib ??= open());

const cstr = (s: string): Uint8Array => new TextEncoder().encode(`${s}\0`);

/** The last X protocol error seen (Xlib's default handler would exit the process instead). */
let lastError: { code: number; request: number; resource: number } | undefined;
let handler: JSCallback | undefined;

/** Installs an error handler that records errors instead of exiting: a window may vanish mid-walk. */
function trapErrors(): void {
  if (handler) return;
  handler = new JSCallback(
    (_display: Pointer, event: Pointer) => {
      lastError = { code: read.u8(event, 32), request: read.u8(event, 33), resource: Number(read.u64(event, 16)) };
      return 0;
    },
    { args: [FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  );
  xlib().XSetErrorHandler(handler.ptr);
}

/** An 8-bit-per-channel image read from the server: rows top-down, RGBA. */
export interface PixelImage {
  readonly width: number;
  readonly height: number;
  readonly rgba: Uint8Array;
}

/** Window attributes the surface uses. */
export interface WindowAttributes {
  readonly width: number;
  readonly height: number;
  readonly viewable: boolean;
}

/** Pure: a ZPixmap of 32 bits per pixel with these channel masks → RGBA, full alpha. */
export function zpixmapToRgba(
  data: Uint8Array,
  width: number,
  height: number,
  bytesPerLine: number,
  masks: { red: number; green: number; blue: number },
): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const shift = (mask: number): number => (mask === 0 ? 0 : Math.clz32(1) - Math.clz32(mask & -mask));
  const [rs, gs, bs] = [shift(masks.red), shift(masks.green), shift(masks.blue)];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const px = view.getUint32(y * bytesPerLine + x * 4, true);
      const o = (y * width + x) * 4;
      out[o] = ((px & masks.red) >>> rs) & 0xff;
      out[o + 1] = ((px & masks.green) >>> gs) & 0xff;
      out[o + 2] = ((px & masks.blue) >>> bs) & 0xff;
      out[o + 3] = 255;
    }
  }
  return out;
}

/** One connection to an X server. Every method is synchronous Xlib. */
export class XConnection {
  readonly #dpy: Pointer;
  readonly root: Xid;
  readonly screen: number;
  readonly #atoms = new Map<string, Xid>();
  #closed = false;

  private constructor(dpy: Pointer) {
    this.#dpy = dpy;
    this.root = Number(xlib().XDefaultRootWindow(dpy));
    this.screen = xlib().XDefaultScreen(dpy);
  }

  /** Connects to `display` (e.g. ":1"); undefined when the server cannot be reached. */
  static open(display: string): XConnection | undefined {
    trapErrors();
    const dpy = xlib().XOpenDisplay(cstr(display));
    return dpy === null || typeof dpy !== "number" ? undefined : new XConnection(dpy);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    xlib().XCloseDisplay(this.#dpy);
  }

  /** Runs `fn` after a sync, then syncs again: answers its value and the X error it caused, if any. */
  guarded<T>(fn: () => T): { value: T; error?: string } {
    xlib().XSync(this.#dpy, 0);
    lastError = undefined;
    const value = fn();
    xlib().XSync(this.#dpy, 0);
    const e = lastError as { code: number; request: number } | undefined;
    lastError = undefined;
    return e ? { value, error: `X error ${e.code} (request ${e.request})` } : { value };
  }

  sync(): void {
    xlib().XSync(this.#dpy, 0);
  }

  atom(name: string): Xid {
    const known = this.#atoms.get(name);
    if (known !== undefined) return known;
    const a = Number(xlib().XInternAtom(this.#dpy, cstr(name), 0));
    this.#atoms.set(name, a);
    return a;
  }

  screenSize(): [number, number] {
    return [xlib().XDisplayWidth(this.#dpy, this.screen), xlib().XDisplayHeight(this.#dpy, this.screen)];
  }

  /** The window's parent and children (bottom to top); undefined when the window is gone. */
  tree(w: Xid): { parent: Xid; children: Xid[] } | undefined {
    const rootOut = new BigUint64Array(1);
    const parentOut = new BigUint64Array(1);
    const childrenOut = new BigUint64Array(1);
    const count = new Uint32Array(1);
    const { value: ok, error } = this.guarded(() => xlib().XQueryTree(this.#dpy, w, ptr(rootOut), ptr(parentOut), ptr(childrenOut), ptr(count)));
    if (ok === 0 || error) return undefined;
    const children: Xid[] = [];
    const list = Number(childrenOut[0]) as unknown as Pointer;
    if (childrenOut[0] !== 0n) {
      for (let i = 0; i < (count[0] ?? 0); i++) children.push(Number(read.u64(list, i * 8)));
      xlib().XFree(list);
    }
    return { parent: Number(parentOut[0]), children };
  }

  /** A property's raw bytes and type (undefined when absent or the window is gone). */
  property(w: Xid, name: string): { type: Xid; format: number; items: number; bytes: Uint8Array } | undefined {
    const type = new BigUint64Array(1);
    const format = new Int32Array(1);
    const items = new BigUint64Array(1);
    const after = new BigUint64Array(1);
    const data = new BigUint64Array(1);
    const { value: status, error } = this.guarded(() =>
      xlib().XGetWindowProperty(this.#dpy, w, this.atom(name), 0, 65536, 0, ANY_PROPERTY_TYPE, ptr(type), ptr(format), ptr(items), ptr(after), ptr(data)),
    );
    if (status !== 0 || error || data[0] === 0n) return undefined;
    const p = Number(data[0]) as unknown as Pointer;
    const n = Number(items[0]);
    const f = format[0] ?? 0;
    // Xlib hands 32-bit items as longs (8 bytes each on 64-bit).
    const size = f === 8 ? n : f === 16 ? n * 2 : n * 8;
    const bytes = size > 0 ? new Uint8Array(toArrayBuffer(p, 0, size).slice(0)) : new Uint8Array();
    xlib().XFree(p);
    return { type: Number(type[0]), format: f, items: n, bytes };
  }

  /** `_NET_WM_NAME` (UTF-8), else `WM_NAME` (Latin-1); "" when the window has no name. */
  windowName(w: Xid): string {
    const net = this.property(w, "_NET_WM_NAME");
    if (net && net.format === 8 && net.bytes.length > 0) return new TextDecoder().decode(net.bytes);
    const plain = this.property(w, "WM_NAME");
    if (plain && plain.format === 8) return Array.from(plain.bytes, (b) => String.fromCharCode(b)).join("");
    return "";
  }

  /** The first window id a 32-bit property holds (e.g. `_NET_ACTIVE_WINDOW` on the root). */
  windowProperty(w: Xid, name: string): Xid | undefined {
    const p = this.property(w, name);
    if (!p || p.format !== 32 || p.items < 1) return undefined;
    return Number(new DataView(p.bytes.buffer).getBigUint64(0, true));
  }

  attributes(w: Xid): WindowAttributes | undefined {
    const buf = new Uint8Array(136);
    const { value: ok, error } = this.guarded(() => xlib().XGetWindowAttributes(this.#dpy, w, ptr(buf)));
    if (ok === 0 || error) return undefined;
    const v = new DataView(buf.buffer);
    return { width: v.getInt32(8, true), height: v.getInt32(12, true), viewable: v.getInt32(92, true) === IS_VIEWABLE };
  }

  /** Where (x, y) of window `w` is on the root window, and the root's child at that point. */
  toRoot(w: Xid, x: number, y: number): { x: number; y: number; child: Xid } | undefined {
    const dx = new Int32Array(1);
    const dy = new Int32Array(1);
    const child = new BigUint64Array(1);
    const { value: ok, error } = this.guarded(() => xlib().XTranslateCoordinates(this.#dpy, w, this.root, x, y, ptr(dx), ptr(dy), ptr(child)));
    if (ok === 0 || error) return undefined;
    return { x: dx[0] ?? 0, y: dy[0] ?? 0, child: Number(child[0]) };
  }

  /** The window's pixels (ZPixmap, 24/32-bit TrueColor), as RGBA. */
  image(w: Xid, width: number, height: number): PixelImage | string {
    const { value: img, error } = this.guarded(() => xlib().XGetImage(this.#dpy, w, 0, 0, width, height, ALL_PLANES, Z_PIXMAP));
    if (img === null || error) return `XGetImage failed${error ? ` (${error})` : ""}: the window must be mapped and on screen`;
    try {
      const bpp = read.i32(img, 48);
      if (bpp !== 32) return `the display uses ${bpp} bits per pixel; run it at depth 24 (e.g. Xvfb -screen 0 WxHx24)`;
      const bytesPerLine = read.i32(img, 44);
      const data = read.ptr(img, 16) as unknown as Pointer;
      const raw = new Uint8Array(toArrayBuffer(data, 0, bytesPerLine * height));
      const masks = { red: Number(read.u64(img, 56)), green: Number(read.u64(img, 64)), blue: Number(read.u64(img, 72)) };
      return { width, height, rgba: zpixmapToRgba(raw, width, height, bytesPerLine, masks) };
    } finally {
      xlib().XDestroyImage(img);
    }
  }

  raise(w: Xid): void {
    this.guarded(() => xlib().XRaiseWindow(this.#dpy, w));
  }

  /** Gives `w` the input focus; answers the X error when the server refused (an unviewable window). */
  setFocus(w: Xid): string | undefined {
    return this.guarded(() => xlib().XSetInputFocus(this.#dpy, w, REVERT_TO_PARENT, CURRENT_TIME)).error;
  }

  /** The focus window: an id, NONE or POINTER_ROOT. */
  focus(): Xid {
    const out = new BigUint64Array(1);
    const revert = new Int32Array(1);
    xlib().XGetInputFocus(this.#dpy, ptr(out), ptr(revert));
    return Number(out[0]);
  }

  /** Asks a window manager (EWMH) to activate `w`. */
  requestActive(w: Xid): void {
    const ev = new Uint8Array(192);
    const v = new DataView(ev.buffer);
    v.setInt32(0, CLIENT_MESSAGE, true);
    v.setInt32(24, 1, true); // send_event
    v.setBigUint64(32, BigInt(w), true);
    v.setBigUint64(40, BigInt(this.atom("_NET_ACTIVE_WINDOW")), true);
    v.setInt32(48, 32, true);
    v.setBigInt64(56, 2n, true); // source indication: a pager (direct user action)
    this.guarded(() => xlib().XSendEvent(this.#dpy, this.root, 0, SUBSTRUCTURE_REDIRECT_MASK | SUBSTRUCTURE_NOTIFY_MASK, ptr(ev)));
  }

  moveResize(w: Xid, x: number, y: number, width: number, height: number): string | undefined {
    return this.guarded(() => xlib().XMoveResizeWindow(this.#dpy, w, x, y, width, height)).error;
  }

  /**
   * Whether another client holds an active grab of the keyboard (or the pointer): input would go
   * to it whatever has the focus. Probed by grabbing for `w` and releasing at once.
   */
  grabbedElsewhere(w: Xid, device: "keyboard" | "pointer"): boolean {
    const status =
      device === "keyboard"
        ? xlib().XGrabKeyboard(this.#dpy, w, 0, GRAB_MODE_ASYNC, GRAB_MODE_ASYNC, CURRENT_TIME)
        : xlib().XGrabPointer(this.#dpy, w, 0, 0, GRAB_MODE_ASYNC, GRAB_MODE_ASYNC, NONE, NONE, CURRENT_TIME);
    if (status === GRAB_SUCCESS) {
      if (device === "keyboard") xlib().XUngrabKeyboard(this.#dpy, CURRENT_TIME);
      else xlib().XUngrabPointer(this.#dpy, CURRENT_TIME);
      xlib().XSync(this.#dpy, 0);
    }
    return status === ALREADY_GRABBED;
  }

  hasXTest(): boolean {
    const a = new Int32Array(4);
    return xlib().XTestQueryExtension(this.#dpy, ptr(a), ptr(a.subarray(1)), ptr(a.subarray(2)), ptr(a.subarray(3))) !== 0;
  }

  keysym(name: string): number {
    return Number(xlib().XStringToKeysym(cstr(name)));
  }

  keycode(keysym: number): number {
    return xlib().XKeysymToKeycode(this.#dpy, keysym);
  }

  keycodeRange(): { min: number; max: number } {
    const min = new Int32Array(1);
    const max = new Int32Array(1);
    xlib().XDisplayKeycodes(this.#dpy, ptr(min), ptr(max));
    return { min: min[0] ?? 8, max: max[0] ?? 255 };
  }

  /** The keysyms bound to `keycode` (index 0 plain, 1 with Shift, …). */
  keysymsOf(keycode: number): number[] {
    const per = new Int32Array(1);
    const p = xlib().XGetKeyboardMapping(this.#dpy, keycode, 1, ptr(per));
    if (p === null) return [];
    const out: number[] = [];
    for (let i = 0; i < (per[0] ?? 0); i++) out.push(Number(read.u64(p, i * 8)));
    xlib().XFree(p);
    return out;
  }

  /** Binds `keysyms` (plain, shifted) to `keycode`. */
  bindKeycode(keycode: number, keysyms: readonly number[]): void {
    const list = new BigUint64Array(keysyms.map((k) => BigInt(k)));
    this.guarded(() => xlib().XChangeKeyboardMapping(this.#dpy, keycode, keysyms.length, ptr(list), 1));
  }

  fakeKey(keycode: number, down: boolean): void {
    xlib().XTestFakeKeyEvent(this.#dpy, keycode, down ? 1 : 0, CURRENT_TIME);
  }

  fakeButton(button: number, down: boolean): void {
    xlib().XTestFakeButtonEvent(this.#dpy, button, down ? 1 : 0, CURRENT_TIME);
  }

  fakeMotion(x: number, y: number): void {
    xlib().XTestFakeMotionEvent(this.#dpy, this.screen, x, y, CURRENT_TIME);
  }
}
