// Late-bound COM (IDispatch) through bun:ffi: names to DISPIDs, Invoke for methods, property
// gets and puts (DISPID_PROPERTYPUT), exceptions with the server's own description, the Running
// Object Table (GetObject by item moniker, e.g. SAP GUI's `SAPGUI`) and SAFEARRAY reads.
// ole32/oleaut32 open on first use; the layouts (DISPPARAMS, EXCEPINFO) are pure and tested anywhere.
import { dlopen, FFIType, ptr, read, type Pointer } from "bun:ffi";
import {
  ComError,
  HR,
  IID,
  OutPtr,
  checkHr,
  clearVariant,
  coTaskMemFree,
  emptyVariant,
  failed,
  hrcall,
  makeVariant,
  queryInterface,
  readBstr,
  release,
  takeVariant,
  vcall,
  VARIANT_SIZE,
  VT,
  type Variant,
} from "./com.ts";
import { readWide, wstr } from "./wide.ts";
import { FlowproofError } from "../../../src/plugins/api.ts";

export const DISPATCH_METHOD = 1;
export const DISPATCH_PROPERTYGET = 2;
export const DISPATCH_PROPERTYPUT = 4;
export const DISPID_PROPERTYPUT = -3;
/** An all-zero IID: what GetIDsOfNames and Invoke take as `riid`. */
const IID_NULL = new Uint8Array(16);
const LOCALE_USER_DEFAULT = 0x400;

/** How a member is invoked. */
export type InvokeKind = "method" | "get" | "put";

/** What Invoke returns: a VARIANT's value, or the elements of a SAFEARRAY result. */
export type InvokeResult = Variant | { readonly kind: "array"; readonly items: readonly Variant[] };

/** Pure: the 24-byte DISPPARAMS (rgvarg, rgdispidNamedArgs, cArgs, cNamedArgs) for argument and named-id addresses. */
export function encodeDispParams(argsAddr: number, count: number, namedAddr: number, namedCount: number): Uint8Array {
  const out = new Uint8Array(24);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(argsAddr), true);
  view.setBigUint64(8, BigInt(namedAddr), true);
  view.setUint32(16, count, true);
  view.setUint32(20, namedCount, true);
  return out;
}

/** EXCEPINFO on x64 is 64 bytes: bstrSource at 8, bstrDescription at 16, scode at 56. */
export const EXCEPINFO_SIZE = 64;

/** Pure: the source, description and scode of an EXCEPINFO, its BSTRs read with `readText`. */
export function decodeExcepInfo(bytes: Uint8Array, readText: (p: number) => string): { source: string; description: string; scode: number; wCode: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, EXCEPINFO_SIZE);
  const p = (o: number): number => Number(view.getBigUint64(o, true));
  return { wCode: view.getUint16(0, true), source: readText(p(8)), description: readText(p(16)), scode: view.getInt32(56, true) };
}

/** A DISP_E_EXCEPTION from the server: `description` is the server's own text (SAP's message). */
export class DispatchError extends ComError {
  readonly description: string;
  constructor(call: string, hresult: number, description: string) {
    super(call, hresult, description === "" ? undefined : `${call}: ${description}`);
    this.description = description;
  }
}

function openOle() {
  return dlopen("ole32.dll", {
    GetRunningObjectTable: { args: [FFIType.u32, FFIType.ptr], returns: FFIType.i32 },
    CreateItemMoniker: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
    CreateBindCtx: { args: [FFIType.u32, FFIType.ptr], returns: FFIType.i32 },
  }).symbols;
}

