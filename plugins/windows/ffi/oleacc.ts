// MSAA (oleacc) through the COM layer: AccessibleObjectFromWindow → IAccessible, and its name,
// role, state, value, default action, location and children. This is the accessibility source
// that works for classic Win32 controls under Wine, where UI Automation cannot search.
import { dlopen, FFIType, type Pointer } from "bun:ffi";
import {
  checkHr,
  emptyVariant,
  HR,
  IID,
  guidArg,
  makeVariant,
  OutPtr,
  readVariant,
  release,
  takeBstr,
  takeVariant,
  vcall,
  VARIANT_SIZE,
  type Variant,
} from "./com.ts";

export const OBJID_WINDOW = 0x00000000;
export const OBJID_CLIENT = 0xfffffffc | 0;
export const CHILDID_SELF = 0;

/** MSAA roles (ROLE_SYSTEM_*) the drivers map to control types. */
export const ROLE = {
  TITLEBAR: 0x1,
  MENUBAR: 0x2,
  SCROLLBAR: 0x3,
  WINDOW: 0x9,
  CLIENT: 0xa,
  DIALOG: 0x12,
  GROUPING: 0x14,
  LIST: 0x21,
  LISTITEM: 0x22,
  LINK: 0x1e,
  STATICTEXT: 0x29,
  TEXT: 0x2a,
  PUSHBUTTON: 0x2b,
  CHECKBUTTON: 0x2c,
  RADIOBUTTON: 0x2d,
  COMBOBOX: 0x2e,
  DROPLIST: 0x2f,
  MENUITEM: 0xc,
  PAGETAB: 0x25,
  DOCUMENT: 0xf,
} as const;

/** MSAA state bits (STATE_SYSTEM_*). */
export const STATE = {
  UNAVAILABLE: 0x1,
  SELECTED: 0x2,
  FOCUSED: 0x4,
  PRESSED: 0x8,
  CHECKED: 0x10,
  MIXED: 0x20,
  READONLY: 0x40,
  DEFAULT: 0x100,
  INVISIBLE: 0x8000,
  OFFSCREEN: 0x10000,
  FOCUSABLE: 0x100000,
  SELECTABLE: 0x200000,
  PROTECTED: 0x20000000,
} as const;

const ROLE_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(ROLE).map(([k, v]) => [v, k.toLowerCase()]));

/** Pure: a role number's name ("pushbutton"), or `role-0x..` for one not listed. */
export function roleName(role: number): string {
  return ROLE_NAMES.get(role) ?? `role-0x${role.toString(16)}`;
}

/** Pure: the names of the set bits of an MSAA state ("checked", "focusable", …). */
export function stateNames(state: number): string[] {
  return Object.entries(STATE)
    .filter(([, bit]) => (state & bit) !== 0)
    .map(([name]) => name.toLowerCase());
}

function open() {
  const P = FFIType.ptr;
  return dlopen("oleacc.dll", {
    AccessibleObjectFromWindow: { args: [P, FFIType.u32, P, P], returns: FFIType.i32 },
    AccessibleChildren: { args: [P, FFIType.i32, FFIType.i32, P, P], returns: FFIType.i32 },
  }).symbols;
}

let lib: ReturnType<typeof open> | undefined;
const oleacc = (): ReturnType<typeof open> => (lib ??= open());

// IAccessible vtable: IUnknown (0–2), IDispatch (3–6), then the accessors in declaration order.
const V = {
  get_accParent: 7,
  get_accChildCount: 8,
  get_accChild: 9,
  get_accName: 10,
  get_accValue: 11,
  get_accDescription: 12,
  get_accRole: 13,
  get_accState: 14,
  get_accHelp: 15,
  get_accKeyboardShortcut: 17,
  get_accFocus: 18,
  get_accDefaultAction: 20,
  accSelect: 21,
  accLocation: 22,
  accDoDefaultAction: 25,
  put_accValue: 27,
} as const;

/** An IAccessible and the child id its calls address (CHILDID_SELF for the object itself). */
export interface Accessible {
  readonly ptr: Pointer;
  readonly child: number;
}

/** AccessibleObjectFromWindow(hwnd, OBJID_CLIENT by default): the window's IAccessible (release it). */
export function accessibleFromWindow(hwnd: number, objectId: number = OBJID_CLIENT): Accessible {
  const out = new OutPtr();
  checkHr(oleacc().AccessibleObjectFromWindow(hwnd as Pointer, objectId >>> 0, guidArg(IID.IAccessible), out.slot), `AccessibleObjectFromWindow(${hwnd})`);
  return { ptr: out.value, child: CHILDID_SELF };
}

/** The VARIANT(VT_I4) naming the child, as the accessors take it (by pointer: x64 passes a 24-byte struct by reference). */
const childArg = (a: Accessible): Uint8Array => makeVariant({ kind: "i4", value: a.child });

