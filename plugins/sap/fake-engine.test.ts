import { describe, expect, test } from "bun:test";
import { FakeSap } from "./fake-engine.ts";
import { isSapObject, itemsOf, objectOf, textOf } from "./engine.ts";

describe("FakeSap", () => {
  test("OpenConnection knows SAP Logon's entries by description or system id", () => {
    const sap = new FakeSap({ entries: ["TS3 - Test System"] });
    expect(textOf(sap.openConnection("TS3"), "Description")).toBe("TS3 - Test System");
    expect(() => sap.openConnection("PRD")).toThrow('Connection entry "PRD" was not found');
  });

  test("a new session shows the login screen; a write to a read-only field is refused", () => {
    const sap = new FakeSap();
    const session = itemsOf(objectOf(sap.openConnection("TS3"), "Children"))[0]!;
    const user = session.call("FindById", "wnd[0]/usr/txtRSYST-BNAME");
    expect(isSapObject(user)).toBe(true);
    expect(session.call("FindById", "wnd[0]/usr/txtNOPE", false)).toBeNull();
    expect(() => session.call("FindById", "wnd[0]/usr/txtNOPE")).toThrow("could not be found");
    const label = session.call("FindById", "wnd[0]/usr/lblRSYST-BNAME-LBL");
    expect(() => isSapObject(label) && label.set("Text", "x")).toThrow("not changeable");
  });

  test("logs writes so a test can see where a value went", () => {
    const sap = new FakeSap();
    const session = itemsOf(objectOf(sap.openConnection("TS3"), "Children"))[0]!;
    const f = session.call("FindById", "wnd[0]/usr/txtRSYST-MANDT");
    if (isSapObject(f)) f.set("Text", "100");
    expect(sap.writes).toEqual([{ id: "/app/con[0]/ses[0]/wnd[0]/usr/txtRSYST-MANDT", property: "Text", value: "100" }]);
  });
});
