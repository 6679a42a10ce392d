// What the vision surface needs of a desktop: top-level windows by title, a window's pixels and
// geometry, and real input that goes only to that window. X11 (x11/screen.ts) and Win32
// (win32/screen.ts) implement it; each is loaded only on its platform (see platform.ts).
import { FlowproofError, type Rect } from "../../src/plugins/api.ts";
import type { Frame } from "./frame.ts";

/** A top-level window: an opaque id (an X window id, an HWND) and its title now. */
export interface ScreenWindow {
  readonly id: string;
  readonly title: string;
}

export type MouseButton = "left" | "right";
export type Modifier = "ctrl" | "alt" | "shift" | "meta" | "mod";

/**
 * Whether input reached the window: `ok: false` names what holds the keyboard or the pointer
 * instead (another window in front, focus refused), and then no input was sent.
 */
export type InputAnswer =
  | { readonly ok: true }
  | { readonly ok: false; readonly failed: "receives-pointer" | "visible" | "unsupported"; readonly detail: string };

export interface Screen {
  /** "x11" or "win32": recorded with the geometry. */
  readonly platform: string;
  /** Visible top-level windows that have a title, front to back where the system tells. */
  windows(): Promise<readonly ScreenWindow[]>;
  /** The window's rectangle on the screen (what `capture` covers); undefined once it is gone. */
  rect(w: ScreenWindow): Promise<Rect | undefined>;
  /** Moves and sizes the window (x, y on the screen); answers the rectangle it has afterwards. */
  place(w: ScreenWindow, rect: Rect): Promise<Rect>;
  /** The window's pixels now; throws when it is gone or cannot be read. */
  capture(w: ScreenWindow): Promise<Frame>;
  /** Raises the window and gives it the keyboard, verified. */
  activate(w: ScreenWindow): Promise<InputAnswer>;
  /** Moves the pointer to (x, y) in window pixels, verified to be over this window. */
  hover(w: ScreenWindow, x: number, y: number): Promise<InputAnswer>;
  /** A real click at (x, y) in window pixels, after verifying the window is in front there and has the keyboard. */
  click(w: ScreenWindow, x: number, y: number, button: MouseButton, count: 1 | 2): Promise<InputAnswer>;
  /** Real keystrokes for `text`, after verifying the window has the keyboard. */
  typeText(w: ScreenWindow, text: string): Promise<InputAnswer>;
  /** A key (canonical name: Enter, F4, a, …) with modifiers held, after verifying the window has the keyboard. */
  pressKey(w: ScreenWindow, key: string, modifiers: readonly Modifier[]): Promise<InputAnswer>;
  screenSize(): Promise<[number, number]>;
  /** Releases the connection (nothing is left open). */
  close(): Promise<void>;
}

export class ScreenUnavailableError extends FlowproofError {
  constructor(message: string, hint: string, options?: { cause?: unknown }) {
    super({ code: "app-launch", message, hint }, options);
  }
}
