// The Windows desktop adapters: `app: {command, window_title}` (kind `windows`), `app: notepad`
// and `app: calc`. The bun:ffi bindings are imported only on Windows, so no other platform ever
// opens user32 and friends; elsewhere launching is a clear unsupported-platform error.
import {
  defineAdapter,
  FlowproofError,
  killAtExit,
  msFromEnv,
  type AdapterPlugin,
  type AdapterSession,
  type AppDriver,
  type Capability,
  type LaunchContext,
} from "../../src/plugins/api.ts";
import type { Desktop, DesktopAccess, TopWindow } from "./backend.ts";
import type { ElementBackend } from "../desktop/backend.ts";
import { UnsupportedPlatformError } from "../desktop/platform.ts";
import type { AppFlavour } from "./driver.ts";
import type { OpenedWindow, WindowsLaunch } from "./launch.ts";
import { CALC_GRAMMAR, NOTEPAD_GRAMMAR, TITLES, WINDOWS_GRAMMAR } from "./grammar.ts";
import { APP_KEYS, PROGRAM_KEYS, WINDOWS_FACTS, WINDOWS_PLATFORMS } from "./flow-keys.ts";

const CAPABILITIES: readonly Capability[] = ["pointer", "keyboard", "select", "screenshot"];
/** How long a program's window may take to appear, by default. */
export const WINDOW_TIMEOUT_MS = 30_000;

/** FLOWPROOF_WINDOW_TIMEOUT_MS (whole milliseconds, MAX_TIMEOUT_MS at most), else WINDOW_TIMEOUT_MS; any other value is a `bad-value` error. */
export function windowTimeoutFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  return msFromEnv(env, "FLOWPROOF_WINDOW_TIMEOUT_MS", { fallback: WINDOW_TIMEOUT_MS });
}

/** The program and window each built-in kind starts when the flow names none. */
export const DEFAULT_APPS: Readonly<Record<Exclude<AppFlavour, "windows">, { readonly command: string; readonly windowTitle: string }>> = {
  notepad: { command: "notepad.exe", windowTitle: "Notepad" },
  calc: { command: "calc.exe", windowTitle: "Calculator" },
};

/** `app: windows` (notepad, calc) on a machine that is not Windows: the desktop kit's one refusal. */
export { UnsupportedPlatformError };

/** The bun:ffi desktop, loaded only on Windows. */
async function windowsAccess(): Promise<DesktopAccess> {
  const { createWin32Access } = await import("./backends/win32.ts");
  return createWin32Access();
}

/** The launch config's `{command, window_title, window, backend}` for `kind`, with its defaults. */
export function launchSpec(kind: AppFlavour, config: Readonly<Record<string, unknown>>): WindowsLaunch & { readonly backend?: string } {
  const defaults = kind === "windows" ? undefined : DEFAULT_APPS[kind];
  const command = typeof config["command"] === "string" ? config["command"] : defaults?.command;
  const windowTitle = typeof config["window_title"] === "string" ? config["window_title"] : defaults?.windowTitle;
  if (command === undefined || windowTitle === undefined) {
    throw new FlowproofError({
      code: "bad-value",
      message: "a Windows app needs `command` and `window_title`",
      hint: 'app: {command: "C:\\\\Apps\\\\app.exe", window_title: "My App"}',
    });
  }
  const w = config["window"];
  const geometry = typeof w === "object" && w !== null ? (w as WindowsLaunch["geometry"]) : undefined;
  const timeout = config["window_timeout_ms"];
  return {
    command,
    windowTitle,
    ...(geometry ? { geometry } : {}),
    timeoutMs: typeof timeout === "number" && timeout > 0 ? timeout : windowTimeoutFromEnv(process.env),
    ...(typeof config["backend"] === "string" ? { backend: config["backend"] } : {}),
  };
}

/** The backend for `window`: the recorded one when the trace names it, else the first that can search it. */
export async function chooseBackend(backends: readonly ElementBackend[], window: TopWindow, recorded?: string): Promise<ElementBackend> {
  if (recorded !== undefined) {
    const named = backends.find((b) => b.name === recorded);
    if (named) return named;
  }
  for (const b of backends) if (await b.canSearch(window)) return b;
  const last = backends[backends.length - 1];
  if (!last) throw new FlowproofError({ code: "plugin-error", message: "no element backend is available on this machine" });
  return last;
}

