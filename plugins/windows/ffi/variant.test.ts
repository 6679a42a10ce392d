// The VARIANT layout: each kind's VT and value bytes, round trips, and what it refuses to write.
import { describe, expect, test } from "bun:test";
import { VARIANT_SIZE, VT, decodeVariant, encodeVariant, variantValue, type Variant } from "./variant.ts";

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
