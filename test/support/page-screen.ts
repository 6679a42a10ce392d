// A vision Screen over a page in real Chromium: the window is the page (its title the window's),
// its pixels Chromium's screenshots, its input trusted CDP mouse and key events. The vision
// surface's conformance bed (plugins/vision/vision.conformance.test.ts): the form every UI driver
// is checked on, rendered as real text for real OCR, reacting to input, without a display.
import type { Rect } from "../../src/plugins/api.ts";
import { decodeFramePng, type Frame } from "../../plugins/vision/frame.ts";
import type { InputAnswer, Modifier, MouseButton, Screen, ScreenWindow } from "../../plugins/vision/screen.ts";
import { openBarePage, type BarePage } from "./cdp-page.ts";

const KEYS: Readonly<Record<string, { readonly code: string; readonly vk: number }>> = {
  End: { code: "End", vk: 35 },
  Home: { code: "Home", vk: 36 },
  Enter: { code: "Enter", vk: 13 },
  Tab: { code: "Tab", vk: 9 },
  Backspace: { code: "Backspace", vk: 8 },
  Delete: { code: "Delete", vk: 46 },
  Escape: { code: "Escape", vk: 27 },
};
const MODIFIER_BITS: Readonly<Record<Modifier, number>> = { alt: 1, ctrl: 2, mod: 2, meta: 4, shift: 8 };
const OK: InputAnswer = { ok: true };

export interface PageScreen {
  readonly screen: Screen;
  readonly window: ScreenWindow;
  /** Shows `url` afresh (the form's state is gone). */
  show(url: string): Promise<void>;
  /** Ends the browser. */
  close(): Promise<void>;
}

/** One Chromium page of `width`×`height` CSS pixels as a vision screen. */
export async function openPageScreen(width = 480, height = 360): Promise<PageScreen> {
  const page: BarePage = await openBarePage();
  const send = (method: string, params: object = {}) => page.session.send(method as never, params as never) as Promise<unknown>;
  await send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false });
  const window: { id: string; title: string } = { id: "page", title: "" };
  const title = async () =>
    ((await send("Runtime.evaluate", { expression: "document.title", returnByValue: true })) as { result: { value: string } }).result.value;
  const rect: Rect = { x: 0, y: 0, width, height };
  const mouse = async (x: number, y: number, button: MouseButton, count: 1 | 2) => {
    for (let i = 1; i <= count; i++) {
      await send("Input.dispatchMouseEvent", { type: "mousePressed", x, y, button, clickCount: i });
      await send("Input.dispatchMouseEvent", { type: "mouseReleased", x, y, button, clickCount: i });
    }
  };
  const screen: Screen = {
    platform: "chromium-page",
    windows: async () => [{ id: window.id, title: await title() }],
    rect: async () => rect,
    place: async () => rect,
    capture: async (): Promise<Frame> => {
      const { data } = (await send("Page.captureScreenshot", { format: "png" })) as { data: string };
      return decodeFramePng(new Uint8Array(Buffer.from(data, "base64")));
    },
    activate: async () => OK,
    hover: async (_w, x, y) => {
      await send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
      return OK;
    },
    click: async (_w, x, y, button, count) => {
      await mouse(x, y, button, count);
      return OK;
    },
    typeText: async (_w, text) => {
      if (text !== "") await send("Input.insertText", { text });
      return OK;
    },
    pressKey: async (_w, key, modifiers) => {
      const known = KEYS[key] ?? (key.length === 1 ? { code: `Key${key.toUpperCase()}`, vk: key.toUpperCase().charCodeAt(0) } : undefined);
      if (!known) return { ok: false, failed: "unsupported", detail: `the page screen has no key ${JSON.stringify(key)}` };
      const bits = modifiers.reduce((sum, m) => sum | MODIFIER_BITS[m], 0);
      const base = { key, code: known.code, windowsVirtualKeyCode: known.vk, modifiers: bits };
      await send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...base });
      await send("Input.dispatchKeyEvent", { type: "keyUp", ...base });
      return OK;
    },
    screenSize: async () => [width, height],
    close: async () => undefined,
  };
  return {
    screen,
    window,
    show: async (url) => {
      await send("Page.enable");
      await send("Page.navigate", { url });
      for (
        let i = 0;
        i < 200 &&
        (await send("Runtime.evaluate", { expression: "document.readyState", returnByValue: true }).then(
          (r) => (r as { result: { value: string } }).result.value,
        )) !== "complete";
        i++
      )
        await Bun.sleep(25);
      window.title = await title();
    },
    close: () => page.browser.close(),
  };
}
