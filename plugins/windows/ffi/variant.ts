// The VARIANT layout, pure: the VT codes, the Variant value type, and encoding and decoding of the
// 24 bytes (vt u16, 6 reserved bytes, then the 16-byte value union at offset 8 on x64).
// No library is opened here; com.ts allocates and frees the BSTRs and interfaces a VARIANT holds.
import type { Pointer } from "bun:ffi";

export const VARIANT_SIZE = 24;

export const VT = {
  EMPTY: 0,
  NULL: 1,
  I2: 2,
  I4: 3,
  R4: 4,
  R8: 5,
  BSTR: 8,
  DISPATCH: 9,
  ERROR: 10,
  BOOL: 11,
  VARIANT: 12,
  UNKNOWN: 13,
  I1: 16,
  UI1: 17,
  UI2: 18,
  UI4: 19,
  I8: 20,
  UI8: 21,
  INT: 22,
  UINT: 23,
  ARRAY: 0x2000,
  BYREF: 0x4000,
} as const;

/** A VARIANT's value. `int` carries the narrower and wider integer types (vt says which); `other` any type not decoded. */
export type Variant =
  | { readonly kind: "empty" }
  | { readonly kind: "null" }
  | { readonly kind: "i4"; readonly value: number }
  | { readonly kind: "r8"; readonly value: number }
  | { readonly kind: "bool"; readonly value: boolean }
  | { readonly kind: "bstr"; readonly value: string }
  | { readonly kind: "dispatch"; readonly value: Pointer }
  | { readonly kind: "unknown"; readonly value: Pointer }
  | { readonly kind: "int"; readonly vt: number; readonly value: number }
  | { readonly kind: "error"; readonly value: number }
  | { readonly kind: "other"; readonly vt: number };

export const Variants = {
  empty: { kind: "empty" } as Variant,
  i4: (value: number): Variant => ({ kind: "i4", value }),
  r8: (value: number): Variant => ({ kind: "r8", value }),
  bool: (value: boolean): Variant => ({ kind: "bool", value }),
  bstr: (value: string): Variant => ({ kind: "bstr", value }),
  dispatch: (value: Pointer): Variant => ({ kind: "dispatch", value }),
  unknown: (value: Pointer): Variant => ({ kind: "unknown", value }),
};

/**
 * Pure: writes `v` into the 24 bytes at `out` (zeroed first). A bstr value gets its BSTR from
 * `alloc` (allocBstr for a real call), which the VARIANT then owns.
 */
export function encodeVariant(v: Variant, out: Uint8Array, alloc: (text: string) => number): void {
  if (out.byteLength < VARIANT_SIZE) throw new Error(`a VARIANT needs ${VARIANT_SIZE} bytes, got ${out.byteLength}`); // plain Error on purpose: a short buffer of ours is a flowproof bug
  out.fill(0, 0, VARIANT_SIZE);
  const view = new DataView(out.buffer, out.byteOffset, VARIANT_SIZE);
  const vt = (t: number): void => view.setUint16(0, t, true);
  switch (v.kind) {
    case "empty":
      return;
    case "null":
      return vt(VT.NULL);
    case "i4":
      vt(VT.I4);
      return view.setInt32(8, v.value, true);
    case "r8":
      vt(VT.R8);
      return view.setFloat64(8, v.value, true);
    case "bool":
      vt(VT.BOOL);
      return view.setInt16(8, v.value ? -1 : 0, true);
    case "bstr":
      vt(VT.BSTR);
      return view.setBigUint64(8, BigInt(alloc(v.value)), true);
    case "dispatch":
      vt(VT.DISPATCH);
      return view.setBigUint64(8, BigInt(v.value), true);
    case "unknown":
      vt(VT.UNKNOWN);
      return view.setBigUint64(8, BigInt(v.value), true);
    case "int":
      vt(VT.I8);
      return view.setBigInt64(8, BigInt(Math.trunc(v.value)), true);
    case "error":
      vt(VT.ERROR);
      return view.setInt32(8, v.value, true);
    case "other":
      throw new Error(`cannot write a VARIANT of type ${v.vt}`); // plain Error on purpose: flowproof writes only types it declares; another is a flowproof bug
  }
}

/** Pure: the value of the 24 VARIANT bytes at `bytes`; a BSTR's text comes from `readText` (readBstr for real memory). */
export function decodeVariant(bytes: Uint8Array, readText: (p: number) => string): Variant {
  const view = new DataView(bytes.buffer, bytes.byteOffset, VARIANT_SIZE);
  const vt = view.getUint16(0, true);
  const p = (): Pointer => Number(view.getBigUint64(8, true)) as Pointer;
  switch (vt) {
    case VT.EMPTY:
      return { kind: "empty" };
    case VT.NULL:
      return { kind: "null" };
    case VT.I4:
      return { kind: "i4", value: view.getInt32(8, true) };
    case VT.R8:
      return { kind: "r8", value: view.getFloat64(8, true) };
    case VT.R4:
      return { kind: "r8", value: view.getFloat32(8, true) };
    case VT.BOOL:
      return { kind: "bool", value: view.getInt16(8, true) !== 0 };
    case VT.BSTR:
      return { kind: "bstr", value: readText(p()) };
    case VT.DISPATCH:
      return { kind: "dispatch", value: p() };
    case VT.UNKNOWN:
      return { kind: "unknown", value: p() };
    case VT.ERROR:
      return { kind: "error", value: view.getInt32(8, true) };
    case VT.I1:
      return { kind: "int", vt, value: view.getInt8(8) };
    case VT.UI1:
      return { kind: "int", vt, value: view.getUint8(8) };
    case VT.I2:
      return { kind: "int", vt, value: view.getInt16(8, true) };
    case VT.UI2:
      return { kind: "int", vt, value: view.getUint16(8, true) };
    case VT.INT:
      return { kind: "int", vt, value: view.getInt32(8, true) };
    case VT.UI4:
    case VT.UINT:
      return { kind: "int", vt, value: view.getUint32(8, true) };
    case VT.I8:
      return { kind: "int", vt, value: Number(view.getBigInt64(8, true)) };
    case VT.UI8:
      return { kind: "int", vt, value: Number(view.getBigUint64(8, true)) };
    default:
      return { kind: "other", vt };
  }
}

/** A plain JS value for a decoded VARIANT: numbers, booleans, strings, null for empty/null; pointers stay numbers. */
export function variantValue(v: Variant): number | boolean | string | null {
  switch (v.kind) {
    case "empty":
    case "null":
    case "other":
      return null;
    default:
      return v.value;
  }
}
