// COM through bun:ffi: apartments, object creation, vtable calls, BSTR and VARIANT.
//
// ole32 and oleaut32 are opened on first use, never at import, so the pure parts (GUID parsing,
// HRESULT errors, VARIANT and BSTR layouts) load and test on any platform. A COM object is a
// pointer whose first word is its vtable; method `i` is the i-th pointer there, called with the
// object as its first argument. One CFunction is made per (function pointer, signature) and kept.
import { CFunction, dlopen, FFIType, ptr, read, toArrayBuffer, type Pointer } from "bun:ffi";
import { FlowproofError } from "../../../src/plugins/api.ts";
import { wstr } from "./wide.ts";
import { decodeVariant, encodeVariant, VARIANT_SIZE, type Variant } from "./variant.ts";

export { decodeVariant, encodeVariant, VARIANT_SIZE, Variants, variantValue, VT, type Variant } from "./variant.ts";

// ---------------------------------------------------------------------------------------------
// HRESULT

/** HRESULT values the bindings and their callers name. */
export const HR = {
  S_OK: 0,
  S_FALSE: 1,
  E_NOTIMPL: 0x80004001 | 0,
  E_NOINTERFACE: 0x80004002 | 0,
  E_POINTER: 0x80004003 | 0,
  E_FAIL: 0x80004005 | 0,
  E_UNEXPECTED: 0x8000ffff | 0,
  E_ACCESSDENIED: 0x80070005 | 0,
  E_INVALIDARG: 0x80070057 | 0,
  E_OUTOFMEMORY: 0x8007000e | 0,
  REGDB_E_CLASSNOTREG: 0x80040154 | 0,
  CO_E_CLASSSTRING: 0x800401f3 | 0,
  RPC_E_CHANGED_MODE: 0x80010106 | 0,
  RPC_E_SERVERCALL_RETRYLATER: 0x8001010a | 0,
  RPC_S_SERVER_UNAVAILABLE: 0x800706ba | 0,
  DISP_E_MEMBERNOTFOUND: 0x80020003 | 0,
  DISP_E_UNKNOWNNAME: 0x80020006 | 0,
  DISP_E_TYPEMISMATCH: 0x80020005 | 0,
  DISP_E_BADPARAMCOUNT: 0x8002000e | 0,
  DISP_E_EXCEPTION: 0x80020009 | 0,
  MK_E_UNAVAILABLE: 0x800401e3 | 0,
} as const;

const HR_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(HR).map(([name, value]) => [value, name]));

/** `hr` as Windows prints it: `0x80004001`. */
export function hresultHex(hr: number): string {
  return `0x${(hr >>> 0).toString(16).padStart(8, "0")}`;
}

/** The symbolic name of a known HRESULT (`E_NOTIMPL`), or undefined. */
export function hresultName(hr: number): string | undefined {
  return HR_NAMES.get(hr | 0);
}

/** True when `hr` is a failure code (severity bit set). */
export function failed(hr: number): boolean {
  return (hr | 0) < 0;
}

/** A COM call that returned a failure HRESULT (code `com-error`). `hex` is the HRESULT as Windows prints it, `symbol` its name when known. */
export class ComError extends FlowproofError {
  readonly hresult: number;
  readonly hex: string;
  readonly symbol: string | undefined;
  readonly call: string;
  /** `message` replaces the default one (a server's own description of the failure). */
  constructor(call: string, hresult: number, message?: string) {
    const symbol = hresultName(hresult);
    const hint =
      'the Windows component behind this call is missing, not registered, or refused it; the HRESULT says which (docs/windows.md, "Checking a Windows machine")';
    super({ code: "com-error", message: message ?? `${call} failed with HRESULT ${hresultHex(hresult)}${symbol === undefined ? "" : ` (${symbol})`}`, hint });
    this.hresult = hresult | 0;
    this.hex = hresultHex(hresult);
    this.symbol = symbol;
    this.call = call;
  }
}

/** Throws ComError when `hr` failed; returns `hr` (S_OK or S_FALSE) otherwise. */
export function checkHr(hr: number, call: string): number {
  if (failed(hr)) throw new ComError(call, hr);
  return hr;
}

// ---------------------------------------------------------------------------------------------
// GUID

