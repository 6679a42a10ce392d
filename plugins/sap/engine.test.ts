import { describe, expect, test } from "bun:test";
import { FlowproofError } from "../../src/plugins/api.ts";
import { boolOf, itemsOf, numberOf, objectOf, sessionRelativeId, textOf, SapCallError, type SapObject } from "./engine.ts";

const obj = (props: Record<string, unknown>): SapObject => ({
  get: (name) => {
    if (!(name in props)) throw new SapCallError(`unknown ${name}`);
    return props[name] as never;
  },
  set: () => undefined,
  call: (name, ...args) => (name === "ElementAt" ? (props["items"] as SapObject[])[Number(args[0])]! : null),
});

describe("engine readers", () => {
  test("read properties as text, number and boolean; a missing member reads empty", () => {
    const o = obj({ Text: "4711", Changeable: true, Width: 12 });
    expect(textOf(o, "Text")).toBe("4711");
    expect(textOf(o, "Tooltip")).toBe("");
    expect(numberOf(o, "Width")).toBe(12);
    expect(numberOf(o, "Text")).toBe(4711);
    expect(boolOf(o, "Changeable")).toBe(true);
    expect(boolOf(o, "Missing")).toBe(false);
    expect(objectOf(o, "LeftLabel")).toBeUndefined();
  });

  test("itemsOf walks a collection by Count and ElementAt", () => {
    const a = obj({ Text: "a" });
    const b = obj({ Text: "b" });
    expect(itemsOf(obj({ Count: 2, items: [a, b] })).map((i) => textOf(i, "Text"))).toEqual(["a", "b"]);
    expect(itemsOf(undefined)).toEqual([]);
  });

  test("sessionRelativeId drops the application, connection and session", () => {
    expect(sessionRelativeId("/app/con[0]/ses[1]/wnd[0]/usr/ctxtVBAK-AUART")).toBe("wnd[0]/usr/ctxtVBAK-AUART");
    expect(sessionRelativeId("/app/con[0]")).toBe("app/con[0]");
  });
});

describe("SapCallError", () => {
  test("is a coded flowproof error carrying SAP's text and its cause", () => {
    const cause = new Error("DISP_E_EXCEPTION");
    const e = new SapCallError("The control could not be found by id.", { cause });
    expect(e).toBeInstanceOf(FlowproofError);
    expect(e.code).toBe("sap-call");
    expect(e.name).toBe("SapCallError");
    expect(e.message).toBe("The control could not be found by id.");
    expect(e.cause).toBe(cause);
    expect(e.diagnostics[0]?.hint).toContain("SAP screen");
  });
});
