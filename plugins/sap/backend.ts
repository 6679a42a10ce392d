// SAP GUI Scripting as an element backend of the desktop driver: a session window's controls read
// from the scripting tree (toolbar, user area, status bar, table control cells, ALV grid cells) as
// desktop elements, and the acts on one control that are not keystrokes. Each read keeps the
// scripting objects it saw, so an act reaches the very control the driver resolved.
import type { ElementBackend } from "../desktop/backend.ts";
import type { CellPlace, ControlType, DesktopElement, SurfaceWindow } from "../desktop/element.ts";
import { SapCallError, boolOf, isSapObject, itemsOf, numberOf, objectOf, sessionRelativeId, textOf, type SapObject } from "./engine.ts";

/** Controls that take text; `GuiGridCell` is an ALV grid cell as this backend hands it out. */
export const INPUT_TYPES: ReadonlySet<string> = new Set([
  "GuiTextField",
  "GuiCTextField",
  "GuiPasswordField",
  "GuiOkCodeField",
  "GuiComboBox",
  "GuiCheckBox",
  "GuiRadioButton",
  "GuiTextedit",
  "GuiGridCell",
]);
/** Controls a click presses or selects. */
export const PRESSABLE: ReadonlySet<string> = new Set(["GuiButton", "GuiTab", "GuiCheckBox", "GuiRadioButton", "GuiMenu"]);
/** Controls whose own text is their label (not a value). */
const LABELLED_BY_TEXT: ReadonlySet<string> = new Set(["GuiLabel", "GuiButton", "GuiTab", "GuiCheckBox", "GuiRadioButton", "GuiMenu", "GuiTitlebar"]);

const CONTROL_TYPES: ReadonlyMap<string, ControlType> = new Map<string, ControlType>([
  ["GuiTextField", "edit"],
  ["GuiCTextField", "edit"],
  ["GuiOkCodeField", "edit"],
  ["GuiPasswordField", "edit"],
  ["GuiGridCell", "edit"],
  ["GuiTextedit", "document"],
  ["GuiComboBox", "combobox"],
  ["GuiButton", "button"],
  ["GuiTab", "tab"],
  ["GuiTabStrip", "tablist"],
  ["GuiCheckBox", "checkbox"],
  ["GuiRadioButton", "radio"],
  ["GuiLabel", "text"],
  ["GuiMenu", "menuitem"],
  ["GuiMenubar", "toolbar"],
  ["GuiStatusbar", "statusbar"],
  ["GuiToolbar", "toolbar"],
  ["GuiTitlebar", "toolbar"],
  ["GuiUserArea", "pane"],
  ["GuiMainWindow", "pane"],
  ["GuiModalWindow", "pane"],
  ["GuiTableControl", "table"],
  ["GuiBox", "group"],
  ["GuiSimpleContainer", "group"],
  ["GuiScrollContainer", "group"],
]);

/** A SAP GUI type as the driver's control type. */
export const controlTypeOfSap = (type: string): ControlType => CONTROL_TYPES.get(type) ?? "other";

/** Ten levels is deeper than any SAP screen nests its controls. */
const MAX_DEPTH = 10;

/** SAP GUI Scripting behind the ElementBackend contract, on one session. */
export class SapBackend implements ElementBackend {
  readonly name = "sap";
  readonly #session: SapObject;
  /** The scripting objects of the latest reads, by element ref (a ref read again points at its newest object). */
  readonly #objects = new Map<string, SapObject>();

  constructor(session: SapObject) {
    this.#session = session;
  }

  /** The scripting object of a control the last read returned (else found by its id now). */
  objectOf(el: DesktopElement): SapObject | undefined {
    const known = this.#objects.get(el.ref);
    if (known) return known;
    const v = this.#session.call("FindById", el.ref, false);
    return isSapObject(v) ? v : undefined;
  }

  async canSearch(): Promise<boolean> {
    return true;
  }

