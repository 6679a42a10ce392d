// What the Windows surface needs of the machine: a Desktop (processes, top-level windows, the
// foreground, real input, frames) and the element backends that read a window's controls (UI
// Automation, the Win32 window tree with MSAA; an in-memory fake for tests), which implement the
// desktop driver's ElementBackend. Types only.
import type { Rect } from "../../src/plugins/api.ts";
import type { ElementBackend } from "../desktop/backend.ts";
import type { SurfaceWindow } from "../desktop/element.ts";

/** A top-level window: a surface window with its process and owner. */
export type TopWindow = SurfaceWindow;

/** A program the driver started. */
export interface Launched {
  readonly pid: number;
  /** Settles when the program ends: its exit code and the tail of its stderr. */
  readonly exited: Promise<{ readonly code: number; readonly stderr: string }>;
  /** Ends it (and what it started, when the system can tell); resolves once it is gone or after a bound. */
  kill(): Promise<void>;
  /** Synchronous last resort at process exit. */
  killNow(): void;
}

export type MouseButton = "left" | "right";

/** Processes, windows, the foreground, real input and frames. */
export interface Desktop {
  /**
   * `exe` is the program path; `program` the command line's first word as written (its quotes
   * kept; default `exe`); `args` the rest of the command line. The program receives
   * `program args` verbatim, as Windows would start it from that line. The program (and whatever it
   * starts) ends when this process ends, however it ends: from the first tied launch on, this
   * process is in a kill-on-close job, so everything it starts is born in it. A `handOff` launch (a
   * launcher that hands the start to another process and exits: a UWP app's explorer) does not
   * put it there; the app the system starts for it is not this process's.
   */
  launch(exe: string, args: string, options?: { readonly handOff?: boolean; readonly program?: string }): Launched;
  topWindows(): Promise<readonly TopWindow[]>;
  /** The window that has the keyboard now (undefined: none). */
  foreground(): Promise<TopWindow | undefined>;
  /** Asks for `w` to become the foreground window; true when the system agreed. */
  bringToFront(w: TopWindow): Promise<boolean>;
  windowRect(w: TopWindow): Promise<Rect>;
  /** Moves and sizes `w`; answers the rectangle it has afterwards. */
  place(w: TopWindow, rect: Rect): Promise<Rect>;
  /** Unicode keystrokes into the foreground window. */
  typeText(text: string): Promise<void>;
  /** A key (canonical name: Enter, F4, a, …) with modifiers held. */
  pressKey(key: string, modifiers: readonly ("ctrl" | "alt" | "shift" | "meta")[]): Promise<void>;
  /** A real click at a screen point. */
  click(x: number, y: number, button: MouseButton, count: 1 | 2): Promise<void>;
  /** The window's pixels as a PNG, and the screen rectangle they cover. */
  capture(w: TopWindow): Promise<{ readonly png: Uint8Array; readonly rect: Rect }>;
  screenSize(): Promise<[number, number]>;
  /** Asks the window to close (WM_CLOSE). */
  closeWindow(w: TopWindow): Promise<void>;
}

/** What the adapter needs of the machine: a desktop, and the backends that can read a window's controls. */
export interface DesktopAccess {
  readonly desktop: Desktop;
  /** Backends by preference (UI Automation first); the first that can search the window is used. */
  readonly backends: readonly ElementBackend[];
}
