// UI Automation client through the COM layer: CUIAutomation, elements from a window handle or
// the root, FindAll/FindFirst with true/property/and conditions, GetCurrentPropertyValueEx, and
// the Invoke, Value, Toggle, SelectionItem and ExpandCollapse patterns.
//
// Vtable slots follow the interfaces' declaration order in uiautomationclient.h (checked against
// Wine's header from libwine-dev for IUIAutomation, IUIAutomationElement, IUIAutomationElementArray
// and the Value pattern; the other patterns, absent from Wine 8's header, follow the Windows SDK).
// Under Wine 8 CoCreateInstance(CUIAutomation) answers REGDB_E_CLASSNOTREG; Wine 10 creates it but
// cannot search the tree or fetch patterns (see ../shared/research/wine.md).
import { FFIType, type Pointer } from "bun:ffi";
import {
  allocBstr,
  clearVariant,
  coCreateInstance,
  freeBstr,
  CLSCTX_INPROC_SERVER,
  emptyVariant,
  guidArg,
  hrcall,
  hrcallOut,
  makeVariant,
  OutPtr,
  release,
  takeBstr,
  takeVariant,
  type Variant,
} from "./com.ts";
import { FlowproofError } from "../../../src/plugins/api.ts";

export const CLSID_CUIAutomation = "ff48dba4-60ef-4201-aa87-54103eef594e";
export const IID_IUIAutomation = "30cbe57d-d9d0-452a-ab13-7ac5ac4825ee";

/** IUIAutomation slots. */
export const UIA = {
  GetRootElement: 5,
  ElementFromHandle: 6,
  ElementFromPoint: 7,
  GetFocusedElement: 8,
  CreateTrueCondition: 21,
  CreatePropertyCondition: 23,
  CreateAndCondition: 25,
} as const;

/** IUIAutomationElement slots. */
export const ELEMENT = {
  SetFocus: 3,
  FindFirst: 5,
  FindAll: 6,
  GetCurrentPropertyValue: 10,
  GetCurrentPropertyValueEx: 11,
  GetCurrentPatternAs: 14,
  get_CurrentControlType: 21,
  get_CurrentName: 23,
  get_CurrentBoundingRectangle: 43,
} as const;

export const TreeScope = { Element: 0x1, Children: 0x2, Descendants: 0x4, Subtree: 0x7 } as const;

export const PROPERTY = {
  BoundingRectangle: 30001,
  ProcessId: 30002,
  ControlType: 30003,
  LocalizedControlType: 30004,
  Name: 30005,
  HasKeyboardFocus: 30008,
  IsKeyboardFocusable: 30009,
  IsEnabled: 30010,
  AutomationId: 30011,
  ClassName: 30012,
  IsPassword: 30019,
  NativeWindowHandle: 30020,
  IsOffscreen: 30022,
  FrameworkId: 30024,
  ValueValue: 30045,
  ExpandCollapseState: 30070,
  SelectionItemIsSelected: 30079,
  ToggleState: 30086,
} as const;

export const CONTROL_TYPE = {
  Button: 50000,
  CheckBox: 50002,
  ComboBox: 50003,
  Edit: 50004,
  Hyperlink: 50005,
  ListItem: 50007,
  List: 50008,
  MenuItem: 50011,
  RadioButton: 50013,
  Text: 50020,
  Group: 50026,
  Document: 50030,
  Window: 50032,
  Pane: 50033,
} as const;

/** Control patterns: id, interface id and the slots used. */
export const PATTERN = {
  Invoke: { id: 10000, iid: "fb377fbe-8ea6-46d5-9c73-6499642d3059", slots: { Invoke: 3 } },
  Value: { id: 10002, iid: "a94cd8b1-0844-4cd6-9d2d-640537ab39e9", slots: { SetValue: 3, get_CurrentValue: 4, get_CurrentIsReadOnly: 5 } },
  ExpandCollapse: { id: 10005, iid: "619be086-1f4e-4ee4-bafa-210128738730", slots: { Expand: 3, Collapse: 4, get_CurrentExpandCollapseState: 5 } },
  SelectionItem: {
    id: 10010,
    iid: "a8efa66a-0fda-421a-9194-38021f3578ea",
    slots: { Select: 3, AddToSelection: 4, RemoveFromSelection: 5, get_CurrentIsSelected: 6 },
  },
  Toggle: { id: 10015, iid: "94cf8058-9b8d-4ab9-8bfd-4cd0a33c8c70", slots: { Toggle: 3, get_CurrentToggleState: 4 } },
} as const;