  async elements(w: SurfaceWindow): Promise<readonly DesktopElement[]> {
    const wnd = this.#session.call("FindById", w.handle, false);
    if (!isSapObject(wnd)) return [];
    const focus = objectOf(wnd, "GuiFocus");
    const focusId = focus ? sessionRelativeId(textOf(focus, "Id")) : "";
    const out: DesktopElement[] = [];
    const walk = (parent: SapObject, depth: number, table: TableColumns | undefined): void => {
      for (const child of itemsOf(objectOf(parent, "Children"))) {
        const el = this.#element(child, focusId, table);
        this.#objects.set(el.ref, child);
        out.push(el);
        if (el.className === "GuiShell" && textOf(child, "SubType") === "GridView") out.push(...this.#gridCells(child, el.ref));
        // Table controls hold their cells as children too.
        if (depth < MAX_DEPTH) walk(child, depth + 1, el.className === "GuiTableControl" ? tableColumns(child, el.ref) : undefined);
      }
    };
    walk(wnd, 0, undefined);
    return out;
  }

  #element(o: SapObject, focusId: string, table: TableColumns | undefined): DesktopElement {
    const type = textOf(o, "Type");
    const id = sessionRelativeId(textOf(o, "Id"));
    const password = type === "GuiPasswordField";
    const text = password ? "" : textOf(o, "Text").trim();
    const byText = LABELLED_BY_TEXT.has(type);
    const tooltip = textOf(o, "Tooltip").trim();
    const technical = textOf(o, "Name").trim();
    const labelObject = type === "GuiLabel" ? undefined : objectOf(o, "LeftLabel");
    const label = labelObject ? textOf(labelObject, "Text").trim() : "";
    const changeable = boolOf(o, "Changeable");
    const combo = type === "GuiComboBox" ? comboFacts(o) : undefined;
    const cell = table?.placeOf(id);
    return {
      ref: id,
      name: byText ? text : "",
      controlType: controlTypeOfSap(type),
      automationId: id,
      className: type,
      // Read only when asked (frames, ambiguity messages): four calls per control.
      get rect() {
        return { x: numberOf(o, "ScreenLeft"), y: numberOf(o, "ScreenTop"), width: numberOf(o, "Width"), height: numberOf(o, "Height") };
      },
      // SAP GUI says a usable field or button is changeable; a label or a container is not, and is no less shown.
      enabled: INPUT_TYPES.has(type) || PRESSABLE.has(type) ? changeable : true,
      visible: true,
      focused: id !== "" && id === focusId,
      password,
      ...(!byText && !password && type !== "GuiComboBox" && INPUT_TYPES.has(type) ? { value: text } : {}),
      ...(type === "GuiStatusbar" ? { value: text } : {}),
      ...(combo ?? {}),
      ...(type === "GuiCheckBox" || type === "GuiRadioButton" ? { checked: boolOf(o, "Selected") } : {}),
      ...(type === "GuiTab" ? { itemSelected: boolOf(o, "Selected") } : {}),
      ...(cell ? { cell } : {}),
      ...(tooltip ? { tooltip } : {}),
      ...(label ? { label } : {}),
      ...(technical && technical !== text ? { aliases: [technical] } : {}),
    };
  }

  /** An ALV grid's visible rows as cells: no control of their own, read with GetCellValue, written with ModifyCell. */
  #gridCells(grid: SapObject, gridRef: string): DesktopElement[] {
    const ids = gridColumns(grid);
    const title = (id: string): string => {
      const t = grid.call("GetDisplayedColumnTitle", id);
      return typeof t === "string" ? t.trim() : "";
    };
    const columns = ids.map((id) => ({ id, title: title(id) || id }));
    const rowCount = numberOf(grid, "RowCount");
    // The rows shown (a grid may hold thousands): from the first visible one, as many as are visible.
    const first = numberOf(grid, "FirstVisibleRow");
    const visible = numberOf(grid, "VisibleRowCount");
    const last = visible > 0 ? Math.min(rowCount, first + visible) : rowCount;
    const fullId = textOf(grid, "Id");
    const out: DesktopElement[] = [];
    for (let row = first; row < last; row++) {
      for (const col of columns) {
        const cell = gridCell(grid, fullId, row, col.id);
        const ref = `${gridRef}/cell[${row},${col.id}]`;
        this.#objects.set(ref, cell);
        const changeable = boolOf(cell, "Changeable");
        out.push({
          ref,
          name: "",
          controlType: "edit",
          automationId: ref,
          className: "GuiGridCell",
          get rect() {
            return { x: numberOf(grid, "ScreenLeft"), y: numberOf(grid, "ScreenTop"), width: numberOf(grid, "Width"), height: numberOf(grid, "Height") };
          },
          enabled: changeable,
          visible: true,
          focused: false,
          password: false,
          value: textOf(cell, "Text"),
          cell: { table: gridRef, row, column: col.title, columnId: col.id },
        });
      }
    }
    return out;
  }

  async focus(el: DesktopElement): Promise<void> {
    this.objectOf(el)?.call("SetFocus");
  }

  async selectAll(): Promise<void> {
    // Setting a field's Text replaces it whole: nothing to select first.
  }

  async invoke(el: DesktopElement): Promise<void> {
    const o = this.objectOf(el);
    if (!o) return;
    const type = el.className ?? "";
    if (type === "GuiButton") o.call("Press");
    else if (type === "GuiTab" || type === "GuiMenu" || type === "GuiRadioButton") o.call("Select");
    else if (type === "GuiCheckBox") o.set("Selected", !boolOf(o, "Selected"));
    else o.call("SetFocus");
  }

  async select(el: DesktopElement, values: readonly string[]): Promise<string | undefined> {
    const o = this.objectOf(el);
    if (!o) return "the control is gone";
    const entries = itemsOf(objectOf(o, "Entries"));
    const value = values[0] ?? "";
    const entry =
      entries.find((e) => textOf(e, "Value") === value) ??
      entries.find((e) => textOf(e, "Key") === value) ??
      entries.find((e) => textOf(e, "Value").toLowerCase() === value.toLowerCase());
    if (!entry) return `no entry ${JSON.stringify(value)} in ${el.ref} (entries: ${entries.map((e) => JSON.stringify(textOf(e, "Value"))).join(", ")})`;
    o.set("Key", textOf(entry, "Key"));
    return undefined;
  }
}

