import { describe, expect, test } from "bun:test";
import { DispatchError, EXCEPINFO_SIZE, decodeExcepInfo, encodeDispParams } from "./dispatch.ts";
import { HR } from "./com.ts";

describe("DISPPARAMS", () => {
  test("holds the argument array, the named ids and both counts", () => {
    const v = new DataView(encodeDispParams(0x1000, 2, 0x2000, 1).buffer);
    expect(Number(v.getBigUint64(0, true))).toBe(0x1000);
    expect(Number(v.getBigUint64(8, true))).toBe(0x2000);
    expect(v.getUint32(16, true)).toBe(2);
    expect(v.getUint32(20, true)).toBe(1);
  });
});

describe("EXCEPINFO", () => {
  test("reads the source, the description and the scode at their x64 offsets", () => {
    const bytes = new Uint8Array(EXCEPINFO_SIZE);
    const v = new DataView(bytes.buffer);
    v.setUint16(0, 1000, true);
    v.setBigUint64(8, 11n, true);
    v.setBigUint64(16, 22n, true);
    v.setInt32(56, 0x80004005 | 0, true);
    const texts: Record<number, string> = { 11: "SAP Frontend Server", 22: "The control could not be found by id." };
    expect(decodeExcepInfo(bytes, (p) => texts[p] ?? "")).toEqual({
      wCode: 1000,
      source: "SAP Frontend Server",
      description: "The control could not be found by id.",
      scode: 0x80004005 | 0,
    });
  });

  test("a DispatchError carries the server's description as its message", () => {
    const e = new DispatchError("FindById", HR.DISP_E_EXCEPTION, "The control could not be found by id.");
    expect(e.message).toBe("FindById: The control could not be found by id.");
    expect(e.hex).toBe("0x80020009");
    expect(e.code).toBe("com-error");
    expect(e.diagnostics[0]?.message).toBe("FindById: The control could not be found by id.");
  });
});