function openAut() {
  return dlopen("oleaut32.dll", {
    SafeArrayGetDim: { args: [FFIType.ptr], returns: FFIType.u32 },
    SafeArrayGetLBound: { args: [FFIType.ptr, FFIType.u32, FFIType.ptr], returns: FFIType.i32 },
    SafeArrayGetUBound: { args: [FFIType.ptr, FFIType.u32, FFIType.ptr], returns: FFIType.i32 },
    SafeArrayGetVartype: { args: [FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
    SafeArrayGetElement: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
    SafeArrayDestroy: { args: [FFIType.ptr], returns: FFIType.i32 },
  }).symbols;
}

let ole: ReturnType<typeof openOle> | undefined;
let aut: ReturnType<typeof openAut> | undefined;
const ole32 = (): ReturnType<typeof openOle> => (ole ??= openOle());
const oleaut32 = (): ReturnType<typeof openAut> => (aut ??= openAut());

/** A cache of DISPIDs per (object, name): names are looked up once per object. */
const dispIds = new Map<string, number>();

/** IDispatch::GetIDsOfNames (slot 5) for one name; throws ComError (DISP_E_UNKNOWNNAME) for an unknown one. */
export function getDispId(disp: Pointer | number, name: string): number {
  const key = `${disp}|${name.toLowerCase()}`;
  const cached = dispIds.get(key);
  if (cached !== undefined) return cached;
  const text = wstr(name);
  const names = new BigUint64Array([BigInt(ptr(text))]);
  const out = new Int32Array(1);
  hrcall(
    disp,
    5,
    `GetIDsOfNames("${name}")`,
    [FFIType.ptr, FFIType.ptr, FFIType.u32, FFIType.u32, FFIType.ptr],
    [IID_NULL, names, 1, LOCALE_USER_DEFAULT, out],
  );
  dispIds.set(key, out[0]!);
  return out[0]!;
}

/** Forgets the cached DISPIDs of an object about to be released (its address may be reused). */
export function forgetDispIds(disp: Pointer | number): void {
  const prefix = `${disp}|`;
  for (const k of dispIds.keys()) if (k.startsWith(prefix)) dispIds.delete(k);
}

/**
 * IDispatch::Invoke (slot 6) of member `name`: a method call, a property get (with arguments for
 * indexed properties) or a put. Returns the result VARIANT's value; an interface in it is the
 * caller's to release. A server exception throws DispatchError with the server's description.
 */
export function invoke(disp: Pointer | number, name: string, kind: InvokeKind, args: readonly Variant[] = []): InvokeResult {
  const id = getDispId(disp, name);
  // Arguments go in reverse order.
  const argBuf = new Uint8Array(Math.max(1, args.length) * VARIANT_SIZE);
  const made: Uint8Array[] = [];
  args.forEach((a, i) => {
    const v = makeVariant(a);
    made.push(v);
    argBuf.set(v, (args.length - 1 - i) * VARIANT_SIZE);
  });
  const named = new Int32Array([DISPID_PROPERTYPUT]);
  const params =
    kind === "put"
      ? encodeDispParams(Number(ptr(argBuf)), args.length, Number(ptr(named)), 1)
      : encodeDispParams(args.length > 0 ? Number(ptr(argBuf)) : 0, args.length, 0, 0);
  const flags = kind === "put" ? DISPATCH_PROPERTYPUT : kind === "get" ? DISPATCH_PROPERTYGET | (args.length > 0 ? DISPATCH_METHOD : 0) : DISPATCH_METHOD;
  const result = emptyVariant();
  const excep = new Uint8Array(EXCEPINFO_SIZE);
  const argErr = new Uint32Array(1);
  try {
    const hr = vcall(
      disp,
      6,
      [FFIType.i32, FFIType.ptr, FFIType.u32, FFIType.u16, FFIType.ptr, FFIType.ptr, FFIType.ptr, FFIType.ptr],
      [id, IID_NULL, LOCALE_USER_DEFAULT, flags, params, result, excep, argErr],
    ) as number;
    if (failed(hr)) {
      const call = `${kind === "put" ? "set " : ""}${name}`;
      if (hr === HR.DISP_E_EXCEPTION) {
        const info = decodeExcepInfo(excep, (p) => readBstr(p));
        const view = new DataView(excep.buffer);
        for (const o of [8, 16, 24]) {
          const p = Number(view.getBigUint64(o, true));
          if (p !== 0) clearBstrAt(p);
        }
        throw new DispatchError(call, info.scode !== 0 ? info.scode : hr, info.description);
      }
      throw new ComError(call, hr);
    }
    const vt = new DataView(result.buffer).getUint16(0, true);
    if ((vt & VT.ARRAY) !== 0 && (vt & VT.BYREF) === 0) {
      try {
        return { kind: "array", items: readSafeArray(Number(new DataView(result.buffer).getBigUint64(8, true))) };
      } finally {
        clearVariant(result);
      }
    }
    return takeVariant(result);
  } finally {
    // A BSTR we allocated for an argument is ours to free.
    for (const m of made) clearVariant(m);
  }
}

function clearBstrAt(p: number): void {
  const v = makeVariant({ kind: "empty" });
  const view = new DataView(v.buffer);
  view.setUint16(0, VT.BSTR, true);
  view.setBigUint64(8, BigInt(p), true);
  clearVariant(v);
}

/** The Running Object Table's display names (`!SAPGUI` for SAP GUI's item moniker). */
export function runningObjectNames(): string[] {
  const rot = runningObjectTable();
  const names: string[] = [];
  try {
    const enumerator = hrcallOutPtr(rot, 9, "IRunningObjectTable::EnumRunning");
    const bindOut = new OutPtr();
    checkHr(ole32().CreateBindCtx(0, bindOut.slot), "CreateBindCtx");
    try {
      for (;;) {
        const out = new OutPtr();
        const fetched = new Uint32Array(1);
        const hr = vcall(enumerator, 3, [FFIType.u32, FFIType.ptr, FFIType.ptr], [1, out.slot, fetched]) as number;
        if (hr !== HR.S_OK || fetched[0] === 0) break;
        const moniker = out.value;
        try {
          const nameOut = new OutPtr();
          hrcall(moniker, 20, "IMoniker::GetDisplayName", [FFIType.ptr, FFIType.ptr, FFIType.ptr], [bindOut.value, null, nameOut.slot]);
          names.push(readWideZ(nameOut.value));
          coTaskMemFree(nameOut.value);
        } finally {
          release(moniker);
        }
      }
    } finally {
      release(bindOut.value);
      release(enumerator);
    }
  } finally {
    release(rot);
  }
  return names;
}

/**
 * The IDispatch of the object registered in the ROT under item moniker `!<item>` (what
 * `GetObject("SAPGUI")` finds), or undefined when nothing is registered under it.
 */
export function getRunningObject(item: string): Pointer | undefined {
  const rot = runningObjectTable();
  const monikerOut = new OutPtr();
  checkHr(ole32().CreateItemMoniker(wstr("!"), wstr(item), monikerOut.slot), `CreateItemMoniker("${item}")`);
  try {
    const out = new OutPtr();
    const hr = vcall(rot, 6, [FFIType.ptr, FFIType.ptr], [monikerOut.value, out.slot]) as number;
    if (hr === HR.MK_E_UNAVAILABLE || hr === HR.S_FALSE || out.value === 0) return undefined;
    checkHr(hr, `IRunningObjectTable::GetObject("${item}")`);
    try {
      return queryInterface(out.value, IID.IDispatch) ?? undefined;
    } finally {
      release(out.value);
    }
  } finally {
    release(monikerOut.value);
    release(rot);
  }
}

function runningObjectTable(): Pointer {
  const out = new OutPtr();
  checkHr(ole32().GetRunningObjectTable(0, out.slot), "GetRunningObjectTable");
  return out.value;
}

function hrcallOutPtr(obj: Pointer | number, index: number, call: string): Pointer {
  const out = new OutPtr();
  hrcall(obj, index, call, [FFIType.ptr], [out.slot]);
  return out.value;
}

/** A NUL-terminated UTF-16 string at `p` (at most 4096 units). */
function readWideZ(p: Pointer | number): string {
  if (p === 0) return "";
  let n = 0;
  while (n < 4096 && read.u16(p as Pointer, n * 2) !== 0) n++;
  return readWide(p, n);
}

/** The elements of a one-dimensional SAFEARRAY (of VARIANTs, BSTRs or 4-byte integers). Does not destroy it. */
export function readSafeArray(psa: Pointer | number): Variant[] {
  const a = oleaut32();
  if (psa === 0) return [];
  if (a.SafeArrayGetDim(psa as Pointer) !== 1)
    throw new FlowproofError({
      code: "driver-error",
      message: "a COM server answered with a SAFEARRAY of several dimensions; only one-dimensional ones are read",
    });
  const lo = new Int32Array(1);
  const hi = new Int32Array(1);
  checkHr(a.SafeArrayGetLBound(psa as Pointer, 1, lo), "SafeArrayGetLBound");
  checkHr(a.SafeArrayGetUBound(psa as Pointer, 1, hi), "SafeArrayGetUBound");
  const vtOut = new Uint16Array(2);
  checkHr(a.SafeArrayGetVartype(psa as Pointer, vtOut), "SafeArrayGetVartype");
  const vt = vtOut[0]!;
  const out: Variant[] = [];
  for (let i = lo[0]!; i <= hi[0]!; i++) {
    const index = new Int32Array([i]);
    if (vt === VT.VARIANT) {
      const v = emptyVariant();
      checkHr(a.SafeArrayGetElement(psa as Pointer, index, v), "SafeArrayGetElement");
      out.push(takeVariant(v));
    } else if (vt === VT.BSTR) {
      const p = new BigUint64Array(1);
      checkHr(a.SafeArrayGetElement(psa as Pointer, index, p), "SafeArrayGetElement");
      out.push({ kind: "bstr", value: readBstr(Number(p[0]) as Pointer) });
      if (p[0] !== 0n) clearBstrAt(Number(p[0]));
    } else if (vt === VT.I4 || vt === VT.INT) {
      const n = new Int32Array(1);
      checkHr(a.SafeArrayGetElement(psa as Pointer, index, n), "SafeArrayGetElement");
      out.push({ kind: "i4", value: n[0]! });
    } else {
      throw new FlowproofError({ code: "driver-error", message: `a COM server answered with a SAFEARRAY of VARTYPE ${vt}, which is not read` });
    }
  }
  return out;
}
