// Which controls a selector rung names, the same on every desktop surface: the native id, control
// type and name, a table cell by its column and row, or a text (a control's label, tooltip, the
// label naming it, an alias; a static label standing for the control after it when the action
// needs a field; `"status bar"` standing for the window's status bar). Pure.
import { anchorTextOf, editDistance, nativeIdOf, payloadOf, type Selector } from "../../src/plugins/api.ts";
import { anchorsOf, isEditable, plainLabel, type DesktopElement } from "./element.ts";

/** What an action needs of its target; a label names the control after it for `field`-like wants. */
export type Want = "any" | "editable" | "selectable" | "checkable" | "clickable";

/** A control's text: an edit's value, else its name. */
export function textOf(el: DesktopElement): string {
  if (el.value !== undefined && (isEditable(el) || el.controlType === "list")) return el.value;
  return plainLabel(el.name) || el.value || "";
}

export function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const ROLE_TYPES: Readonly<Record<string, readonly string[]>> = {
  field: ["edit", "document", "combobox"],
  button: ["button"],
  checkbox: ["checkbox", "radio"],
  dropdown: ["combobox", "list"],
  link: ["hyperlink"],
};
const WANT_TYPES: Readonly<Record<Want, readonly string[] | undefined>> = {
  any: undefined,
  editable: ["edit", "document", "combobox"],
  selectable: ["combobox", "list"],
  checkable: ["checkbox", "radio"],
  clickable: undefined,
};

/** The controls one rung names, in tree order; a label stands for the control it labels when the action needs one. */
export function matchRung(elements: readonly DesktopElement[], rung: Selector, want: Want): DesktopElement[] {
  const id = nativeIdOf(rung);
  if (id !== undefined) return elements.filter((e) => e.automationId === id);
  const structural = payloadOf(rung, "structural");
  if (structural && "kind" in structural && structural.kind === "cell")
    return cellsAt(elements, structural.column_text, [structural.row_anchor, ...(structural.row_anchor_also ?? [])]);
  if (structural && "control_type" in structural) {
    const name = structural.name;
    return elements.filter((e) => e.controlType === structural.control_type && (name === undefined || plainLabel(e.name) === name));
  }
  const p = payloadOf(rung, "text_anchor");
  if (!p) return [];
  const text = p.text.trim();
  const role = p.role;
  const types = (role ? ROLE_TYPES[role] : undefined) ?? WANT_TYPES[want];
  const exact = elements.filter((e) => anchorsOf(e).includes(text));
  const loose = exact.length > 0 ? exact : elements.filter((e) => anchorsOf(e).some((a) => a.toLowerCase() === text.toLowerCase()));
  // `"status bar"` names the window's status bar when no control is labelled so.
  const named = loose.length > 0 || text.toLowerCase() !== STATUS_BAR_LABEL ? loose : elements.filter((e) => e.controlType === "statusbar");
  const out: DesktopElement[] = [];
  for (const e of named) {
    const el = types && !types.includes(e.controlType) && e.controlType === "text" ? labelled(elements, e, types) : e;
    if (el && (!types || types.includes(el.controlType)) && !out.includes(el)) out.push(el);
  }
  // A label loses to the control it labels when both are named (a field by the label left of it).
  const controls = out.filter((e) => e.controlType !== "text" || !out.includes(labelled(elements, e, NOT_TEXT) as DesktopElement));
  // No control of the kind the action needs: a control of another kind it names is answered, so the
  // action can say what it is (a field is not a dropdown); a bare label never is (its control may come).
  if (controls.length === 0 && types && !role) return named.filter((e) => e.controlType !== "text");
  return controls;
}

/** Every control type but a static label. */
const NOT_TEXT: readonly string[] = [
  "button",
  "edit",
  "document",
  "checkbox",
  "radio",
  "combobox",
  "list",
  "listitem",
  "hyperlink",
  "menuitem",
  "group",
  "pane",
  "tablist",
  "tab",
  "tree",
  "treeitem",
  "table",
  "cell",
  "header",
  "headeritem",
  "toolbar",
  "statusbar",
  "other",
];

/** The control a static label names: the next control of the wanted types, before any other label. */
function labelled(elements: readonly DesktopElement[], label: DesktopElement, types: readonly string[]): DesktopElement | undefined {
  const start = elements.indexOf(label);
  for (const e of elements.slice(start + 1)) {
    if (types.includes(e.controlType)) return e;
    if (e.controlType === "text" && plainLabel(e.name) !== "") return undefined;
  }
  return undefined;
}

/** The label that names a window's status bar: `the "status bar" shows Ready`. */
export const STATUS_BAR_LABEL = "status bar";

/**
 * The cells in column `column` (its header text, case-insensitive) of the table rows whose cells
 * contain every anchor; one per matching row, in row order.
 */
export function cellsAt(elements: readonly DesktopElement[], column: string, anchors: readonly string[]): DesktopElement[] {
  const rows = new Map<string, DesktopElement[]>();
  for (const e of elements) {
    if (!e.cell) continue;
    const key = `${e.cell.table}#${e.cell.row}`;
    rows.set(key, [...(rows.get(key) ?? []), e]);
  }
  const wanted = column.trim().toLowerCase();
  const out: DesktopElement[] = [];
  for (const cells of rows.values()) {
    if (!anchors.every((a) => cells.some((c) => c.name.includes(a) || (!c.password && (c.value ?? "").includes(a))))) continue;
    const hit = cells.find((c) => c.cell!.column.trim().toLowerCase() === wanted) ?? cells.find((c) => c.cell!.columnId?.toLowerCase() === wanted);
    if (hit) out.push(hit);
  }
  return out;
}

