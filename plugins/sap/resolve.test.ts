import { describe, expect, test } from "bun:test";
import { FakeComponent, FakeSap } from "./fake-engine.ts";
import { didYouMean, matchAnchor, resolveLadder, screenElements } from "./resolve.ts";

function va01() {
  const sap = new FakeSap({ loggedOnUser: "CLERK" });
  const session = sap.sessions[0]!;
  session.call("StartTransaction", "VA01");
  return session;
}

describe("resolve", () => {
  test("screenElements lists toolbar, user area and status bar controls with their anchors", () => {
    const els = screenElements(va01());
    expect(els.map((e) => e.id)).toContain("wnd[0]/usr/ctxtVBAK-AUART");
    expect(els.find((e) => e.id === "wnd[0]/usr/ctxtVBAK-AUART")).toMatchObject({ type: "GuiCTextField", name: "VBAK-AUART", tooltip: "Sales Document Type", label: "Order Type" });
  });

  test.each<[string, "input" | "press" | "read", string | undefined, string[]]>([
    ["Order Type", "input", undefined, ["wnd[0]/usr/ctxtVBAK-AUART"]],
    ["order type", "input", undefined, ["wnd[0]/usr/ctxtVBAK-AUART"]],
    ["VBAK-AUART", "read", undefined, ["wnd[0]/usr/ctxtVBAK-AUART"]],
    ["Sales Document Type", "read", "field", ["wnd[0]/usr/ctxtVBAK-AUART"]],
    ["Order Type", "read", undefined, ["wnd[0]/usr/ctxtVBAK-AUART"]],
    ["Save (Ctrl+S)", "press", "button", ["wnd[0]/tbar[0]/btn[11]"]],
    ["Nothing", "read", undefined, []],
  ])("anchor %p for %s (role %p)", (text, purpose, role, ids) => {
    expect(matchAnchor(screenElements(va01()), text, purpose, role).map((e) => e.id)).toEqual(ids);
  });

  test("the first rung that names a control wins; misses say why with a did-you-mean", () => {
    const session = va01();
    const r = resolveLadder(session, [
      { tier: "native_id", provenance: "rules", payload: { id: "wnd[0]/usr/ctxtVBAK-AUARX" } },
      { tier: "text_anchor", provenance: "rules", payload: { text: "Order Type" } },
    ], "input");
    expect(r).toMatchObject({ ok: true, tier: "text_anchor" });
    const miss = resolveLadder(session, [{ tier: "text_anchor", provenance: "rules", payload: { text: "Ordr Type" } }], "input");
    expect(miss).toEqual({ ok: false, detail: 'no control labelled "Ordr Type" on this screen; did you mean "Order Type"?' });
  });

  test("didYouMean stays quiet when nothing is close", () => {
    expect(didYouMean("wnd[0]/usr/txtX", ["wnd[0]/tbar[0]/okcd"])).toBe("");
  });

  test("a table cell: the column by its title, the row by the text of its cells (GuiTableControl)", () => {
    const session = va01();
    const usr = session.call("FindById", "wnd[0]/usr") as FakeComponent;
    const table = usr.add(new FakeComponent({ Type: "GuiTableControl", Id: "/app/con[0]/ses[0]/wnd[0]/usr/tblSAPMV45ATCTRL_U_ERF_AUFTRAG", VisibleRowCount: 2 }, []));
    const titles = ["Item", "Material", "Description"];
    const rows = [["10", "P-100", "Pump"], ["20", "M-02", "Valve"]];
    const columns = new FakeComponent({ Type: "GuiCollection" }, [], titles.map((Title) => new FakeComponent({ Type: "GuiTableColumn", Title }, [])));
    table.objects["Columns"] = () => columns.get("Children");
    const cells = rows.map((row, r) => row.map((Text, c) => table.add(new FakeComponent({ Type: "GuiTextField", Id: `${table.id}/txtCELL[${c},${r}]`, Text }, []))));
    table.methods["GetCell"] = (row, col) => cells[Number(row)]![Number(col)]!;
    const cell = (column: string, ...anchors: string[]) => resolveLadder(session, [{ tier: "structural", provenance: "rules", payload: { kind: "cell", column_text: column, row_anchor: anchors[0]!, ...(anchors.length > 1 ? { row_anchor_also: anchors.slice(1) } : {}) } }], "read");
    const hit = cell("Material", "Valve");
    expect(hit).toMatchObject({ ok: true, tier: "structural" });
    expect(hit.ok && hit.element.get("Text")).toBe("M-02");
    const both = cell("description", "10", "P-100");
    expect(both.ok && both.element.get("Text")).toBe("Pump");
    expect(cell("Material", "Hose")).toEqual({ ok: false, detail: 'no table row containing "Hose" with a "Material" column' });
    expect(cell("Price", "Pump")).toEqual({ ok: false, detail: 'no table row containing "Pump" with a "Price" column' });
  });

  test("an ALV grid cell (GuiGridView): read with GetCellValue, written with ModifyCell, focused with SetCurrentCell", () => {
    const session = va01();
    const usr = session.call("FindById", "wnd[0]/usr") as FakeComponent;
    const ids = ["VBELN", "MATNR", "ARKTX"];
    const titles: Record<string, string> = { VBELN: "Sales Document", MATNR: "Material", ARKTX: "Description" };
    const rows = [{ VBELN: "4711", MATNR: "P-100", ARKTX: "Pump" }, { VBELN: "4712", MATNR: "M-02", ARKTX: "Valve" }] as Record<string, string>[];
    const calls: string[] = [];
    const grid = usr.add(new FakeComponent({ Type: "GuiShell", SubType: "GridView", Id: "/app/con[0]/ses[0]/wnd[0]/usr/cntlGRID1/shellcont/shell", RowCount: 2 }, []));
    const order = new FakeComponent({ Type: "GuiCollection", Count: ids.length }, []);
    order.methods["ElementAt"] = (i) => ids[Number(i)]!;
    grid.objects["ColumnOrder"] = () => order;
    grid.methods["GetDisplayedColumnTitle"] = (id) => titles[String(id)]!;
    grid.methods["GetCellValue"] = (row, id) => rows[Number(row)]![String(id)]!;
    grid.methods["GetCellChangeable"] = (_row, id) => id === "ARKTX";
    grid.methods["ModifyCell"] = (row, id, value) => {
      calls.push(`ModifyCell ${row} ${id} ${value}`);
      rows[Number(row)]![String(id)] = String(value);
      return null;
    };
    grid.methods["SetCurrentCell"] = (row, id) => (calls.push(`SetCurrentCell ${row} ${id}`), null);
    const cell = (column: string, anchor: string) => resolveLadder(session, [{ tier: "structural", provenance: "rules", payload: { kind: "cell", column_text: column, row_anchor: anchor } }], "read");
    const hit = cell("Material", "4712");
    if (!hit.ok) throw new Error(hit.detail);
    expect(hit.element.get("Text")).toBe("M-02");
    expect(hit.element.get("Type")).toBe("GuiGridCell");
    expect(hit.element.get("Id")).toBe("/app/con[0]/ses[0]/wnd[0]/usr/cntlGRID1/shellcont/shell/cell[1,MATNR]");
    expect(hit.element.get("Changeable")).toBe(false);
    const desc = cell("description", "Pump");
    if (!desc.ok) throw new Error(desc.detail);
    expect(desc.element.get("Changeable")).toBe(true);
    desc.element.set("Text", "Pump, stainless");
    desc.element.call("SetFocus");
    expect(calls).toEqual(["ModifyCell 0 ARKTX Pump, stainless", "SetCurrentCell 0 ARKTX"]);
    const again = cell("Description", "4711");
    expect(again.ok && again.element.get("Text")).toBe("Pump, stainless");
    // The column id answers too; an unknown column or row is a miss.
    expect(cell("MATNR", "Valve").ok).toBe(true);
    expect(cell("Price", "Pump").ok).toBe(false);
    expect(cell("Material", "9999").ok).toBe(false);
  });
});
