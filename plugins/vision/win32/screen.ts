// The Win32 screen over flowproof's shared user32/gdi32 bindings (plugins/windows/ffi): windows by
// title, pixels with BitBlt from the window's DC (PrintWindow answers black under Wine), input
// with SendInput. Before every input the window is brought to the foreground and that is verified;
// a click also verifies that the window is the top one at its point (WindowFromPoint).
import { dlopen, FFIType } from "bun:ffi";
import type { Rect } from "../../../src/plugins/api.ts";
import { captureWindow } from "../../windows/ffi/gdi32.ts";
import { currentThreadId } from "../../windows/ffi/kernel32.ts";
import * as u from "../../windows/ffi/user32.ts";
import type { Frame } from "../frame.ts";
import { ScreenUnavailableError, type InputAnswer, type Modifier, type MouseButton, type Screen, type ScreenWindow } from "../screen.ts";

const GA_ROOT = 2;
const FOREGROUND_TRIES = 5;
const FOREGROUND_PAUSE_MS = 100;

function openPointLookup() {
  return dlopen("user32.dll", {
    WindowFromPoint: { args: [FFIType.i64], returns: FFIType.ptr },
    GetAncestor: { args: [FFIType.ptr, FFIType.u32], returns: FFIType.ptr },
  }).symbols;
}
let lookup: ReturnType<typeof openPointLookup> | undefined;

/** Pure: a POINT passed by value in one 64-bit register (x in the low half, y in the high half). */
export function packPoint(x: number, y: number): bigint {
  return (BigInt(y >>> 0) << 32n) | BigInt(x >>> 0);
}

/** The top-level window at a screen point (0: none). */
function topLevelAt(x: number, y: number): number {
  const l = (lookup ??= openPointLookup());
  const child = l.WindowFromPoint(packPoint(x, y));
  if (child === null) return 0;
  return Number(l.GetAncestor(child, GA_ROOT) ?? 0);
}

const hwnd = (w: ScreenWindow): number => Number(w.id);

export class Win32Screen implements Screen {
  readonly platform = "win32";

  async windows(): Promise<readonly ScreenWindow[]> {
    return u.findWindows((w) => w.visible && w.title !== "" && w.owner === 0).map((w) => ({ id: String(w.hwnd), title: w.title }));
  }

  async rect(w: ScreenWindow): Promise<Rect | undefined> {
    return u.isWindow(hwnd(w)) ? u.windowRect(hwnd(w)) : undefined;
  }

  async place(w: ScreenWindow, rect: Rect): Promise<Rect> {
    return u.placeWindow(hwnd(w), rect);
  }

  async capture(w: ScreenWindow): Promise<Frame> {
    if (!u.isWindow(hwnd(w))) throw new ScreenUnavailableError(`the window ${JSON.stringify(w.title)} is gone`, "keep the window open while the flow runs");
    const shot = captureWindow(hwnd(w), { area: "window" });
    return { width: shot.width, height: shot.height, rgba: new Uint8Array(shot.rgba) };
  }

  async activate(w: ScreenWindow): Promise<InputAnswer> {
    const id = hwnd(w);
    if (!u.isWindow(id) || !u.isVisible(id))
      return { ok: false, failed: "visible", detail: `the window ${JSON.stringify(w.title)} is ${u.isWindow(id) ? "hidden" : "gone"}` };
    for (let i = 0; i < FOREGROUND_TRIES; i++) {
      if (u.bringToForeground(id, currentThreadId()) && u.foregroundWindow() === id) return { ok: true };
      await Bun.sleep(FOREGROUND_PAUSE_MS);
    }
    const fg = u.foregroundWindow();
    return {
      ok: false,
      failed: "visible",
      detail: `the window ${JSON.stringify(w.title)} does not come to the foreground: ${fg === 0 ? "no window" : JSON.stringify(u.windowText(fg))} keeps it`,
    };
  }

  async #pointOn(w: ScreenWindow, x: number, y: number): Promise<{ ok: true; x: number; y: number } | Extract<InputAnswer, { ok: false }>> {
    const r = u.windowRect(hwnd(w));
    const sx = r.x + x;
    const sy = r.y + y;
    const top = topLevelAt(sx, sy);
    if (top !== hwnd(w))
      return {
        ok: false,
        failed: "receives-pointer",
        detail: `${top === 0 ? "no window" : `the window ${JSON.stringify(u.windowText(top))}`} is at ${x},${y} of the window instead`,
      };
    return { ok: true, x: sx, y: sy };
  }

  async hover(w: ScreenWindow, x: number, y: number): Promise<InputAnswer> {
    const active = await this.activate(w);
    if (!active.ok) return active;
    const p = await this.#pointOn(w, x, y);
    if (!p.ok) return p;
    u.user32().SetCursorPos(p.x, p.y);
    return { ok: true };
  }

  async click(w: ScreenWindow, x: number, y: number, button: MouseButton, count: 1 | 2): Promise<InputAnswer> {
    const active = await this.activate(w);
    if (!active.ok) return active;
    const p = await this.#pointOn(w, x, y);
    if (!p.ok) return p;
    u.clickAt(p.x, p.y, button, count);
    return { ok: true };
  }

  async typeText(w: ScreenWindow, text: string): Promise<InputAnswer> {
    const active = await this.activate(w);
    if (!active.ok) return active;
    u.typeText(text);
    return { ok: true };
  }

  async pressKey(w: ScreenWindow, key: string, modifiers: readonly Modifier[]): Promise<InputAnswer> {
    const active = await this.activate(w);
    if (!active.ok) return active;
    try {
      u.pressKey(key, modifiers);
    } catch (error) {
      return { ok: false, failed: "unsupported", detail: (error as Error).message };
    }
    return { ok: true };
  }

  async screenSize(): Promise<[number, number]> {
    const s = u.screenSize();
    return [s.width, s.height];
  }

  async close(): Promise<void> {}
}

export function openWin32Screen(): Screen {
  return new Win32Screen();
}
