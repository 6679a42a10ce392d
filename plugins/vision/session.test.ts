import { describe, expect, test } from "bun:test";
import type { Rect } from "../../src/plugins/api.ts";
import { FakeScreen } from "./fake-screen.ts";
import type { GreyImage, OcrWord } from "./ocr/engine.ts";
import { applyGeometry, attach, findWindow, sizeDrift, VisionSession, windowTimeoutFromEnv, WINDOW_TIMEOUT_MS } from "./session.ts";

const frame = { width: 700, height: 480, rgba: new Uint8Array(700 * 480 * 4) };
const noText = { recognize: async (_: GreyImage): Promise<OcrWord[]> => [] };
const ctx = { baseDir: ".", log: () => undefined };

/** A clock that advances only when slept on. */
const clock = () => {
  let now = 0;
  return { now: () => now, sleep: async (ms: number) => void (now += ms) };
};

describe("attaching to a window", () => {
  test("finds the window by a part of its title", async () => {
    const screen = new FakeScreen(frame, "Payments remote - TigerVNC");
    expect(await findWindow(screen, "TigerVNC")).toEqual({ id: "1", title: "Payments remote - TigerVNC" });
  });

  test("waits for the window, bounded, and fails naming the windows that are open", async () => {
    const screen = new FakeScreen(frame, "Calculator");
    const c = clock();
    const error = await findWindow(screen, "Payments", { timeoutMs: 1_000, ...c }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "app-launch", message: 'no window titled "Payments" appeared within 1000 ms; windows open: "Calculator"' });
    expect(c.now()).toBeGreaterThanOrEqual(1_000);
  });

  test("pins the geometry when asked, keeps it otherwise, and fails when the window keeps another size", async () => {
    const screen = new FakeScreen(frame, "P", { x: 5, y: 6, width: 800, height: 600 });
    expect(await applyGeometry(screen, screen.window, { title: "P" })).toEqual({ rect: { x: 5, y: 6, width: 800, height: 600 }, pinned: false });
    expect(await applyGeometry(screen, screen.window, { title: "P", width: 700, height: 480 })).toEqual({
      rect: { x: 5, y: 6, width: 700, height: 480 },
      pinned: true,
    });
    screen.place = async (): Promise<Rect> => ({ x: 0, y: 0, width: 640, height: 480 });
    await expect(applyGeometry(screen, screen.window, { title: "P", width: 700, height: 480, x: 0, y: 0 })).rejects.toThrow(
      'the window "P" stayed 640×480 when sized to 700×480',
    );
  });

  test("attach gives a driver with the geometry as applied", async () => {
    const screen = new FakeScreen(frame, "P");
    const driver = await attach(screen, noText, { title: "P", width: 700, height: 480, x: 10, y: 20 });
    expect(driver.appInfo()).toMatchObject({ geometry: { x: 10, y: 20, width: 700, height: 480 }, geometry_pinned: true });
  });

  test("the window timeout comes from FLOWPROOF_WINDOW_TIMEOUT_MS; a malformed value is refused naming it", () => {
    expect(windowTimeoutFromEnv({ FLOWPROOF_WINDOW_TIMEOUT_MS: "500" })).toBe(500);
    expect(windowTimeoutFromEnv({})).toBe(WINDOW_TIMEOUT_MS);
    expect(() => windowTimeoutFromEnv({ FLOWPROOF_WINDOW_TIMEOUT_MS: "soon" })).toThrow(
      'FLOWPROOF_WINDOW_TIMEOUT_MS must be a positive whole number of milliseconds, not "soon"',
    );
  });

  test("a size that differs from the recorded one is named; the same size or no recorded size is not", () => {
    expect(sizeDrift({ x: 0, y: 0, width: 700, height: 480 }, { x: 9, y: 9, width: 800, height: 600 })).toBe("800×600, recorded at 700×480");
    expect(sizeDrift({ x: 0, y: 0, width: 700, height: 480 }, { x: 9, y: 9, width: 700, height: 480 })).toBeUndefined();
    expect(sizeDrift(undefined, { width: 700, height: 480 })).toBeUndefined();
  });
});

describe("VisionSession", () => {
  test("one OCR engine for every flow of the run, terminated when the session closes; each flow's screen closed with it", async () => {
    const screens: FakeScreen[] = [];
    let started = 0;
    let terminated = 0;
    const session = new VisionSession({
      openScreen: async () => {
        const s = new FakeScreen(frame, "Payments");
        screens.push(s);
        return s;
      },
      startOcr: async () => {
        started++;
        return { ...noText, terminate: async () => void terminated++ };
      },
    });
    const a = await session.launch({ window: { title: "Pay" } }, ctx);
    await session.launch({ window: { title: "Pay" } }, ctx);
    expect(started).toBe(1);
    await a.close();
    expect(screens.map((s) => s.closed)).toEqual([true, false]);
    await session.close();
    expect(screens.map((s) => s.closed)).toEqual([true, true]);
    expect(terminated).toBe(1);
  });

  test("takes the launch config the engine builds: `window` from the trace header, `headed` when a person watches; logs a size that drifted from the recording", async () => {
    const lines: string[] = [];
    const session = new VisionSession({
      openScreen: async () => new FakeScreen(frame, "Payments", { x: 0, y: 0, width: 800, height: 600 }),
      startOcr: async () => ({ ...noText, terminate: async () => undefined }),
    });
    const driver = await session.launch(
      { window: { title: "Pay" }, headed: true },
      { ...ctx, log: (l: string) => lines.push(l), recorded: { geometry: { x: 0, y: 0, width: 700, height: 480 } } },
    );
    expect(driver.appInfo()).toMatchObject({ window_title: "Payments", geometry: { width: 800, height: 600 }, geometry_pinned: false });
    expect(lines).toEqual([
      'vision: the window "Payments" is 800×600, recorded at 700×480; OCR may read it differently (pin `window.width` and `window.height`)',
    ]);
    await session.close();
  });

  test("a bad config or a missing window fails the launch and closes the screen it opened", async () => {
    const screens: FakeScreen[] = [];
    const session = new VisionSession({
      openScreen: async () => {
        const s = new FakeScreen(frame, "Other");
        screens.push(s);
        return s;
      },
      startOcr: async () => ({ ...noText, terminate: async () => undefined }),
      timeoutMs: 1,
    });
    await expect(session.launch({ window_title: "Pay" }, ctx)).rejects.toThrow("`window.title`, not `window_title`");
    await expect(session.launch({ window: { title: "Pay" } }, ctx)).rejects.toThrow(/^no window titled "Pay" appeared within 1 ms; windows open: "Other"$/);
    expect(screens.map((s) => s.closed)).toEqual([true]);
    await expect(session.launch({ window: { title: "Pay", height: 480 } }, ctx)).rejects.toThrow("give both or neither");
    await session.close();
  });
});