/** A combo box's entries, the one shown and what it reads as. */
function comboFacts(o: SapObject): Pick<DesktopElement, "items" | "selected" | "value"> {
  const items = itemsOf(objectOf(o, "Entries")).map((e) => textOf(e, "Value"));
  const value = textOf(o, "Value") || textOf(o, "Text");
  return { items, selected: value === "" ? [] : [value], value };
}

/** A GuiTableControl's column titles, and each cell's place from its id's `[column,row]`. */
interface TableColumns {
  placeOf(id: string): CellPlace | undefined;
}

function tableColumns(table: SapObject, tableRef: string): TableColumns {
  let titles: string[] | undefined;
  return {
    placeOf: (id) => {
      const m = /\[(\d+),(\d+)\]$/.exec(id);
      if (!m) return undefined;
      titles ??= itemsOf(objectOf(table, "Columns")).map((c) => textOf(c, "Title").trim());
      const column = titles[Number(m[1])];
      return column === undefined ? undefined : { table: tableRef, row: Number(m[2]), column };
    },
  };
}

/** The column ids of a GuiGridView in display order (`ColumnOrder`, a collection of strings). */
function gridColumns(grid: SapObject): string[] {
  const order = objectOf(grid, "ColumnOrder");
  if (!order) return [];
  const n = numberOf(order, "Count");
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const v = order.call("ElementAt", i);
    if (typeof v === "string") out.push(v);
  }
  return out;
}

/**
 * A GuiGridView cell as a scripting object of its own: reading its `Text` is `GetCellValue`,
 * writing it `ModifyCell`, and `SetFocus` makes it the current cell.
 */
function gridCell(grid: SapObject, gridId: string, row: number, col: string): SapObject {
  const id = `${gridId}/cell[${row},${col}]`;
  const value = (): string => {
    const v = grid.call("GetCellValue", row, col);
    return v === null || isSapObject(v) ? "" : String(v);
  };
  return {
    get: (name) =>
      name === "Text"
        ? value()
        : name === "Type"
          ? "GuiGridCell"
          : name === "Id"
            ? id
            : name === "Changeable"
              ? cellChangeable(grid, row, col)
              : grid.get(name),
    set: (name, v) => {
      if (name !== "Text") throw new SapCallError(`a grid cell has no property ${name} to set`);
      grid.call("ModifyCell", row, col, v);
    },
    call: (name, ...args) => (name === "SetFocus" ? grid.call("SetCurrentCell", row, col) : grid.call(name, ...args)),
  };
}

/** Whether a grid cell can be changed (`GetCellChangeable`); false when the grid cannot tell. */
function cellChangeable(grid: SapObject, row: number, col: string): boolean {
  try {
    const v = grid.call("GetCellChangeable", row, col);
    return v === true || v === -1 || v === 1;
  } catch {
    // A read-only ALV grid may not implement it: such a cell is not changeable.
    return false;
  }
}
