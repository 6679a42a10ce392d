// The pure parts of the COM layer: GUID bytes, HRESULT errors, BSTR and VARIANT layouts.
// The native calls (CoCreateInstance, vtable calls, SysAllocString) run under Wine in test/e2e/wine-bed.test.ts.
import { describe, expect, test } from "bun:test";
import {
  ComError,
  HR,
  VARIANT_SIZE,
  VT,
  checkHr,
  decodeVariant,
  encodeBstr,
  encodeVariant,
  failed,
  formatGuid,
  hresultHex,
  parseGuid,
  variantValue,
  type Variant,
} from "./com.ts";

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

describe("VARIANT", () => {
  const roundTrip = (v: Variant): { bytes: Uint8Array; back: Variant } => {
    const texts = new Map<number, string>();
    const bytes = new Uint8Array(VARIANT_SIZE).fill(0xcc);
    encodeVariant(v, bytes, (text) => {
      const p = 0x1000 + texts.size * 16;
      texts.set(p, text);
      return p;
    });
    return { bytes, back: decodeVariant(bytes, (p) => texts.get(p) ?? `<no text at ${p}>`) };
  };
  const vt = (b: Uint8Array): number => new DataView(b.buffer).getUint16(0, true);

  test("each kind writes its VT at offset 0 and its value at offset 8, and reads back", () => {
    const cases: [Variant, number][] = [
      [{ kind: "empty" }, VT.EMPTY],
      [{ kind: "i4", value: -42 }, VT.I4],
      [{ kind: "r8", value: 3.25 }, VT.R8],
      [{ kind: "bool", value: true }, VT.BOOL],
      [{ kind: "bool", value: false }, VT.BOOL],
      [{ kind: "bstr", value: "DEVELOPER" }, VT.BSTR],
      [{ kind: "dispatch", value: 0x7ff612345678 as never }, VT.DISPATCH],
      [{ kind: "unknown", value: 0x1234 as never }, VT.UNKNOWN],
    ];
    for (const [v, code] of cases) {
      const { bytes, back } = roundTrip(v);
      expect(vt(bytes)).toBe(code);
      expect(back).toEqual(v);
      expect(Array.from(bytes.subarray(2, 8))).toEqual([0, 0, 0, 0, 0, 0]);
    }
  });
  test("VARIANT_TRUE is -1 as a 16-bit value; the pointer of a BSTR sits at offset 8", () => {
    const t = roundTrip({ kind: "bool", value: true }).bytes;
    expect([t[8], t[9]]).toEqual([0xff, 0xff]);
    const s = roundTrip({ kind: "bstr", value: "x" }).bytes;
    expect(new DataView(s.buffer).getBigUint64(8, true)).toBe(0x1000n);
  });
  test("other integer types read as int with their VT; unknown types as other", () => {
    const b = new Uint8Array(VARIANT_SIZE);
    const view = new DataView(b.buffer);
    view.setUint16(0, VT.I2, true);
    view.setInt16(8, -7, true);
    expect(decodeVariant(b, () => "")).toEqual({ kind: "int", vt: VT.I2, value: -7 });
    view.setUint16(0, VT.UI4, true);
    view.setUint32(8, 0xfffffffe, true);
    expect(decodeVariant(b, () => "")).toEqual({ kind: "int", vt: VT.UI4, value: 0xfffffffe });
    view.setUint16(0, VT.ARRAY | VT.VARIANT, true);
    expect(decodeVariant(b, () => "")).toEqual({ kind: "other", vt: VT.ARRAY | VT.VARIANT });
    expect(variantValue({ kind: "other", vt: 1 })).toBeNull();
    expect(variantValue({ kind: "bstr", value: "a" })).toBe("a");
  });
  test("refuses a buffer shorter than a VARIANT and a type it cannot write", () => {
    expect(() => encodeVariant({ kind: "i4", value: 1 }, new Uint8Array(16), () => 0)).toThrow(/24 bytes/);
    expect(() => encodeVariant({ kind: "other", vt: 36 }, new Uint8Array(24), () => 0)).toThrow(/type 36/);
  });
});
