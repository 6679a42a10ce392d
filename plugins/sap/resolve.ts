// Finding SAP GUI elements for a selector ladder: the scripting id (native rung), or an anchor
// matched against a control's visible text, tooltip, technical name and left label; table cells
// (GuiTableControl, GuiGridView) by column title and row text. One reading of the current screen
// per call; no waiting here.
import type { Selector } from "../../src/plugins/api.ts";
import { SapCallError, isSapObject, itemsOf, numberOf, objectOf, sessionRelativeId, textOf, type SapObject } from "./engine.ts";

/** One control of the current screen, with what anchors match. */
export interface SapElement {
  readonly obj: SapObject;
  /** Relative to the session: `wnd[0]/usr/ctxtVBAK-AUART`. */
  readonly id: string;
  readonly type: string;
  /** Technical name (`VBAK-AUART`). */
  readonly name: string;
  readonly text: string;
  readonly tooltip: string;
  /** The text of the label left of a field. */
  readonly label: string;
}

/** Controls that take text; `GuiGridCell` is a GuiGridView cell as the resolver hands it out. */
export const INPUT_TYPES = new Set(["GuiTextField", "GuiCTextField", "GuiPasswordField", "GuiOkCodeField", "GuiComboBox", "GuiCheckBox", "GuiRadioButton", "GuiTextedit", "GuiGridCell"]);
const PRESSABLE = new Set(["GuiButton", "GuiTab", "GuiCheckBox", "GuiRadioButton", "GuiMenu"]);
const ROLE_TYPES: Readonly<Record<string, ReadonlySet<string>>> = {
  field: new Set(["GuiTextField", "GuiCTextField", "GuiPasswordField", "GuiOkCodeField", "GuiComboBox", "GuiTextedit"]),
  button: new Set(["GuiButton", "GuiTab"]),
  checkbox: new Set(["GuiCheckBox", "GuiRadioButton"]),
  dropdown: new Set(["GuiComboBox"]),
  link: new Set(["GuiButton", "GuiLabel"]),
};

/** What the step will do with the element: decides which of several same-named controls wins. */
export type Purpose = "input" | "press" | "read";

/** Every control of the session's main window, depth first (toolbar, user area, status bar). */
export function screenElements(session: SapObject): SapElement[] {
  const wnd = session.call("FindById", "wnd[0]", false);
  const out: SapElement[] = [];
  const walk = (c: SapObject, depth: number): void => {
    for (const child of itemsOf(objectOf(c, "Children"))) {
      const type = textOf(child, "Type");
      const label = type === "GuiLabel" ? undefined : objectOf(child, "LeftLabel");
      out.push({
        obj: child, id: sessionRelativeId(textOf(child, "Id")), type, name: textOf(child, "Name"),
        text: type === "GuiPasswordField" ? "" : textOf(child, "Text"), tooltip: textOf(child, "Tooltip"), label: label ? textOf(label, "Text") : "",
      });
      // Table controls hold their cells as children too; ten levels is deeper than any SAP screen.
      if (depth < 10) walk(child, depth + 1);
    }
  };
  if (isSapObject(wnd)) walk(wnd, 0);
  return out;
}

function anchorsOf(e: SapElement): string[] {
  return [e.text, e.tooltip, e.name, e.label].map((s) => s.trim()).filter((s) => s !== "");
}

/** Controls an anchor names: exact matches first, else case-insensitive ones; fields and buttons before labels. */
export function matchAnchor(elements: readonly SapElement[], text: string, purpose: Purpose, role?: string): SapElement[] {
  const allowed = role ? ROLE_TYPES[role] : undefined;
  const pool = allowed ? elements.filter((e) => allowed.has(e.type)) : elements;
  const wanted = text.trim();
  let hits = pool.filter((e) => anchorsOf(e).includes(wanted));
  if (hits.length === 0) hits = pool.filter((e) => anchorsOf(e).some((a) => a.toLowerCase() === wanted.toLowerCase()));
  const rank = (e: SapElement): number => {
    if (purpose === "input") return INPUT_TYPES.has(e.type) ? 0 : PRESSABLE.has(e.type) ? 1 : 2;
    if (purpose === "press") return PRESSABLE.has(e.type) ? 0 : INPUT_TYPES.has(e.type) ? 1 : 2;
    return e.type === "GuiLabel" ? 1 : 0;
  };
  const best = Math.min(...hits.map(rank));
  return hits.filter((e) => rank(e) === best);
}

export type Resolved = { readonly ok: true; readonly element: SapObject; readonly tier: string } | { readonly ok: false; readonly detail: string };

