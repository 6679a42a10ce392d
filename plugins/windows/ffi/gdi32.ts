// Window frames through gdi32: BitBlt from the window's DC (or the screen's, over the window's
// rectangle) into a 32-bit top-down DIB, read with GetDIBits, converted BGRA → RGBA and encoded as PNG. (PrintWindow answers success with a black
// image under Wine, so BitBlt is the default.) gdi32/user32 are opened on first use.
import { dlopen, FFIType, type Pointer } from "bun:ffi";
import { PNG } from "pngjs";
import { clientRect, windowRect, type Hwnd, type Rect } from "./user32.ts";
import { FlowproofError } from "../../../src/plugins/api.ts";

export const SRCCOPY = 0x00cc0020;
export const CAPTUREBLT = 0x40000000;
export const PW_CLIENTONLY = 0x1;
export const PW_RENDERFULLCONTENT = 0x2;
const BI_RGB = 0;
const DIB_RGB_COLORS = 0;

function open() {
  const P = FFIType.ptr;
  const { i32, u32 } = FFIType;
  const gdi = dlopen("gdi32.dll", {
    CreateCompatibleDC: { args: [P], returns: P },
    CreateCompatibleBitmap: { args: [P, i32, i32], returns: P },
    SelectObject: { args: [P, P], returns: P },
    BitBlt: { args: [P, i32, i32, i32, i32, P, i32, i32, u32], returns: i32 },
    GetDIBits: { args: [P, P, u32, u32, P, P, u32], returns: i32 },
    DeleteObject: { args: [P], returns: i32 },
    DeleteDC: { args: [P], returns: i32 },
  }).symbols;
  const usr = dlopen("user32.dll", {
    GetDC: { args: [P], returns: P },
    GetWindowDC: { args: [P], returns: P },
    ReleaseDC: { args: [P, P], returns: i32 },
    PrintWindow: { args: [P, P, u32], returns: i32 },
  }).symbols;
  return { ...gdi, ...usr };
}

let lib: ReturnType<typeof open> | undefined;
const gdi = (): ReturnType<typeof open> => (lib ??= open());

/** Pure: 32bpp BGRA pixels (as GetDIBits writes them) → RGBA with full alpha, in a new buffer. */
export function bgraToRgba(bgra: Uint8Array): Buffer {
  const out = Buffer.alloc(bgra.byteLength);
  for (let i = 0; i + 3 < bgra.byteLength; i += 4) {
    out[i] = bgra[i + 2] ?? 0;
    out[i + 1] = bgra[i + 1] ?? 0;
    out[i + 2] = bgra[i] ?? 0;
    out[i + 3] = 255;
  }
  return out;
}

/** Pure: a BITMAPINFOHEADER (+ one colour slot) for a 32bpp top-down DIB of width × height. */
export function bitmapInfo(width: number, height: number): Uint8Array {
  const out = new Uint8Array(44);
  const v = new DataView(out.buffer);
  v.setUint32(0, 40, true); // biSize
  v.setInt32(4, width, true);
  v.setInt32(8, -height, true); // negative: top-down rows
  v.setUint16(12, 1, true); // planes
  v.setUint16(14, 32, true); // bits per pixel
  v.setUint32(16, BI_RGB, true);
  v.setUint32(20, width * height * 4, true);
  return out;
}

/** Pure: RGBA pixels → PNG bytes. */
export function encodePng(width: number, height: number, rgba: Buffer): Buffer {
  const png = new PNG({ width, height });
  rgba.copy(png.data);
  return PNG.sync.write(png);
}

export interface Capture {
  readonly width: number;
  readonly height: number;
  /** The screen rectangle the pixels cover. */
  readonly rect: Rect;
  readonly rgba: Buffer;
  readonly png: Buffer;
}

export interface CaptureOptions {
  /**
   * "window" (default): the whole window from its window DC; "client": the client area from GetDC;
   * "screen": the window's rectangle as the screen shows it (from the screen's DC), so the dialogs
   * and popups over the window are in the picture (a window's own DC leaves them black under Wine).
   */
  readonly area?: "window" | "client" | "screen";
  /** "bitblt" (default) or "printwindow" (PW_RENDERFULLCONTENT; for occluded windows on real Windows). */
  readonly method?: "bitblt" | "printwindow";
}

/** The window's pixels. Throws when the window has no area or a GDI call fails. */
export function captureWindow(hwnd: Hwnd, options: CaptureOptions = {}): Capture {
  const area = options.area ?? "window";
  const rect = area === "client" ? clientRect(hwnd) : windowRect(hwnd);
  const { width, height } = rect;
  if (width <= 0 || height <= 0) throw new FlowproofError({ code: "driver-error", message: `window ${hwnd} has no area to capture (${width}x${height})` });
  const g = gdi();
  // The screen's DC is the desktop's (a null window); the copy starts at the window's place on it.
  const wnd = (area === "screen" ? null : hwnd) as Pointer;
  const [fromX, fromY] = area === "screen" ? [rect.x, rect.y] : [0, 0];
  const dc = area === "window" ? g.GetWindowDC(wnd) : g.GetDC(wnd);
  if (dc === null) throw new FlowproofError({ code: "driver-error", message: `GetDC failed for window ${hwnd}` });
  const mem = g.CreateCompatibleDC(dc);
  const bmp = mem === null ? null : g.CreateCompatibleBitmap(dc, width, height);
  try {
    if (mem === null || bmp === null)
      throw new FlowproofError({ code: "driver-error", message: `could not create a ${width}x${height} bitmap for window ${hwnd}` });
    const old = g.SelectObject(mem, bmp);
    const ok =
      options.method === "printwindow"
        ? g.PrintWindow(wnd, mem, PW_RENDERFULLCONTENT | (area === "client" ? PW_CLIENTONLY : 0))
        : g.BitBlt(mem, 0, 0, width, height, dc, fromX, fromY, area === "screen" ? SRCCOPY | CAPTUREBLT : SRCCOPY);
    g.SelectObject(mem, old);
    if (ok === 0)
      throw new FlowproofError({ code: "driver-error", message: `${options.method === "printwindow" ? "PrintWindow" : "BitBlt"} failed for window ${hwnd}` });
    const pixels = new Uint8Array(width * height * 4);
    const lines = g.GetDIBits(mem, bmp, 0, height, pixels, bitmapInfo(width, height), DIB_RGB_COLORS);
    if (lines !== height) throw new FlowproofError({ code: "driver-error", message: `GetDIBits read ${lines} of ${height} lines for window ${hwnd}` });
    const rgba = bgraToRgba(pixels);
    return { width, height, rect, rgba, png: encodePng(width, height, rgba) };
  } finally {
    if (bmp !== null) g.DeleteObject(bmp);
    if (mem !== null) g.DeleteDC(mem);
    g.ReleaseDC(wnd, dc);
  }
}
