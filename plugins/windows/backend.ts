// The one interface the Windows driver sees: a Desktop (processes, top-level windows, the
// foreground, real input, frames) and an ElementBackend (the controls of one window: discovery
// and the few acts that are not keystrokes). Backends: UI Automation, the Win32 window tree with
// MSAA, and an in-memory fake for tests. Pure types plus matching helpers; no I/O.
import type { Rect } from "../../src/plugins/api.ts";

/** Control types the driver tells apart (UIA ControlType / MSAA role / Win32 class, mapped). */
export type ControlType =
  | "button" | "edit" | "document" | "checkbox" | "radio" | "combobox" | "list" | "listitem"
  | "text" | "hyperlink" | "menuitem" | "group" | "pane"
  // Item-bearing controls and their items (tab control, tree view, list view, header, toolbar, status bar).
  | "tablist" | "tab" | "tree" | "treeitem" | "table" | "cell" | "header" | "headeritem" | "toolbar" | "statusbar"
  | "other";

/** Where an element sits in a table (a list view in report mode): the row's index and its column's header text. */
export interface CellPlace {
  /** The table's ref: cells of one table share it. */
  readonly table: string;
  /** 0-based row in display order. */
  readonly row: number;
  readonly column: string;
}

/** One control of a window, as a backend read it. Rects are screen pixels. */
export interface WinElement {
  /** Opaque, backend-specific reference (a window handle, a tree path); stable while the control lives. */
  readonly ref: string;
  /** UIA Name / MSAA name / the control's window text (mnemonic `&` kept as the app wrote it). */
  readonly name: string;
  readonly controlType: ControlType;
  /** UIA AutomationId; for a classic Win32 control its control id in decimal; "" when none. */
  readonly automationId: string;
  readonly className?: string;
  readonly rect: Rect;
  readonly enabled: boolean;
  readonly visible: boolean;
  readonly focused: boolean;
  /** ES_PASSWORD / UIA IsPassword: its value is never read and it is masked in every frame. */
  readonly password: boolean;
  readonly checked?: boolean;
  /** An edit's text, a combo box's current text; never present for a password field. */
  readonly value?: string;
  /** A combo or list box's item texts, in order. */
  readonly items?: readonly string[];
  /** The selected item texts of a combo or list box. */
  readonly selected?: readonly string[];
  /** An item's own selection: the current tab, a selected tree or list item. */
  readonly itemSelected?: boolean;
  /** A tree item's (or a menu item's submenu's) state: shown open. */
  readonly expanded?: boolean;
  /** A list view item or cell in report mode: its row and column. */
  readonly cell?: CellPlace;
}

/** A top-level window. */
export interface TopWindow {
  /** Opaque handle (an HWND as a decimal string). */
  readonly handle: string;
  readonly title: string;
  readonly className: string;
  readonly pid: number;
  readonly visible: boolean;
  /** The window that owns this one (a dialog's parent window), when there is one. */
  readonly owner?: string;
}

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
   * `exe` is the program path; `args` the rest of the command line, passed verbatim. The program
   * (and whatever it starts) ends when this process ends, however it ends, unless `handOff`: a
   * launcher that hands the start to another process and exits (a UWP app's explorer).
   */
  launch(exe: string, args: string, options?: { readonly handOff?: boolean }): Launched;
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

/** Element discovery and the acts that are not keystrokes, for one backend. */
export interface ElementBackend {
  /** Written into the trace (`app.backend`): which backend resolved the steps. */
  readonly name: "uia" | "win32" | "fake";
  /** Whether this backend can search `w`'s controls (UIA under Wine cannot). */
  canSearch(w: TopWindow): Promise<boolean>;
  /** Every control under `w`, in tree order (depth first). */
  elements(w: TopWindow): Promise<readonly WinElement[]>;
  /** Gives `el` the keyboard focus. */
  focus(el: WinElement): Promise<void>;
  /** Selects all of an edit's text (so typing replaces it). */
  selectAll(el: WinElement): Promise<void>;
  /** Presses a button (its default action). */
  invoke(el: WinElement): Promise<void>;
  /** Selects the items with these texts in a combo or list box; answers what went wrong, or undefined. */
  select(el: WinElement, values: readonly string[]): Promise<string | undefined>;
}

/** What the adapter needs of the machine: a desktop, and the backends that can read a window's controls. */
export interface DesktopAccess {
  readonly desktop: Desktop;
  /** Backends by preference (UI Automation first); the first that can search the window is used. */
  readonly backends: readonly ElementBackend[];
}

/** A label as people read it: mnemonic `&` removed (`&&` is a literal `&`), trailing `:` and spaces dropped. */
export function plainLabel(name: string): string {
  return name.replace(/&(&?)/g, (_m, amp: string) => amp).replace(/\s*:\s*$/, "").replace(/\s+/g, " ").trim();
}

/** Whether a control takes typed text. */
export function isEditable(el: WinElement): boolean {
  return el.controlType === "edit" || el.controlType === "document" || el.controlType === "combobox";
}

/** How a control is named in messages: `button "Save" (id 1001)`. */
export function describeElement(el: WinElement): string {
  const name = plainLabel(el.name);
  return `${el.controlType}${name ? ` ${JSON.stringify(name)}` : ""}${el.automationId ? ` (id ${el.automationId})` : ""}`;
}