/** The first rung that names a control on the current screen. */
export function resolveLadder(session: SapObject, ladder: readonly Selector[], purpose: Purpose): Resolved {
  let elements: SapElement[] | undefined;
  const screen = (): SapElement[] => (elements ??= screenElements(session));
  const misses: string[] = [];
  for (const rung of ladder) {
    const p = rung.payload;
    const nth = typeof p["nth"] === "number" ? p["nth"] : 1;
    if (typeof p["id"] === "string") {
      const v = session.call("FindById", p["id"], false);
      if (isSapObject(v)) return { ok: true, element: v, tier: rung.tier };
      misses.push(`no control with id ${p["id"]} on this screen${didYouMean(p["id"], screen().map((e) => e.id))}`);
    } else if (typeof p["text"] === "string") {
      const hits = matchAnchor(screen(), p["text"], purpose, typeof p["role"] === "string" ? p["role"] : undefined);
      const hit = hits[nth - 1];
      if (hit) return { ok: true, element: hit.obj, tier: rung.tier };
      misses.push(`no control labelled ${JSON.stringify(p["text"])} on this screen${didYouMean(p["text"], screen().flatMap(anchorsOf))}`);
    } else if (p["kind"] === "cell" && typeof p["column_text"] === "string" && typeof p["row_anchor"] === "string") {
      const cell = tableCell(screen(), p["column_text"], [p["row_anchor"], ...(Array.isArray(p["row_anchor_also"]) ? p["row_anchor_also"].map(String) : [])]);
      if (cell) return { ok: true, element: cell, tier: rung.tier };
      misses.push(`no table row containing ${JSON.stringify(p["row_anchor"])} with a ${JSON.stringify(p["column_text"])} column`);
    } else {
      misses.push(`${rung.tier} rungs of this shape do not apply to SAP GUI`);
    }
  }
  return { ok: false, detail: misses.join("; ") };
}

/**
 * The cell of a table row whose cells contain every anchor, in the column titled `column`: a
 * GuiTableControl's cell control, or a GuiGridView's (ALV grid) cell as a small object of its own.
 */
function tableCell(elements: readonly SapElement[], column: string, anchors: readonly string[]): SapObject | undefined {
  for (const grid of elements.filter((e) => e.type === "GuiShell" && textOf(e.obj, "SubType") === "GridView")) {
    const cell = gridCell(grid.obj, column, anchors);
    if (cell) return cell;
  }
  for (const table of elements.filter((e) => e.type === "GuiTableControl")) {
    const columns = itemsOf(objectOf(table.obj, "Columns"));
    const col = columns.findIndex((c) => textOf(c, "Title").trim().toLowerCase() === column.trim().toLowerCase());
    if (col < 0) continue;
    const rows = numberOf(table.obj, "VisibleRowCount");
    for (let row = 0; row < rows; row++) {
      const texts = columns.map((_, i) => {
        const cell = table.obj.call("GetCell", row, i);
        return isSapObject(cell) ? textOf(cell, "Text") : "";
      });
      if (anchors.every((a) => texts.some((t) => t.includes(a)))) {
        const cell = table.obj.call("GetCell", row, col);
        if (isSapObject(cell)) return cell;
      }
    }
  }
  return undefined;
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
 * A GuiGridView cell, by the column's displayed title (or its id) and the row's texts. A grid cell
 * is no control of its own: reading its `Text` is `GetCellValue`, writing it `ModifyCell`, and
 * `SetFocus` makes it the current cell.
 */
function gridCell(grid: SapObject, column: string, anchors: readonly string[]): SapObject | undefined {
  const ids = gridColumns(grid);
  const wanted = column.trim().toLowerCase();
  const title = (id: string): string => {
    const t = grid.call("GetDisplayedColumnTitle", id);
    return typeof t === "string" ? t : "";
  };
  const col = ids.find((id) => title(id).trim().toLowerCase() === wanted) ?? ids.find((id) => id.toLowerCase() === wanted);
  if (col === undefined) return undefined;
  const value = (row: number, id: string): string => {
    const v = grid.call("GetCellValue", row, id);
    return v === null || isSapObject(v) ? "" : String(v);
  };
  const rows = numberOf(grid, "RowCount");
  for (let row = 0; row < rows; row++) {
    const texts = ids.map((id) => value(row, id));
    if (!anchors.every((a) => texts.some((t) => t.includes(a)))) continue;
    const id = `${textOf(grid, "Id")}/cell[${row},${col}]`;
    return {
      get: (name) => (name === "Text" ? value(row, col) : name === "Type" ? "GuiGridCell" : name === "Id" ? id : name === "Changeable" ? boolOfCell(grid, row, col) : grid.get(name)),
      set: (name, v) => {
        if (name !== "Text") throw new SapCallError(`a grid cell has no property ${name} to set`);
        grid.call("ModifyCell", row, col, v);
      },
      call: (name, ...args) => (name === "SetFocus" ? grid.call("SetCurrentCell", row, col) : grid.call(name, ...args)),
    };
  }
  return undefined;
}

/** Whether a grid cell can be changed (`GetCellChangeable`); false when the grid cannot tell. */
function boolOfCell(grid: SapObject, row: number, col: string): boolean {
  try {
    const v = grid.call("GetCellChangeable", row, col);
    return v === true || v === -1 || v === 1;
  } catch {
    // A read-only ALV grid may not implement it: such a cell is not changeable.
    return false;
  }
}

/** `; did you mean X?` naming the closest candidate, when one is close. */
export function didYouMean(wanted: string, candidates: readonly string[]): string {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of new Set(candidates)) {
    const d = distance(wanted.toLowerCase(), c.toLowerCase());
    if (d < bestScore) {
      bestScore = d;
      best = c;
    }
  }
  return best !== undefined && bestScore <= Math.max(2, Math.floor(wanted.length / 3)) ? `; did you mean ${JSON.stringify(best)}?` : "";
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}
