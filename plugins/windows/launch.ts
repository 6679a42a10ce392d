// Starting a flow's program and finding its window: the command line split into the program and
// its arguments (passed verbatim), the window awaited by title (bounded polling; a failure lists
// the windows that were there), and `window:` geometry applied before the first step.
// A UWP app is started as `explorer.exe shell:AppsFolder\<AUMID>`: explorer hands the start over
// and exits, so the app's window belongs to another process; its content (a CoreWindow) is hosted
// by an ApplicationFrameWindow, which is the window that is placed, foregrounded and closed.
import { FlowproofError, type Rect } from "../../src/plugins/api.ts";
import type { Desktop, Launched, TopWindow } from "./backend.ts";

/** The launch config an app kind's session receives (values already resolved). */
export interface WindowsLaunch {
  /** The command line: a program path (quoted when it has spaces) and its arguments. */
  readonly command: string;
  /** A substring of the main window's title. */
  readonly windowTitle: string;
  /** `window:` as written: size, optionally position. */
  readonly geometry?: { readonly width: number; readonly height: number; readonly x?: number; readonly y?: number };
  /** How long the window may take to appear. */
  readonly timeoutMs: number;
}

/** A started program's main window, with what was applied to it. */
export interface OpenedWindow {
  readonly window: TopWindow;
  readonly launched: Launched;
  /** The window's rectangle after `window:` was applied (absent without `window:`). */
  readonly geometry?: Rect;
  /** The AUMID when the command started a UWP app: the launched process is explorer, not the app's. */
  readonly aumid?: string;
}

/** The class of a UWP app's content window. */
export const CORE_WINDOW_CLASS = "Windows.UI.Core.CoreWindow";
/** The class of the top-level frame that hosts a UWP app's CoreWindow. */
export const FRAME_WINDOW_CLASS = "ApplicationFrameWindow";

