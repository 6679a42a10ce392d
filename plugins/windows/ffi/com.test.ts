// The pure parts of the COM layer: GUID bytes, HRESULT errors, the BSTR layout (VARIANT: variant.test.ts).
// The native calls (CoCreateInstance, vtable calls, SysAllocString) run under Wine in test/e2e/wine-bed.test.ts.
import { describe, expect, test } from "bun:test";
import { ComError, HR, checkHr, encodeBstr, failed, formatGuid, hresultHex, parseGuid } from "./com.ts";

describe("GUID", () => {
  test("parses into the in-memory layout: Data1..3 little-endian, Data4 as written", () => {
    const g = parseGuid("{618736E0-3C3D-11CF-810C-00AA00389B71}");
    expect(Array.from(g)).toEqual([0xe0, 0x36, 0x87, 0x61, 0x3d, 0x3c, 0xcf, 0x11, 0x81, 0x0c, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71]);
  });
  test("round-trips through formatGuid, with or without braces", () => {
    expect(formatGuid(parseGuid("ff48dba4-60ef-4201-aa87-54103eef594e"))).toBe("{FF48DBA4-60EF-4201-AA87-54103EEF594E}");
    expect(formatGuid(parseGuid("{00020400-0000-0000-C000-000000000046}"))).toBe("{00020400-0000-0000-C000-000000000046}");
  });
  test("refuses text that is not a GUID, saying how to write one", () => {
    expect(() => parseGuid("618736E0-3C3D-11CF-810C")).toThrow(/not a GUID.*xxxxxxxx-xxxx/);
    expect(() => parseGuid("618736E0-3C3D-11CF-810C-00AA00389B7G")).toThrow(/not a GUID/);
  });
});

describe("HRESULT", () => {
  test("failure codes are the negative ones, printed as unsigned hex", () => {
    expect(failed(HR.E_NOTIMPL)).toBe(true);
    expect(failed(0x80040154)).toBe(true);
    expect(failed(HR.S_FALSE)).toBe(false);
    expect(hresultHex(HR.REGDB_E_CLASSNOTREG)).toBe("0x80040154");
    expect(hresultHex(1)).toBe("0x00000001");
  });
  test("checkHr passes S_OK/S_FALSE and throws a ComError naming the call, the hex code and the symbol", () => {
    expect(checkHr(HR.S_FALSE, "x")).toBe(1);
    let error: unknown;
    try {
      checkHr(0x80004001 | 0, "IUIAutomation::CreatePropertyCondition");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ComError);
    const c = error as ComError;
    expect(c.hex).toBe("0x80004001");
    expect(c.code).toBe("com-error");
    expect(c.symbol).toBe("E_NOTIMPL");
    expect(c.hresult).toBe(HR.E_NOTIMPL);
    expect(c.message).toBe("IUIAutomation::CreatePropertyCondition failed with HRESULT 0x80004001 (E_NOTIMPL)");
    expect(new ComError("f", 0x80001234 | 0).message).toBe("f failed with HRESULT 0x80001234");
  });
});

describe("BSTR", () => {
  test("is a byte-length prefix, UTF-16LE text and a two-byte NUL", () => {
    const b = encodeBstr("Hé");
    expect(Array.from(b)).toEqual([4, 0, 0, 0, 0x48, 0, 0xe9, 0, 0, 0]);
    expect(Array.from(encodeBstr(""))).toEqual([0, 0, 0, 0, 0, 0]);
  });
});
