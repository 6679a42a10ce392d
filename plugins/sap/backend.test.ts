import { describe, expect, test } from "bun:test";
import { toSelector, type Selector } from "../../src/plugins/api.ts";
import { matchRung } from "../desktop/match.ts";
import { SapBackend, controlTypeOfSap } from "./backend.ts";
import { SapDriver } from "./driver.ts";
import { FakeComponent, FakeSap } from "./fake-engine.ts";

const MAIN = { handle: "wnd[0]", title: "", className: "GuiMainWindow", pid: 0, visible: true };

function va01() {
  const sap = new FakeSap({ loggedOnUser: "CLERK" });
  const session = sap.sessions[0]!;
  session.call("StartTransaction", "VA01");
  return { sap, session };
}
const rung = (payload: Record<string, unknown>, tier: Selector["tier"] = "text_anchor"): Selector => toSelector({ tier, provenance: "rules", payload });

describe("SapBackend", () => {
  test("reads toolbar, user area and status bar controls as desktop elements with what a step may name them by", async () => {
    const { session } = va01();
    const els = await new SapBackend(session).elements(MAIN);
    expect(els.map((e) => e.ref)).toContain("wnd[0]/usr/ctxtVBAK-AUART");
    expect(els.find((e) => e.ref === "wnd[0]/usr/ctxtVBAK-AUART")).toMatchObject({
      name: "",
      controlType: "edit",
      automationId: "wnd[0]/usr/ctxtVBAK-AUART",
      className: "GuiCTextField",
      value: "",
      enabled: true,
      tooltip: "Sales Document Type",
      label: "Order Type",
      aliases: ["VBAK-AUART"],
    });
    expect(els.find((e) => e.ref === "wnd[0]/usr/lblVBAK-AUART-LBL")).toMatchObject({ name: "Order Type", controlType: "text" });
    expect(els.find((e) => e.ref === "wnd[0]/usr/cmbVBAK-VTWEG")).toMatchObject({
      controlType: "combobox",
      items: ["Final customer sales", "Wholesale"],
      value: "Final customer sales",
    });
    expect(els.find((e) => e.ref === "wnd[0]/sbar")).toMatchObject({ controlType: "statusbar", value: "" });
  });

  test.each<[string, "editable" | "clickable" | "any", string | undefined, string[]]>([
    ["Order Type", "editable", undefined, ["wnd[0]/usr/ctxtVBAK-AUART"]],
    ["order type", "editable", undefined, ["wnd[0]/usr/ctxtVBAK-AUART"]],
    ["VBAK-AUART", "any", undefined, ["wnd[0]/usr/ctxtVBAK-AUART"]],
    ["Sales Document Type", "any", "field", ["wnd[0]/usr/ctxtVBAK-AUART"]],
    ["Order Type", "any", undefined, ["wnd[0]/usr/ctxtVBAK-AUART"]],
    ["Save (Ctrl+S)", "clickable", "button", ["wnd[0]/tbar[0]/btn[11]"]],
    ["Nothing", "any", undefined, []],
  ])("the text %p names %p for a %s action (role %p)", async (text, want, role, ids) => {
    const { session } = va01();
    const els = await new SapBackend(session).elements(MAIN);
    expect(matchRung(els, rung({ text, ...(role ? { role } : {}) }), want).map((e) => e.ref)).toEqual(ids);
  });

  test("SAP types map to the driver's control types", () => {
    expect(["GuiCTextField", "GuiPasswordField", "GuiTab", "GuiLabel", "GuiTableControl", "GuiShell"].map(controlTypeOfSap)).toEqual([
      "edit",
      "edit",
      "tab",
      "text",
      "table",
      "other",
    ]);
  });

  test("the first rung that names a control wins; a miss names the closest id and the nearest texts", async () => {
    const { sap, session } = va01();
    const driver = new SapDriver({ engine: sap, session, log: () => undefined });
    expect(await driver.readText([rung({ id: "wnd[0]/usr/ctxtVBAK-AUARX" }, "native_id"), rung({ text: "Order Type" })])).toMatchObject({
      ok: true,
      tier: "text_anchor",
    });
    const miss = await driver.fill([rung({ text: "Ordr Type" })], "OR");
    expect(miss).toMatchObject({ ok: false, failed: "not-found", retryable: true });
    expect(!miss.ok && miss.detail).toStartWith('no control in "Create Sales Documents" matches "Ordr Type"; nearest texts it shows: "Order Type"');
  });

  test("a table cell: the column by its title, the row by the text of its cells (GuiTableControl)", async () => {
    const { sap, session } = va01();
    const usr = session.call("FindById", "wnd[0]/usr") as FakeComponent;
    const table = usr.add(
      new FakeComponent({ Type: "GuiTableControl", Id: "/app/con[0]/ses[0]/wnd[0]/usr/tblSAPMV45ATCTRL_U_ERF_AUFTRAG", VisibleRowCount: 2 }, []),
    );
    const titles = ["Item", "Material", "Description"];
    const rows = [
      ["10", "P-100", "Pump"],
      ["20", "M-02", "Valve"],
    ];
    const columns = new FakeComponent(
      { Type: "GuiCollection" },
      [],
      titles.map((Title) => new FakeComponent({ Type: "GuiTableColumn", Title }, [])),
    );
    table.objects["Columns"] = () => columns.get("Children");
    rows.forEach((row, r) => row.forEach((Text, c) => table.add(new FakeComponent({ Type: "GuiTextField", Id: `${table.id}/txtCELL[${c},${r}]`, Text }, []))));
    const driver = new SapDriver({ engine: sap, session, log: () => undefined });
    const cell = (column: string, ...anchors: string[]): Selector[] => [
      rung({ kind: "cell", column_text: column, row_anchor: anchors[0]!, ...(anchors.length > 1 ? { row_anchor_also: anchors.slice(1) } : {}) }, "structural"),
    ];
    expect(await driver.readText(cell("Material", "Valve"))).toEqual({ ok: true, value: "M-02", tier: "structural" });
    expect(await driver.readText(cell("description", "10", "P-100"))).toMatchObject({ ok: true, value: "Pump" });
    expect(await driver.readText(cell("Material", "Hose"))).toMatchObject({ ok: false, failed: "not-found" });
    expect(await driver.readText(cell("Price", "Pump"))).toMatchObject({ ok: false, failed: "not-found" });
  });

  test("an ALV grid cell (GuiGridView): read with GetCellValue, written with ModifyCell, focused with SetCurrentCell; only the visible rows", async () => {
    const { sap, session } = va01();
    const usr = session.call("FindById", "wnd[0]/usr") as FakeComponent;
    const ids = ["VBELN", "MATNR", "ARKTX"];
    const titles: Record<string, string> = { VBELN: "Sales Document", MATNR: "Material", ARKTX: "Description" };
    const rows = [
      { VBELN: "4711", MATNR: "P-100", ARKTX: "Pump" },
      { VBELN: "4712", MATNR: "M-02", ARKTX: "Valve" },
      { VBELN: "4713", MATNR: "H-07", ARKTX: "Hose" },
    ] as Record<string, string>[];
    const calls: string[] = [];
    const grid = usr.add(
      new FakeComponent(
        {
          Type: "GuiShell",
          SubType: "GridView",
          Id: "/app/con[0]/ses[0]/wnd[0]/usr/cntlGRID1/shellcont/shell",
          RowCount: 3,
          FirstVisibleRow: 0,
          VisibleRowCount: 2,
        },
        [],
      ),
    );
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
    const driver = new SapDriver({ engine: sap, session, log: () => undefined });
    const cell = (column: string, anchor: string): Selector[] => [rung({ kind: "cell", column_text: column, row_anchor: anchor }, "structural")];
    expect(await driver.readText(cell("Material", "4712"))).toMatchObject({ ok: true, value: "M-02" });
    expect((await driver.check(cell("Material", "4712"), { kind: "enabled", enabled: false })).pass).toBe(true);
    expect(await driver.fill(cell("Material", "4712"), "X")).toMatchObject({ ok: false, failed: "editable" });
    expect(await driver.fill(cell("description", "Pump"), "Pump, stainless")).toMatchObject({ ok: true });
    expect(await driver.click(cell("Description", "Pump"), { button: "left", clickCount: 1 })).toMatchObject({ ok: true });
    expect(calls).toEqual(["ModifyCell 0 ARKTX Pump, stainless", "SetCurrentCell 0 ARKTX"]);
    expect(await driver.readText(cell("Description", "4711"))).toMatchObject({ ok: true, value: "Pump, stainless" });
    // The column id answers too; an unknown column, a row no cell names, a row not shown are misses.
    expect((await driver.readText(cell("MATNR", "Valve"))).ok).toBe(true);
    expect((await driver.readText(cell("Price", "Pump"))).ok).toBe(false);
    expect((await driver.readText(cell("Material", "9999"))).ok).toBe(false);
    expect((await driver.readText(cell("Material", "4713"))).ok).toBe(false);
  });
});