/**
 * The texts of `texts` nearest to `wanted`, at most `max`, best first: those containing it or
 * contained in it, then by edit distance (case-insensitive). What a miss shows, so a user sees
 * what the window offers.
 */
export function nearestTexts(wanted: string, texts: readonly string[], max = 5): string[] {
  const w = wanted.toLowerCase();
  const distinct = [...new Set(texts.map((t) => t.trim()).filter((t) => t !== "" && t.length <= 80))];
  const score = (t: string): number => {
    const l = t.toLowerCase();
    if (l.includes(w) || (l.length >= 3 && w.includes(l))) return Math.abs(l.length - w.length) / 1000;
    return editDistance(w, l);
  };
  return distinct
    .map((t) => ({ t, s: score(t) }))
    .sort((a, b) => a.s - b.s)
    .slice(0, max)
    .map((x) => x.t);
}

/**
 * The labels of a path, `File > Save As…` (a text rung holding ` > `): each names a control
 * clicked in turn. Undefined for any other ladder.
 */
export function labelPath(ladder: readonly Selector[]): string[] | undefined {
  for (const rung of ladder) {
    const text = payloadOf(rung, "text_anchor")?.text;
    if (text === undefined || !text.includes(" > ")) continue;
    const labels = text.split(" > ").map((l) => l.trim());
    return labels.length >= 2 && labels.every((l) => l !== "") ? labels : undefined;
  }
  return undefined;
}

/** The text a ladder names (its label, AutomationId or table cell), for a miss's message. */
export function wantedText(ladder: readonly Selector[]): string | undefined {
  for (const rung of ladder) {
    const p = rung.payload;
    const cell = payloadOf(rung, "structural");
    for (const text of [anchorTextOf(rung), nativeIdOf(rung), cell && "column_text" in cell ? cell.column_text : undefined, "name" in p ? p.name : undefined])
      if (text !== undefined && text !== "") return text;
  }
  return undefined;
}

/** The native id a ladder names (`id:` / `automation_id`), for a miss's did-you-mean. */
export function wantedId(ladder: readonly Selector[]): string | undefined {
  for (const rung of ladder) {
    const id = nativeIdOf(rung);
    if (id !== undefined && id !== "") return id;
  }
  return undefined;
}

/** The id of `ids` closest to `wanted` (case-insensitive), when one is close: a typo, not another control. */
export function closestId(wanted: string, ids: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const id of new Set(ids)) {
    if (id === "" || id === wanted) continue;
    const d = editDistance(wanted.toLowerCase(), id.toLowerCase());
    if (d < bestScore) {
      bestScore = d;
      best = id;
    }
  }
  return best !== undefined && bestScore <= Math.max(2, Math.floor(wanted.length / 3)) ? best : undefined;
}

/**
 * A table-cell target that matched no cell, said the way a reader looks at the table: which column
 * was missing, or which rows exist when no row contains the anchors. Undefined for other targets.
 */
export function cellMiss(ladder: readonly Selector[], elements: readonly DesktopElement[]): string | undefined {
  const structural = payloadOf(ladder[0], "structural");
  if (structural === undefined || !("kind" in structural) || structural.kind !== "cell") return undefined;
  const cells = elements.filter((e) => e.cell !== undefined);
  if (cells.length === 0) return "the window shows no table (no list or grid with rows and columns)";
  const columns = [...new Set(cells.map((c) => c.cell!.column).filter((c) => c.trim() !== ""))];
  const wanted = structural.column_text.trim().toLowerCase();
  if (!columns.some((c) => c.trim().toLowerCase() === wanted) && !cells.some((c) => c.cell!.columnId?.toLowerCase() === wanted)) {
    return `no column ${JSON.stringify(structural.column_text)} in the table; its columns: ${columns.map((c) => JSON.stringify(c)).join(", ")}`;
  }
  const rows = new Map<string, string[]>();
  for (const c of cells) {
    const key = `${c.cell!.table}#${c.cell!.row}`;
    rows.set(key, [...(rows.get(key) ?? []), c.name]);
  }
  const anchors = [structural.row_anchor, ...(structural.row_anchor_also ?? [])];
  if ([...rows.values()].some((texts) => anchors.every((a) => texts.some((t) => t.includes(a))))) {
    return `the row containing ${anchors.map((a) => JSON.stringify(a)).join(" and ")} has no cell in the column ${JSON.stringify(structural.column_text)}`;
  }
  const shown = [...rows.values()].slice(0, 10).map((texts) => JSON.stringify(clipRow(texts.filter((t) => t !== "").join(" | "))));
  return `no row contains ${anchors.map((a) => JSON.stringify(a)).join(" and ")}; the table's rows: ${shown.join(", ")}${rows.size > 10 ? ` and ${rows.size - 10} more` : ""}`;
}

const clipRow = (text: string): string => (text.length > 60 ? `${text.slice(0, 59)}…` : text);