const P = FFIType.ptr;

/** CoCreateInstance(CUIAutomation): the IUIAutomation (release it). Throws ComError (REGDB_E_CLASSNOTREG under Wine 8). */
export function createAutomation(): Pointer {
  return coCreateInstance(CLSID_CUIAutomation, IID_IUIAutomation, CLSCTX_INPROC_SERVER);
}

export function rootElement(automation: Pointer): Pointer {
  return hrcallOut(automation, UIA.GetRootElement, "IUIAutomation::GetRootElement", [], []);
}

export function elementFromHandle(automation: Pointer, hwnd: number): Pointer {
  return hrcallOut(automation, UIA.ElementFromHandle, `IUIAutomation::ElementFromHandle(${hwnd})`, [P], [hwnd as Pointer]);
}

export function focusedElement(automation: Pointer): Pointer {
  return hrcallOut(automation, UIA.GetFocusedElement, "IUIAutomation::GetFocusedElement", [], []);
}

export function trueCondition(automation: Pointer): Pointer {
  return hrcallOut(automation, UIA.CreateTrueCondition, "IUIAutomation::CreateTrueCondition", [], []);
}

/** A condition "property equals value" (the VARIANT goes by pointer, as x64 passes it). */
export function propertyCondition(automation: Pointer, propertyId: number, value: Variant): Pointer {
  const v = makeVariant(value);
  try {
    return hrcallOut(automation, UIA.CreatePropertyCondition, `IUIAutomation::CreatePropertyCondition(${propertyId})`, [FFIType.i32, P], [propertyId, v]);
  } finally {
    clearVariant(v);
  }
}

export function andCondition(automation: Pointer, a: Pointer, b: Pointer): Pointer {
  return hrcallOut(automation, UIA.CreateAndCondition, "IUIAutomation::CreateAndCondition", [P, P], [a, b]);
}

/** FindAll: the matching elements (each to release); the array itself is released here. */
export function findAll(element: Pointer, scope: number, condition: Pointer): Pointer[] {
  const array = hrcallOut(element, ELEMENT.FindAll, "IUIAutomationElement::FindAll", [FFIType.i32, P], [scope, condition]);
  if (array === 0) return [];
  try {
    const length = new Int32Array(1);
    hrcall(array, 3, "IUIAutomationElementArray::get_Length", [P], [length]);
    const out: Pointer[] = [];
    for (let i = 0; i < (length[0] ?? 0); i++) out.push(hrcallOut(array, 4, "IUIAutomationElementArray::GetElement", [FFIType.i32], [i]));
    return out;
  } finally {
    release(array);
  }
}

/** FindFirst: the first matching element, or null. */
export function findFirst(element: Pointer, scope: number, condition: Pointer): Pointer | null {
  const found = hrcallOut(element, ELEMENT.FindFirst, "IUIAutomationElement::FindFirst", [FFIType.i32, P], [scope, condition]);
  return found === 0 ? null : found;
}

/** GetCurrentPropertyValueEx (slot 11; the plain GetCurrentPropertyValue is a stub in Wine 10). */
export function propertyValue(element: Pointer, propertyId: number, ignoreDefault = false): Variant {
  const out = emptyVariant();
  hrcall(
    element,
    ELEMENT.GetCurrentPropertyValueEx,
    `IUIAutomationElement::GetCurrentPropertyValueEx(${propertyId})`,
    [FFIType.i32, FFIType.i32, P],
    [propertyId, ignoreDefault ? 1 : 0, out],
  );
  return takeVariant(out);
}

const str = (v: Variant): string => (v.kind === "bstr" ? v.value : "");
const int = (v: Variant): number => (v.kind === "i4" || v.kind === "int" ? v.value : 0);
const bool = (v: Variant): boolean => v.kind === "bool" && v.value;

export function elementName(element: Pointer): string {
  const out = new OutPtr();
  hrcall(element, ELEMENT.get_CurrentName, "IUIAutomationElement::get_CurrentName", [P], [out.slot]);
  return takeBstr(out.value);
}

export function elementRect(element: Pointer): { x: number; y: number; width: number; height: number } {
  const r = new Int32Array(4);
  hrcall(element, ELEMENT.get_CurrentBoundingRectangle, "IUIAutomationElement::get_CurrentBoundingRectangle", [P], [r]);
  return { x: r[0] ?? 0, y: r[1] ?? 0, width: (r[2] ?? 0) - (r[0] ?? 0), height: (r[3] ?? 0) - (r[1] ?? 0) };
}