/** The AUMID of a UWP start command, `explorer.exe shell:AppsFolder\<AUMID>` (any case, explorer's path optional); else undefined. */
export function uwpAumid(command: string): string | undefined {
  const m = /^\s*"?(?:[^"]*[\\/])?explorer(?:\.exe)?"?\s+"?shell:appsfolder\\([^"\s]+)"?\s*$/i.exec(command);
  return m?.[1];
}

/**
 * The window input, geometry and frames go to: for a UWP CoreWindow, the visible top-level
 * ApplicationFrameWindow with the same title that hosts it (undefined while there is none yet);
 * any other window is its own host.
 */
export function hostOf(window: TopWindow, all: readonly TopWindow[]): TopWindow | undefined {
  if (window.className !== CORE_WINDOW_CLASS) return window;
  return all.find((w) => w.className === FRAME_WINDOW_CLASS && w.visible && w.owner === undefined && w.title === window.title);
}

export class AppLaunchError extends FlowproofError {
  constructor(message: string, hint: string) {
    super({ code: "app-launch", message, hint });
  }
}

/**
 * `"C:\Program Files\App\app.exe" --x y` → the program's path (`exe`, unquoted, to start it), the
 * program as written (`program`, quotes kept: the command line's first word) and the rest of the
 * line, verbatim. The program receives `program args`: the command line as written.
 */
export function splitCommand(command: string): { readonly exe: string; readonly program: string; readonly args: string } | string {
  const line = command.trim();
  if (line === "") return "the command is empty";
  if (line.startsWith('"')) {
    const end = line.indexOf('"', 1);
    if (end < 0) return "the program's path opens a quote it never closes";
    const exe = line.slice(1, end);
    if (exe.trim() === "") return "the quoted program path is empty";
    return { exe, program: line.slice(0, end + 1), args: line.slice(end + 1).trimStart() };
  }
  const space = line.search(/\s/);
  const exe = space < 0 ? line : line.slice(0, space);
  return { exe, program: exe, args: space < 0 ? "" : line.slice(space).trimStart() };
}

/** Whether `w` is the window a flow waits for. */
export function titleMatches(w: TopWindow, title: string): boolean {
  return w.visible && w.title.includes(title);
}

/**
 * Starts `spec.command` and waits (polling, bounded) for a visible window whose title contains
 * `spec.windowTitle`, preferring one of the started process; applies `spec.geometry` to it.
 */
export async function openWindow(
  desktop: Desktop,
  spec: WindowsLaunch,
  sleep: (ms: number) => Promise<void>,
  now: () => number = Date.now,
): Promise<OpenedWindow> {
  const split = splitCommand(spec.command);
  if (typeof split === "string")
    throw new AppLaunchError(
      `could not start \`${spec.command}\`: ${split}`,
      'write `command: "C:\\\\Path With Spaces\\\\app.exe" --arg` (the program path in quotes when it has spaces)',
    );
  // A UWP start: explorer exits at once (often with code 1) and the window is another process's.
  const aumid = uwpAumid(spec.command);
  let launched: Launched;
  try {
    launched = desktop.launch(split.exe, split.args, { handOff: aumid !== undefined, program: split.program });
  } catch (error) {
    throw new AppLaunchError(`could not start \`${spec.command}\`: ${(error as Error).message}`, "check the program's path in `command:`");
  }
  const uwp = aumid !== undefined ? { aumid } : {};
  let exited: { code: number; stderr: string } | undefined;
  void launched.exited.then((e) => {
    exited = e;
  });
  const deadline = now() + spec.timeoutMs;
  let seen: readonly TopWindow[] = [];
  for (let i = 0; ; i++) {
    seen = await desktop.topWindows();
    const matching = seen.filter((w) => titleMatches(w, spec.windowTitle) && w.owner === undefined);
    const own = aumid === undefined ? matching.find((w) => w.pid === launched.pid && hostOf(w, seen)) : undefined;
    const found = own ?? matching.find((w) => w.className === FRAME_WINDOW_CLASS) ?? matching.find((w) => hostOf(w, seen));
    const window = found && hostOf(found, seen);
    if (window) {
      if (!spec.geometry) return { window, launched, ...uwp };
      const current = await desktop.windowRect(window);
      const rect = { x: spec.geometry.x ?? current.x, y: spec.geometry.y ?? current.y, width: spec.geometry.width, height: spec.geometry.height };
      const geometry = await desktop.place(window, rect);
      return { window, launched, geometry, ...uwp };
    }
    // A program that ended without a window (and with an error) will not show one later.
    if (aumid === undefined && exited !== undefined && exited.code !== 0) {
      const stderr = exited.stderr.trim();
      throw new AppLaunchError(
        `\`${spec.command}\` exited with code ${exited.code} before a window titled ${JSON.stringify(spec.windowTitle)} appeared${stderr ? `; its stderr: ${stderr.slice(-500)}` : "; it wrote nothing to stderr"}`,
        "run the command by hand to see why it fails, and check `command:`",
      );
    }
    if (now() >= deadline) {
      const titles = [...new Set(seen.filter((w) => w.visible && w.title !== "").map((w) => JSON.stringify(w.title)))];
      if (aumid !== undefined) {
        // The launched process is explorer: it is not the app and is never killed.
        throw new AppLaunchError(
          `no window titled ${JSON.stringify(spec.windowTitle)} appeared within ${spec.timeoutMs} ms of starting the UWP app ${aumid}; the app may not be installed on this machine; windows seen: ${titles.length > 0 ? titles.slice(0, 20).join(", ") : "none"}`,
          "list the installed apps and their AUMIDs with `Get-StartApps` in PowerShell, and write `command: explorer.exe shell:AppsFolder\\<AUMID>` with one of them; check `window_title:` against the app's title bar",
        );
      }
      await launched.kill().catch(() => undefined);
      throw new AppLaunchError(
        `no window titled ${JSON.stringify(spec.windowTitle)} appeared within ${spec.timeoutMs} ms of starting \`${spec.command}\`; windows seen: ${titles.length > 0 ? titles.slice(0, 20).join(", ") : "none"}`,
        "set `window_title:` to a part of the title the program's window shows",
      );
    }
    await sleep(Math.min(50 * (i + 1), 250));
  }
}
