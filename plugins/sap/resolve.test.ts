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
});