/** What UIA says about one element; an IsPassword element's value is never read. */
export interface ElementFacts {
  readonly name: string;
  readonly automationId: string;
  readonly className: string;
  readonly controlType: number;
  readonly enabled: boolean;
  readonly password: boolean;
  readonly focused: boolean;
  readonly offscreen: boolean;
  readonly hwnd: number;
  readonly rect: { x: number; y: number; width: number; height: number };
}

export function elementFacts(element: Pointer): ElementFacts {
  const p = (id: number): Variant => propertyValue(element, id);
  return {
    name: str(p(PROPERTY.Name)),
    automationId: str(p(PROPERTY.AutomationId)),
    className: str(p(PROPERTY.ClassName)),
    controlType: int(p(PROPERTY.ControlType)),
    enabled: bool(p(PROPERTY.IsEnabled)),
    password: bool(p(PROPERTY.IsPassword)),
    focused: bool(p(PROPERTY.HasKeyboardFocus)),
    offscreen: bool(p(PROPERTY.IsOffscreen)),
    hwnd: int(p(PROPERTY.NativeWindowHandle)),
    rect: elementRect(element),
  };
}

/** GetCurrentPatternAs(pattern): the pattern interface (release it), or null when the element lacks it. */
export function pattern(element: Pointer, which: keyof typeof PATTERN): Pointer | null {
  const { id, iid } = PATTERN[which];
  const p = hrcallOut(element, ELEMENT.GetCurrentPatternAs, `IUIAutomationElement::GetCurrentPatternAs(${which})`, [FFIType.i32, P], [id, guidArg(iid)]);
  return p === 0 ? null : p;
}

function withPattern<T>(element: Pointer, which: keyof typeof PATTERN, fn: (p: Pointer) => T): T {
  const p = pattern(element, which);
  if (p === null) throw new FlowproofError({ code: "driver-error", message: `the element has no ${which} pattern` });
  try {
    return fn(p);
  } finally {
    release(p);
  }
}

export const invoke = (element: Pointer): void => withPattern(element, "Invoke", (p) => void hrcall(p, PATTERN.Invoke.slots.Invoke, "Invoke", [], []));
export const toggle = (element: Pointer): void => withPattern(element, "Toggle", (p) => void hrcall(p, PATTERN.Toggle.slots.Toggle, "Toggle", [], []));
export const select = (element: Pointer): void =>
  withPattern(element, "SelectionItem", (p) => void hrcall(p, PATTERN.SelectionItem.slots.Select, "Select", [], []));
export const expand = (element: Pointer): void =>
  withPattern(element, "ExpandCollapse", (p) => void hrcall(p, PATTERN.ExpandCollapse.slots.Expand, "Expand", [], []));
export const collapse = (element: Pointer): void =>
  withPattern(element, "ExpandCollapse", (p) => void hrcall(p, PATTERN.ExpandCollapse.slots.Collapse, "Collapse", [], []));

/** ToggleState: 0 off, 1 on, 2 indeterminate. */
export function toggleState(element: Pointer): number {
  return withPattern(element, "Toggle", (p) => {
    const out = new Int32Array(1);
    hrcall(p, PATTERN.Toggle.slots.get_CurrentToggleState, "get_CurrentToggleState", [P], [out]);
    return out[0] ?? 0;
  });
}

export function isSelected(element: Pointer): boolean {
  return withPattern(element, "SelectionItem", (p) => {
    const out = new Int32Array(1);
    hrcall(p, PATTERN.SelectionItem.slots.get_CurrentIsSelected, "get_CurrentIsSelected", [P], [out]);
    return (out[0] ?? 0) !== 0;
  });
}

/** ValuePattern SetValue: the whole text at once. */
export function setValue(element: Pointer, text: string): void {
  withPattern(element, "Value", (p) => {
    const bstr = allocBstr(text);
    try {
      hrcall(p, PATTERN.Value.slots.SetValue, "SetValue", [P], [bstr]);
    } finally {
      freeBstr(bstr);
    }
  });
}

export function value(element: Pointer): string {
  return withPattern(element, "Value", (p) => {
    const out = new OutPtr();
    hrcall(p, PATTERN.Value.slots.get_CurrentValue, "get_CurrentValue", [P], [out.slot]);
    return takeBstr(out.value);
  });
}
