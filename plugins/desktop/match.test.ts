import { expect, test } from "bun:test";
import { clip, closestId, matchRung, textOf, wantedId } from "./match.ts";
import type { DesktopElement } from "./element.ts";
import { toSelector } from "../../src/plugins/api.ts";

const el = (ref: string, name: string, controlType: DesktopElement["controlType"], extra: Partial<DesktopElement> = {}): DesktopElement => ({
  ref,
  name,
  controlType,
  automationId: "",
  rect: { x: 0, y: 0, width: 1, height: 1 },
  enabled: true,
  visible: true,
  focused: false,
  password: false,
  ...extra,
});
const rung = (tier: "native_id" | "structural" | "text_anchor", payload: Record<string, unknown>) => toSelector({ tier, provenance: "rules", payload });

test("a label names the control after it for a field, and not past the next label", () => {
  const tree = [el("1", "Name:", "text"), el("2", "", "edit"), el("3", "Note:", "text"), el("4", "Email:", "text"), el("5", "", "edit")];
  expect(matchRung(tree, rung("text_anchor", { text: "Name", role: "field" }), "editable").map((e) => e.ref)).toEqual(["2"]);
  expect(matchRung(tree, rung("text_anchor", { text: "Note" }), "editable")).toEqual([]);
  expect(matchRung(tree, rung("text_anchor", { text: "name" }), "any").map((e) => e.ref)).toEqual(["1"]);
});

test("AutomationId (id or automation_id) and control type with name", () => {
  const tree = [el("1", "&Save", "button", { automationId: "1001" }), el("2", "", "edit", { automationId: "15" })];
  expect(matchRung(tree, rung("native_id", { automation_id: "1001" }), "any").map((e) => e.ref)).toEqual(["1"]);
  expect(matchRung(tree, rung("native_id", { id: "15" }), "any").map((e) => e.ref)).toEqual(["2"]);
  expect(matchRung(tree, rung("structural", { control_type: "button", name: "Save" }), "any").map((e) => e.ref)).toEqual(["1"]);
});

test("a control's text is a field's value, else its label; long text is clipped", () => {
  expect(textOf(el("1", "", "edit", { value: "typed" }))).toBe("typed");
  expect(textOf(el("2", "&Greet", "button"))).toBe("Greet");
  expect(clip("x".repeat(300)).length).toBe(201);
});

test("a cell is named by its column and the texts of its row", async () => {
  const { cellsAt } = await import("./match.ts");
  const cell = (ref: string, name: string, row: number, column: string, table = "t") => el(ref, name, "cell", { cell: { table, row, column } });
  const tree = [
    cell("a", "notes.txt", 0, "Name"),
    cell("b", "Text", 0, "Type"),
    cell("c", "photo.png", 1, "Name"),
    cell("d", "Image", 1, "Type"),
    cell("e", "notes.txt", 0, "Name", "u"),
    cell("f", "Text", 0, "Kind", "u"),
  ];
  expect(cellsAt(tree, "type", ["photo"]).map((e) => e.ref)).toEqual(["d"]);
  expect(cellsAt(tree, "Type", ["notes.txt", "Text"]).map((e) => e.ref)).toEqual(["b"]);
  expect(cellsAt(tree, "Type", ["Video"])).toEqual([]);
  expect(matchRung(tree, rung("structural", { kind: "cell", column_text: "Name", row_anchor: "Image" }), "any").map((e) => e.ref)).toEqual(["c"]);
});

test('"status bar" names the status bar unless a control is labelled so', () => {
  const bar = el("s", "", "statusbar", { value: "Ready" });
  expect(matchRung([bar], rung("text_anchor", { text: "status bar" }), "any").map((e) => e.ref)).toEqual(["s"]);
  expect(matchRung([bar, el("l", "Status bar", "text")], rung("text_anchor", { text: "Status Bar" }), "any").map((e) => e.ref)).toEqual(["l"]);
  expect(textOf(bar)).toBe("Ready");
});

test("the nearest texts come first: containing ones, then by edit distance", async () => {
  const { nearestTexts } = await import("./match.ts");
  expect(nearestTexts("Edit", ["File", "Edit menu", "Format", "View", "Help", "Exit"], 3)).toEqual(["Edit menu", "Exit", "File"]);
  expect(nearestTexts("x", [])).toEqual([]);
});

test("a label with ` > ` is a path of labels; a ladder naming the text or a cell is what a miss quotes", async () => {
  const { labelPath, wantedText } = await import("./match.ts");
  expect(labelPath([rung("text_anchor", { text: "File > Save As…" })])).toEqual(["File", "Save As…"]);
  expect(labelPath([rung("text_anchor", { text: "A >B" })])).toBeUndefined();
  expect(labelPath([rung("text_anchor", { text: " > Save" })])).toBeUndefined();
  expect(wantedText([rung("native_id", { automation_id: "15" })])).toBe("15");
  expect(wantedText([rung("structural", { kind: "cell", column_text: "Size", row_anchor: "a" })])).toBe("Size");
});

