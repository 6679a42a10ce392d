// What the desktop driver reads of a surface, whatever backend read it (UI Automation, the Win32
// window tree with MSAA, SAP GUI Scripting, an in-memory fake): windows and their controls as
// plain data, in one vocabulary, and how a control's label and description read. Pure.
import type { Rect } from "../../src/plugins/api.ts";

/** Control types the driver tells apart (UIA ControlType / MSAA role / Win32 class / SAP GUI type, mapped). */
export type ControlType =
  | "button"
  | "edit"
  | "document"
  | "checkbox"
  | "radio"
  | "combobox"
  | "list"
  | "listitem"
  | "text"
  | "hyperlink"
  | "menuitem"
  | "group"
  | "pane"
  // Item-bearing controls and their items (tab control, tree view, list view, header, toolbar, status bar).
  | "tablist"
  | "tab"
  | "tree"
  | "treeitem"
  | "table"
  | "cell"
  | "header"
  | "headeritem"
  | "toolbar"
  | "statusbar"
  | "other";

/** Where an element sits in a table (a list view in report mode, a SAP table control or grid): its row and its column's header text. */
export interface CellPlace {
  /** The table's ref: cells of one table share it. */
  readonly table: string;
  /** 0-based row in display order. */
  readonly row: number;
  readonly column: string;
  /** The column's own id, when it has one besides its header text (a SAP grid's field name): a step may name the column by it too. */
  readonly columnId?: string;
}

/** One control of a window, as a backend read it. Rects are screen pixels. */
export interface DesktopElement {
  /** Opaque, backend-specific reference (a window handle, a tree path, a scripting id); stable while the control lives. */
  readonly ref: string;
  /** UIA Name / MSAA name / the control's window text / a SAP label's or button's text (mnemonic `&` kept as the app wrote it); "" for a field. */
  readonly name: string;
  readonly controlType: ControlType;
  /** The native id a step names it by (`id:<…>`): UIA AutomationId, a classic control's id in decimal, a SAP scripting id; "" when none. */
  readonly automationId: string;
  /** The backend's own type name (a Win32 window class, a SAP GUI type such as GuiCTextField). */
  readonly className?: string;
  readonly rect: Rect;
  readonly enabled: boolean;
  readonly visible: boolean;
  readonly focused: boolean;
  /** ES_PASSWORD / UIA IsPassword / GuiPasswordField: its value is never read and it is masked in every frame. */
  readonly password: boolean;
  readonly checked?: boolean;
  /** An edit's text, a combo box's current text, a status bar's text; never present for a password field. */
  readonly value?: string;
  /** A combo or list box's item texts, in order. */
  readonly items?: readonly string[];
  /** The selected item texts of a combo or list box. */
  readonly selected?: readonly string[];
  /** An item's own selection: the current tab, a selected tree or list item. */
  readonly itemSelected?: boolean;
  /** A tree item's (or a menu item's submenu's) state: shown open. */
  readonly expanded?: boolean;
  /** A list view item or cell in report mode, a table control's cell: its row and column. */
  readonly cell?: CellPlace;
  /** The tooltip it shows: part of what the surface shows, and a text a step may name it by. */
  readonly tooltip?: string;
  /** The text of the label that names it (a SAP field's LeftLabel): a text a step may name it by. */
  readonly label?: string;
  /** Other texts a step may name it by that the surface does not show (a SAP field's technical name). */
  readonly aliases?: readonly string[];
}

/** A window of the surface: a top-level window (a dialog it owns), a SAP GUI session window. */
export interface SurfaceWindow {
  /** Opaque handle (an HWND as a decimal string, `wnd[0]`). */
  readonly handle: string;
  readonly title: string;
  readonly className: string;
  readonly pid: number;
  readonly visible: boolean;
  /** The window that owns this one (a dialog's parent window), when there is one. */
  readonly owner?: string;
}

/** One window's visible controls, as the driver read them. */
export interface WindowElements {
  readonly window: SurfaceWindow;
  readonly elements: readonly DesktopElement[];
}

/** A label as people read it: mnemonic `&` removed (`&&` is a literal `&`), trailing `:` and spaces dropped. */
export function plainLabel(name: string): string {
  return name
    .replace(/&(&?)/g, (_m, amp: string) => amp)
    .replace(/\s*:\s*$/, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Whether a control takes typed text. */
export function isEditable(el: DesktopElement): boolean {
  return el.controlType === "edit" || el.controlType === "document" || el.controlType === "combobox";
}

/** How a control is named in messages: `button "Save" (id 1001)`. */
export function describeElement(el: DesktopElement): string {
  const name = plainLabel(el.name);
  return `${el.controlType}${name ? ` ${JSON.stringify(name)}` : ""}${el.automationId ? ` (id ${el.automationId})` : ""}`;
}

/** Every text a step may name the control by: its label as read, its tooltip, the label naming it, its aliases. */
export function anchorsOf(el: DesktopElement): string[] {
  return [plainLabel(el.name), el.tooltip ?? "", plainLabel(el.label ?? ""), ...(el.aliases ?? [])].map((t) => t.trim()).filter((t) => t !== "");
}
