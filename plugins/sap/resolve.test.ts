import { describe, expect, test } from "bun:test";
import { FakeSap } from "./fake-engine.ts";
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
});
