// Attaching to a window and the per-run session: the window is awaited by title (it is never
// launched), its geometry pinned when the config asks, and one OCR engine serves every flow of the
// run; closing the session terminates it, so no worker thread outlives the run.
import type { AdapterSession, AppDriver, LaunchContext, Rect } from "../../src/plugins/api.ts";
import { FlowproofError, msFromEnv } from "../../src/plugins/api.ts";
import { parseVisionConfig } from "./config.ts";
import { VisionDriver, type VisionConfig } from "./driver.ts";
import { OcrEngine } from "./ocr/engine.ts";
import { readModel } from "./ocr/model.ts";
import { openScreen, type ScreenOptions } from "./platform.ts";
import type { Screen, ScreenWindow } from "./screen.ts";
import type { TextReader } from "./view.ts";

/** How long the window may take to appear, by default. */
export const WINDOW_TIMEOUT_MS = 30_000;
const POLL_MS = 200;

export class WindowNotFoundError extends FlowproofError {
  constructor(message: string, hint: string) {
    super({ code: "app-launch", message, hint });
  }
}

export interface AttachOptions {
  readonly timeoutMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
  /** Called once when the driver closes (releases the screen). */
  readonly onClose?: () => Promise<void>;
}

/** Waits (bounded) for a window whose title contains `title`, front-most first; fails listing the titles seen. */
export async function findWindow(screen: Screen, title: string, options: AttachOptions = {}): Promise<ScreenWindow> {
  const sleep = options.sleep ?? ((ms: number) => Bun.sleep(ms));
  const now = options.now ?? Date.now;
  const deadline = now() + (options.timeoutMs ?? WINDOW_TIMEOUT_MS);
  for (;;) {
    const all = await screen.windows();
    const found = all.find((w) => w.title.includes(title));
    if (found) return found;
    if (now() >= deadline) {
      const titles = [...new Set(all.map((w) => w.title))].slice(0, 12).map((t) => JSON.stringify(t));
      throw new WindowNotFoundError(
        `no window titled ${JSON.stringify(title)} appeared within ${options.timeoutMs ?? WINDOW_TIMEOUT_MS} ms; windows open: ${titles.length > 0 ? titles.join(", ") : "none"}`,
        "open the app (a vision app is never launched by flowproof) and check `window.title`: it is a substring of the window's title",
      );
    }
    await sleep(POLL_MS);
  }
}

/** Pins the geometry the config asks for; answers the rectangle as applied. */
export async function applyGeometry(screen: Screen, window: ScreenWindow, config: VisionConfig): Promise<{ rect: Rect; pinned: boolean }> {
  const current = await screen.rect(window);
  if (!current) throw new WindowNotFoundError(`the window ${JSON.stringify(window.title)} closed as it was found`, "keep the window open while the flow runs");
  if (config.width === undefined || config.height === undefined) return { rect: current, pinned: false };
  const want = { x: config.x ?? current.x, y: config.y ?? current.y, width: config.width, height: config.height };
  const applied = await screen.place(window, want);
  if (applied.width !== want.width || applied.height !== want.height) {
    throw new WindowNotFoundError(
      `the window ${JSON.stringify(window.title)} stayed ${applied.width}×${applied.height} when sized to ${want.width}×${want.height}`,
      "the app (or the remote-desktop viewer) refuses that size: pin one it accepts, e.g. the size of the remote desktop",
    );
  }
  return { rect: applied, pinned: true };
}

/** A driver for the window `config` names on `screen`, its geometry applied. */
export async function attach(screen: Screen, ocr: TextReader, config: VisionConfig, options: AttachOptions = {}): Promise<VisionDriver> {
  const window = await findWindow(screen, config.title, options);
  const { rect, pinned } = await applyGeometry(screen, window, config);
  return new VisionDriver({
    screen,
    window,
    ocr,
    geometry: rect,
    pinned,
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.onClose ? { onClose: options.onClose } : {}),
  });
}

/** FLOWPROOF_WINDOW_TIMEOUT_MS, else WINDOW_TIMEOUT_MS; a malformed value is refused naming the variable. */
export function windowTimeoutFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  return msFromEnv(env, "FLOWPROOF_WINDOW_TIMEOUT_MS", { fallback: WINDOW_TIMEOUT_MS });
}

/** Pure: "800×600, recorded at 700×480" when both are sizes and they differ, else undefined. */
export function sizeDrift(recorded: unknown, now: unknown): string | undefined {
  const size = (g: unknown): [number, number] | undefined => {
    if (typeof g !== "object" || g === null) return undefined;
    const { width, height } = g as Record<string, unknown>;
    return typeof width === "number" && typeof height === "number" ? [width, height] : undefined;
  };
  const a = size(recorded);
  const b = size(now);
  if (!a || !b || (a[0] === b[0] && a[1] === b[1])) return undefined;
  return `${b[0]}×${b[1]}, recorded at ${a[0]}×${a[1]}`;
}

export interface VisionSessionOptions extends ScreenOptions {
  /** The platform's screen (default: X11 or Win32, opened lazily). */
  readonly openScreen?: (options: ScreenOptions) => Promise<Screen>;
  /** The text reader (default: the OCR engine, started once, on the first launch). */
  readonly startOcr?: () => Promise<TextReader & { terminate(): Promise<void> }>;
  readonly timeoutMs?: number;
}

/** One run: one OCR engine for every flow, one screen connection per flow. */
export class VisionSession implements AdapterSession {
  readonly #options: VisionSessionOptions;
  #ocr: Promise<TextReader & { terminate(): Promise<void> }> | undefined;
  readonly #drivers = new Set<AppDriver>();

  constructor(options: VisionSessionOptions = {}) {
    this.#options = options;
  }

  /**
   * A driver for the window the launch config's `window` names (`headed`, which the engine adds
   * when a person watches, changes nothing: the window is on screen anyway). On replay, a window
   * whose size was not pinned and differs from the recorded one is logged: OCR may read it differently.
   */
  async launch(raw: Readonly<Record<string, unknown>>, ctx: LaunchContext): Promise<VisionDriver> {
    const { headed: _headed, ...keys } = raw;
    const config = parseVisionConfig(keys);
    const env = ctx.env ?? process.env;
    const timeoutMs = this.#options.timeoutMs ?? windowTimeoutFromEnv(env);
    const screen = await (this.#options.openScreen ?? openScreen)(this.#options.display !== undefined ? { display: this.#options.display } : {});
    try {
      this.#ocr ??= (this.#options.startOcr ?? (async () => OcrEngine.start((await readModel(env)).bytes)))();
      const ocr = await this.#ocr;
      const driver = await attach(screen, ocr, config, {
        timeoutMs,
        onClose: async () => {
          this.#drivers.delete(driver);
          await screen.close();
        },
      });
      this.#drivers.add(driver);
      const drift = sizeDrift(ctx.recorded?.["geometry"], driver.appInfo()["geometry"]);
      if (drift)
        ctx.log(
          `vision: the window ${JSON.stringify(driver.window.title)} is ${drift}; OCR may read it differently (pin \`window.width\` and \`window.height\`)`,
        );
      return driver;
    } catch (error) {
      await screen.close();
      throw error;
    }
  }

  /** Closes every driver still open and terminates the OCR engine (awaited: its thread is gone after). */
  async close(): Promise<void> {
    for (const d of [...this.#drivers]) await d.close();
    const ocr = this.#ocr;
    this.#ocr = undefined;
    if (ocr !== undefined) await (await ocr.catch(() => undefined))?.terminate();
  }
}