test("a text names a control by its tooltip, the label naming it or an alias, as written, else ignoring case", () => {
  const tree = [
    el("l", "Order Type", "text"),
    el("f", "", "edit", { label: "Order Type", tooltip: "Sales Document Type", aliases: ["VBAK-AUART"] }),
    el("b", "", "button", { tooltip: "Save (Ctrl+S)" }),
  ];
  expect(matchRung(tree, rung("text_anchor", { text: "Sales Document Type" }), "editable").map((e) => e.ref)).toEqual(["f"]);
  expect(matchRung(tree, rung("text_anchor", { text: "vbak-auart" }), "any").map((e) => e.ref)).toEqual(["f"]);
  expect(matchRung(tree, rung("text_anchor", { text: "Save (Ctrl+S)", role: "button" }), "clickable").map((e) => e.ref)).toEqual(["b"]);
});

test("a label loses to the control it labels when a text names both", () => {
  const tree = [el("l", "Sold-To Party", "text"), el("f", "", "edit", { label: "Sold-To Party", value: "4711" })];
  expect(matchRung(tree, rung("text_anchor", { text: "Sold-To Party" }), "any").map((e) => e.ref)).toEqual(["f"]);
  // Not a control it labels: both stay (the step is ambiguous).
  const apart = [el("s", "Save", "text"), el("x", "", "edit"), el("b", "Save", "button")];
  expect(matchRung(apart, rung("text_anchor", { text: "Save" }), "any").map((e) => e.ref)).toEqual(["s", "b"]);
});

test("with no control of the kind the action needs, a control of another kind the text names is answered (a label never)", () => {
  const tree = [el("l", "Order Type", "text"), el("f", "", "edit", { label: "Order Type" }), el("m", "Late:", "text")];
  expect(matchRung(tree, rung("text_anchor", { text: "Order Type" }), "selectable").map((e) => e.ref)).toEqual(["f"]);
  expect(matchRung(tree, rung("text_anchor", { text: "Late" }), "editable")).toEqual([]);
  // A role is a filter: no other kind is answered for it.
  expect(matchRung(tree, rung("text_anchor", { text: "Order Type", role: "dropdown" }), "selectable")).toEqual([]);
});

test("a miss on an id names the closest id when it is a typo", () => {
  expect(wantedId([rung("text_anchor", { text: "a" }), rung("native_id", { id: "wnd[0]/usr/ctxtVBAK-AUARX" })])).toBe("wnd[0]/usr/ctxtVBAK-AUARX");
  expect(closestId("wnd[0]/usr/ctxtVBAK-AUARX", ["wnd[0]/tbar[0]/okcd", "wnd[0]/usr/ctxtVBAK-AUART"])).toBe("wnd[0]/usr/ctxtVBAK-AUART");
  expect(closestId("wnd[0]/usr/txtX", ["wnd[0]/tbar[0]/okcd"])).toBeUndefined();
  expect(closestId("999", ["101", "102"])).toBeUndefined();
});

test("a cell that matches nothing is said the way a reader sees the table: the missing column, the row without that cell, or the rows there are", async () => {
  const { cellMiss } = await import("./match.ts");
  const cell = (ref: string, name: string, row: number, column: string) => el(ref, name, "cell", { cell: { table: "t", row, column } });
  const tree = [
    cell("a", "TEMP", 0, "Name"),
    cell("b", "REG_SZ", 0, "Type"),
    cell("c", "PATH", 1, "Name"),
    cell("d", "REG_EXPAND_SZ", 1, "Type"),
    cell("e", "TMP", 2, "Name"),
  ];
  const at = (column: string, row: string) => [rung("structural", { kind: "cell", column_text: column, row_anchor: row })];
  expect(cellMiss(at("Type", "HOME"), tree)).toBe('no row contains "HOME"; the table\'s rows: "TEMP | REG_SZ", "PATH | REG_EXPAND_SZ", "TMP"');
  expect(cellMiss(at("Data", "TEMP"), tree)).toBe('no column "Data" in the table; its columns: "Name", "Type"');
  expect(cellMiss(at("Type", "TMP"), tree)).toBe('the row containing "TMP" has no cell in the column "Type"');
  expect(cellMiss(at("Type", "TEMP"), [el("x", "Save", "button")])).toBe("the window shows no table (no list or grid with rows and columns)");
  expect(cellMiss([rung("text_anchor", { text: "TEMP" })], tree)).toBeUndefined();
});