const GUID_RE = /^\{?([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\}?$/i;

/** The 16 bytes of a GUID (Data1..3 little-endian, Data4 as written) from `{xxxxxxxx-xxxx-…}` or without braces. */
export function parseGuid(text: string): Uint8Array {
  const m = GUID_RE.exec(text.trim());
  if (m === null) throw new Error(`not a GUID: "${text}" (write it as xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)`); // plain Error on purpose: GUIDs are flowproof constants, a bad one is a flowproof bug
  const [, d1, d2, d3, d4a, d4b] = m as unknown as [string, string, string, string, string, string];
  const out = new Uint8Array(16);
  const view = new DataView(out.buffer);
  view.setUint32(0, parseInt(d1, 16), true);
  view.setUint16(4, parseInt(d2, 16), true);
  view.setUint16(6, parseInt(d3, 16), true);
  const tail = d4a + d4b;
  for (let i = 0; i < 8; i++) out[8 + i] = parseInt(tail.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The canonical `{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}` form of 16 GUID bytes. */
export function formatGuid(bytes: Uint8Array): string {
  if (bytes.byteLength !== 16) throw new Error(`a GUID is 16 bytes, got ${bytes.byteLength}`); // plain Error on purpose: a wrong-sized buffer of ours is a flowproof bug
  const view = new DataView(bytes.buffer, bytes.byteOffset, 16);
  const hex = (n: number, w: number): string => n.toString(16).padStart(w, "0");
  const d4 = Array.from(bytes.subarray(8), (b) => hex(b, 2)).join("");
  return `{${hex(view.getUint32(0, true), 8)}-${hex(view.getUint16(4, true), 4)}-${hex(view.getUint16(6, true), 4)}-${d4.slice(0, 4)}-${d4.slice(4)}}`.toUpperCase();
}

/** Well-known interface ids. */
export const IID = {
  IUnknown: "00000000-0000-0000-C000-000000000046",
  IDispatch: "00020400-0000-0000-C000-000000000046",
  IAccessible: "618736E0-3C3D-11CF-810C-00AA00389B71",
  IEnumVARIANT: "00020404-0000-0000-C000-000000000046",
} as const;

// ---------------------------------------------------------------------------------------------
// Libraries (opened on first use)

function openOle32() {
  return dlopen("ole32.dll", {
    CoInitializeEx: { args: [FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
    CoUninitialize: { args: [], returns: FFIType.void },
    CoCreateInstance: { args: [FFIType.ptr, FFIType.ptr, FFIType.u32, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
    CLSIDFromProgID: { args: [FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
    CoTaskMemFree: { args: [FFIType.ptr], returns: FFIType.void },
  }).symbols;
}

function openOleAut32() {
  return dlopen("oleaut32.dll", {
    SysAllocStringLen: { args: [FFIType.ptr, FFIType.u32], returns: FFIType.ptr },
    SysFreeString: { args: [FFIType.ptr], returns: FFIType.void },
    SysStringLen: { args: [FFIType.ptr], returns: FFIType.u32 },
    VariantInit: { args: [FFIType.ptr], returns: FFIType.void },
    VariantClear: { args: [FFIType.ptr], returns: FFIType.i32 },
  }).symbols;
}

let ole32: ReturnType<typeof openOle32> | undefined;
let oleaut32: ReturnType<typeof openOleAut32> | undefined;
const ole = (): ReturnType<typeof openOle32> => (ole32 ??= openOle32());
const oleaut = (): ReturnType<typeof openOleAut32> => (oleaut32 ??= openOleAut32());

// ---------------------------------------------------------------------------------------------
// Pointers and out-parameters

/** A value a native argument slot accepts. */
export type NativeArg = number | bigint | boolean | Pointer | NodeJS.TypedArray | Buffer | null;

/** A one-slot out-parameter (`T**`, `HWND*`, `LONG*`…): pass it, then read `.value`. */
export class OutPtr {
  readonly slot = new BigUint64Array(1);
  /** The pointer written into the slot, 0 when none. */
  get value(): Pointer {
    return Number(this.slot[0]) as Pointer;
  }
  /** The slot read as a signed 32-bit integer (LONG, HRESULT, BOOL outs). */
  get i32(): number {
    return Number(BigInt.asIntN(32, this.slot[0] ?? 0n));
  }
  /** The slot read as a double (for a `double*` out). */
  get f64(): number {
    return new Float64Array(this.slot.buffer)[0] ?? 0;
  }
}

/** The 16 bytes of `guid` (text or bytes) as a buffer to pass by pointer. */
export function guidArg(guid: string | Uint8Array): Uint8Array {
  return typeof guid === "string" ? parseGuid(guid) : guid;
}

// ---------------------------------------------------------------------------------------------
// Vtable calls

type Native = (...args: NativeArg[]) => unknown;
const fnCache = new Map<string, Native>();

/** The function pointer at vtable slot `index` of COM object `obj`. */
export function vtableEntry(obj: Pointer | number, index: number): number {
  if (obj === 0) throw new Error(`vtable call on a null COM object (slot ${index})`); // plain Error on purpose: calling through a null object is a flowproof bug (a failed call was not checked)
  const vtbl = read.ptr(obj, 0);
  return read.ptr(vtbl, index * 8);
}

/**
 * Calls method `index` of `obj` with `args` typed by `types` (the object pointer is added first)
 * and returns what it returns (`returns`, an HRESULT by default).
 */
export function vcall(obj: Pointer | number, index: number, types: readonly FFIType[], args: readonly NativeArg[], returns: FFIType = FFIType.i32): unknown {
  if (types.length !== args.length) throw new Error(`vtable slot ${index}: ${types.length} argument types for ${args.length} arguments`); // plain Error on purpose: a binding declared with the wrong arity is a flowproof bug
  const fn = vtableEntry(obj, index);
  const key = `${fn}|${types.join(",")}>${returns}`;
  let native = fnCache.get(key);
  if (native === undefined) {
    native = CFunction({ ptr: fn as Pointer, args: [FFIType.ptr, ...types], returns }) as unknown as Native;
    fnCache.set(key, native);
  }
  return native(obj as Pointer, ...args);
}

/** A vtable call returning an HRESULT; throws ComError on failure (`call` names it in the message). */
export function hrcall(obj: Pointer | number, index: number, call: string, types: readonly FFIType[], args: readonly NativeArg[]): number {
  return checkHr(vcall(obj, index, types, args) as number, call);
}

/** A vtable call whose last argument is a pointer out-parameter; returns the pointer (0 when S_FALSE left it empty). */
export function hrcallOut(obj: Pointer | number, index: number, call: string, types: readonly FFIType[], args: readonly NativeArg[]): Pointer {
  const out = new OutPtr();
  hrcall(obj, index, call, [...types, FFIType.ptr], [...args, out.slot]);
  return out.value;
}

/** IUnknown::AddRef (slot 1). */
export function addRef(obj: Pointer | number): number {
  return vcall(obj, 1, [], [], FFIType.u32) as number;
}

/** IUnknown::Release (slot 2); a null pointer is ignored. Returns the remaining count. */
export function release(obj: Pointer | number | null | undefined): number {
  if (obj === null || obj === undefined || obj === 0) return 0;
  return vcall(obj, 2, [], [], FFIType.u32) as number;
}

/** IUnknown::QueryInterface (slot 0): the interface pointer, or null for E_NOINTERFACE. Other failures throw. */
export function queryInterface(obj: Pointer | number, iid: string | Uint8Array): Pointer | null {
  const out = new OutPtr();
  const hr = vcall(obj, 0, [FFIType.ptr, FFIType.ptr], [guidArg(iid), out.slot]) as number;
  if (hr === HR.E_NOINTERFACE) return null;
  checkHr(hr, `QueryInterface(${typeof iid === "string" ? iid : formatGuid(iid)})`);
  return out.value;
}

// ---------------------------------------------------------------------------------------------
// Apartments and object creation

export const COINIT_APARTMENTTHREADED = 0x2;
export const COINIT_MULTITHREADED = 0x0;
export const CLSCTX_INPROC_SERVER = 0x1;
export const CLSCTX_LOCAL_SERVER = 0x4;
export const CLSCTX_ALL = 0x17;

/** CoInitializeEx for this thread: S_OK, S_FALSE (already initialised) and RPC_E_CHANGED_MODE are all fine. */
export function coInitialize(apartment: "sta" | "mta" = "sta"): number {
  const hr = ole().CoInitializeEx(null, apartment === "sta" ? COINIT_APARTMENTTHREADED : COINIT_MULTITHREADED);
  if (hr === HR.RPC_E_CHANGED_MODE) return hr;
  return checkHr(hr, "CoInitializeEx");
}

export function coUninitialize(): void {
  ole().CoUninitialize();
}

/** CoCreateInstance(clsid, iid): the new object's interface pointer (release it). */
export function coCreateInstance(clsid: string | Uint8Array, iid: string | Uint8Array, context: number = CLSCTX_ALL): Pointer {
  const out = new OutPtr();
  const what = `CoCreateInstance(${typeof clsid === "string" ? clsid : formatGuid(clsid)})`;
  checkHr(ole().CoCreateInstance(guidArg(clsid), null, context, guidArg(iid), out.slot), what);
  return out.value;
}

/** CLSIDFromProgID("Scripting.Dictionary"): the class id bytes. */
export function clsidFromProgId(progId: string): Uint8Array {
  const out = new Uint8Array(16);
  checkHr(ole().CLSIDFromProgID(wstr(progId), out), `CLSIDFromProgID("${progId}")`);
  return out;
}

/** CoTaskMemFree for memory a COM method allocated for the caller. */
export function coTaskMemFree(p: Pointer | number): void {
  if (p !== 0) ole().CoTaskMemFree(p as Pointer);
}

// ---------------------------------------------------------------------------------------------
// BSTR

/** The bytes of a BSTR allocation for `text`: byte length (u32 LE), UTF-16LE units, two NUL bytes. The BSTR points at offset 4. */
export function encodeBstr(text: string): Uint8Array {
  const body = Buffer.from(text, "utf16le");
  const out = new Uint8Array(4 + body.byteLength + 2);
  new DataView(out.buffer).setUint32(0, body.byteLength, true);
  out.set(body, 4);
  return out;
}

/** A new BSTR holding `text` (free it with freeBstr, or hand it to a VARIANT that VariantClear frees). */
export function allocBstr(text: string): Pointer {
  const body = Buffer.from(text, "utf16le");
  const p = oleaut().SysAllocStringLen(body.byteLength === 0 ? null : body, body.byteLength / 2);
  if (p === null || Number(p) === 0) throw new ComError("SysAllocStringLen", HR.E_OUTOFMEMORY);
  return Number(p) as Pointer;
}

export function freeBstr(p: Pointer | number | null): void {
  if (p !== null && p !== 0) oleaut().SysFreeString(p as Pointer);
}

/** The text of a BSTR (a null BSTR is the empty string). */
export function readBstr(p: Pointer | number | null): string {
  if (p === null || p === 0) return "";
  const units = oleaut().SysStringLen(p as Pointer);
  return units === 0 ? "" : Buffer.from(toArrayBuffer(p, 0, units * 2)).toString("utf16le");
}

/** readBstr, then freeBstr: for a BSTR out-parameter the caller owns. */
export function takeBstr(p: Pointer | number | null): string {
  try {
    return readBstr(p);
  } finally {
    freeBstr(p);
  }
}

// ---------------------------------------------------------------------------------------------
// VARIANT (the layout and its pure encoding live in variant.ts)

/** A zeroed (VT_EMPTY) VARIANT buffer to pass as an out-parameter. */
export function emptyVariant(): Uint8Array {
  return new Uint8Array(VARIANT_SIZE);
}

/** A VARIANT buffer holding `v`, ready to pass by pointer; clearVariant it afterwards when it holds a BSTR. */
export function makeVariant(v: Variant): Uint8Array {
  const out = new Uint8Array(VARIANT_SIZE);
  encodeVariant(v, out, (text) => allocBstr(text));
  return out;
}

/** The value in a VARIANT buffer (or at a native address). Pointers in it are still owned by the VARIANT. */
export function readVariant(v: Uint8Array | Pointer | number): Variant {
  const bytes = typeof v === "number" ? new Uint8Array(toArrayBuffer(v, 0, VARIANT_SIZE).slice(0)) : v;
  return decodeVariant(bytes, (p) => readBstr(p));
}

/** VariantClear: frees a BSTR, releases an interface; leaves VT_EMPTY. */
export function clearVariant(v: Uint8Array | Pointer | number): void {
  oleaut().VariantClear(typeof v === "number" ? (v as Pointer) : ptr(v));
}

/** readVariant, then clearVariant: for an out VARIANT the caller owns. An interface in it is AddRef'd first, so it survives. */
export function takeVariant(v: Uint8Array): Variant {
  const value = readVariant(v);
  if ((value.kind === "dispatch" || value.kind === "unknown") && value.value !== 0) addRef(value.value);
  clearVariant(v);
  return value;
}