/**
 * How a session ends its program: the window is asked to close (WM_CLOSE), then the launched
 * process is awaited (bounded) and killed when it is still there; should this process exit first,
 * the shared exit hook kills it. A UWP app's launched process is explorer, which handed the start
 * over: it is never killed, nor is the app's own process (not ours); closing its frame window is
 * all that is done.
 */
export function stopper(desktop: Desktop, opened: OpenedWindow, sleep: (ms: number) => Promise<void>): () => Promise<void> {
  if (opened.aumid !== undefined) return async () => desktop.closeWindow(opened.window).catch(() => undefined);
  const launched = opened.launched;
  const unhook = killAtExit(() => launched.killNow());
  return async () => {
    await desktop.closeWindow(opened.window).catch(() => undefined);
    const ended = await Promise.race([launched.exited.then(() => true), sleep(2_000).then(() => false)]);
    if (!ended) await launched.kill();
    unhook();
  };
}

export class WindowsSession implements AdapterSession {
  readonly #kind: AppFlavour;
  readonly #access: () => Promise<DesktopAccess>;
  readonly #platform: string;

  constructor(kind: AppFlavour, access: () => Promise<DesktopAccess> = windowsAccess, platform: string = process.platform) {
    this.#kind = kind;
    this.#access = access;
    this.#platform = platform;
  }

  async launch(config: Readonly<Record<string, unknown>>, ctx: LaunchContext): Promise<AppDriver> {
    if (this.#platform !== "win32")
      throw new UnsupportedPlatformError({
        kind: this.#kind,
        needs: "Windows",
        platform: this.#platform,
        hint: "run this flow on a Windows machine (or under Wine), or drive a web or api surface here",
      });
    // Replay uses the element backend the trace was recorded with (a fact `appInfo` reported).
    const backend = ctx.recorded?.["backend"];
    const spec = launchSpec(this.#kind, typeof backend === "string" ? { ...config, backend } : config);
    const { desktop, backends } = await this.#access();
    // The driver's modules load when a Windows app opens, never in a run of another kind.
    const [{ openWindow }, { WindowsDriver }] = await Promise.all([import("./launch.ts"), import("./driver.ts")]);
    const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
    const opened = await openWindow(desktop, spec, sleep);
    // A program started with a wrong command line often opens its main window and an error box
    // ("Could not open the file."): steps would act on that box first, so it is reported.
    for (const d of (await desktop.topWindows()).filter((w) => w.visible && w.owner === opened.window.handle)) {
      ctx.log(
        `WARNING: the app opened a dialog as it started, ${JSON.stringify(d.title)}; the steps act on it first. If it reports an error, check the flow's \`command:\` (a program path with spaces needs quotes)`,
      );
    }
    const stop = stopper(desktop, opened, sleep);
    try {
      const backend = await chooseBackend(backends, opened.window, spec.backend);
      return new WindowsDriver({
        desktop,
        backend,
        window: opened.window,
        flavour: this.#kind,
        stop,
        ...(opened.geometry ? { geometry: opened.geometry } : {}),
      });
    } catch (error) {
      await stop();
      throw error;
    }
  }

  async close(): Promise<void> {}
}

const adapter = (kind: AppFlavour, declared: Pick<AdapterPlugin, "title" | "keys" | "grammar">): AdapterPlugin =>
  defineAdapter({
    kind,
    capabilities: CAPABILITIES,
    ...declared,
    platforms: WINDOWS_PLATFORMS,
    facts: WINDOWS_FACTS,
    open: async () => new WindowsSession(kind),
  });

/** `app: {command, window_title}`: any Windows program. */
export const plugin = adapter("windows", { title: TITLES.windows, keys: PROGRAM_KEYS, grammar: WINDOWS_GRAMMAR });
export const notepadPlugin = adapter("notepad", { title: TITLES.notepad, keys: APP_KEYS, grammar: NOTEPAD_GRAMMAR });
export const calcPlugin = adapter("calc", { title: TITLES.calc, keys: APP_KEYS, grammar: CALC_GRAMMAR });
/** Every Windows app kind, for the built-in registry. */
export const plugins: readonly AdapterPlugin[] = [plugin, notepadPlugin, calcPlugin];