/** An accessor returning a BSTR; "" when the object has none (S_FALSE, DISP_E_MEMBERNOTFOUND, E_NOTIMPL). */
function bstrProp(a: Accessible, slot: number, what: string): string {
  const out = new OutPtr();
  const hr = vcall(a.ptr, slot, [FFIType.ptr, FFIType.ptr], [childArg(a), out.slot]) as number;
  if (hr === HR.S_FALSE || hr === HR.DISP_E_MEMBERNOTFOUND || hr === HR.E_NOTIMPL) return "";
  checkHr(hr, `IAccessible::${what}`);
  return takeBstr(out.value);
}

function variantProp(a: Accessible, slot: number, what: string): Variant {
  const out = emptyVariant();
  const hr = vcall(a.ptr, slot, [FFIType.ptr, FFIType.ptr], [childArg(a), out]) as number;
  if (hr === HR.S_FALSE || hr === HR.DISP_E_MEMBERNOTFOUND || hr === HR.E_NOTIMPL) return { kind: "empty" };
  checkHr(hr, `IAccessible::${what}`);
  return takeVariant(out);
}

export const accName = (a: Accessible): string => bstrProp(a, V.get_accName, "get_accName");
export const accValue = (a: Accessible): string => bstrProp(a, V.get_accValue, "get_accValue");
export const accDescription = (a: Accessible): string => bstrProp(a, V.get_accDescription, "get_accDescription");
export const accDefaultAction = (a: Accessible): string => bstrProp(a, V.get_accDefaultAction, "get_accDefaultAction");
export const accKeyboardShortcut = (a: Accessible): string => bstrProp(a, V.get_accKeyboardShortcut, "get_accKeyboardShortcut");

/** The role as a number (ROLE_*); 0 when the object reports a string role or none. */
export function accRole(a: Accessible): number {
  const v = variantProp(a, V.get_accRole, "get_accRole");
  return v.kind === "i4" || v.kind === "int" ? v.value : 0;
}

/** The state bits (STATE_*). */
export function accState(a: Accessible): number {
  const v = variantProp(a, V.get_accState, "get_accState");
  return v.kind === "i4" || v.kind === "int" ? v.value >>> 0 : 0;
}

export function accChildCount(a: Accessible): number {
  const out = new Int32Array(1);
  checkHr(vcall(a.ptr, V.get_accChildCount, [FFIType.ptr], [out]) as number, "IAccessible::get_accChildCount");
  return out[0] ?? 0;
}

/** accLocation: the object's screen rectangle. */
export function accLocation(a: Accessible): { x: number; y: number; width: number; height: number } {
  const [x, y, w, h] = [new Int32Array(1), new Int32Array(1), new Int32Array(1), new Int32Array(1)];
  const types = [FFIType.ptr, FFIType.ptr, FFIType.ptr, FFIType.ptr, FFIType.ptr];
  checkHr(vcall(a.ptr, V.accLocation, types, [x, y, w, h, childArg(a)]) as number, "IAccessible::accLocation");
  return { x: x[0] ?? 0, y: y[0] ?? 0, width: w[0] ?? 0, height: h[0] ?? 0 };
}

/** accDoDefaultAction (press a button, toggle a check box). */
export function accDoDefaultAction(a: Accessible): void {
  checkHr(vcall(a.ptr, V.accDoDefaultAction, [FFIType.ptr], [childArg(a)]) as number, "IAccessible::accDoDefaultAction");
}

/**
 * AccessibleChildren: each child either as its own IAccessible (child CHILDID_SELF, release it)
 * or as a simple element addressed through the parent (same ptr, child id ≥ 1; do not release).
 */
export function accChildren(a: Accessible): Accessible[] {
  const count = accChildCount(a);
  if (count <= 0) return [];
  const arr = new Uint8Array(count * VARIANT_SIZE);
  const obtained = new Int32Array(1);
  checkHr(oleacc().AccessibleChildren(a.ptr, 0, count, arr, obtained), "AccessibleChildren");
  const out: Accessible[] = [];
  for (let i = 0; i < (obtained[0] ?? 0); i++) {
    const v = readVariant(arr.subarray(i * VARIANT_SIZE, (i + 1) * VARIANT_SIZE));
    if (v.kind === "dispatch" || v.kind === "unknown") out.push({ ptr: v.value, child: CHILDID_SELF });
    else if (v.kind === "i4" || v.kind === "int") out.push({ ptr: a.ptr, child: v.value });
  }
  return out;
}

/** Releases an IAccessible obtained for the object itself (child elements share their parent's and are left alone). */
export function releaseAccessible(a: Accessible): void {
  if (a.child === CHILDID_SELF) release(a.ptr);
}

/** Everything MSAA says about one object, for inventories and probes. */
export interface AccessibleFacts {
  readonly name: string;
  readonly role: number;
  readonly roleName: string;
  readonly state: number;
  readonly states: readonly string[];
  readonly value: string;
  readonly defaultAction: string;
}

export function accessibleFacts(a: Accessible): AccessibleFacts {
  const role = accRole(a);
  const state = accState(a);
  // A protected (password) field's value is never read.
  const value = (state & STATE.PROTECTED) !== 0 ? "" : accValue(a);
  return { name: accName(a), role, roleName: roleName(role), state, states: stateNames(state), value, defaultAction: accDefaultAction(a) };
}
