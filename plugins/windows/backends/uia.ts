// The UI Automation element backend: a window's element tree (UIA ControlType, Name, AutomationId,
// IsPassword, patterns for values, toggles and selections; tab, tree and list items with their
// SelectionItem state, menu items, header items, status bars). Primary on Windows; chosen per window
// only when UIA can search it (Wine's UIA cannot, so there the Win32 backend is used). The UIA
// calls come through a small interface, so the mapping is tested with a fake.
import type { TopWindow } from "../backend.ts";
import type { ElementBackend } from "../../desktop/backend.ts";
import type { ControlType, DesktopElement } from "../../desktop/element.ts";
import type { ElementFacts } from "../ffi/uia.ts";
import { FlowproofError } from "../../../src/plugins/api.ts";

/** What UIA says about one element (an IsPassword element's value is never read): the bindings' own facts. */
export type UiaFacts = ElementFacts;

/** The UIA calls the backend makes, on opaque element handles. */
export interface UiaApi<H> {
  /** The window's descendants in tree order (depth first); empty when UIA cannot search it. */
  descendants(hwnd: number): H[];
  /** The element's direct children (a combo box's or list's items). */
  children(element: H): H[];
  facts(element: H): UiaFacts;
  /** ValuePattern's value, undefined without the pattern. */
  value(element: H): string | undefined;
  setValue(element: H, text: string): void;
  /** TogglePattern's state (0 off, 1 on, 2 indeterminate), undefined without the pattern. */
  toggleState(element: H): number | undefined;
  /** SelectionItemPattern's IsSelected, undefined without the pattern. */
  isSelected(element: H): boolean | undefined;
  setFocus(element: H): void;
  invoke(element: H): void;
  toggle(element: H): void;
  select(element: H): void;
  expand(element: H): void;
  collapse(element: H): void;
}

const CONTROL_TYPES: ReadonlyMap<number, ControlType> = new Map([
  [50000, "button"],
  [50002, "checkbox"],
  [50003, "combobox"],
  [50004, "edit"],
  [50005, "hyperlink"],
  [50007, "listitem"],
  [50008, "list"],
  [50011, "menuitem"],
  [50013, "radio"],
  [50020, "text"],
  [50026, "group"],
  [50030, "document"],
  [50033, "pane"],
  [50017, "statusbar"],
  [50018, "tablist"],
  [50019, "tab"],
  [50021, "toolbar"],
  [50023, "tree"],
  [50024, "treeitem"],
  [50028, "table"],
  [50029, "listitem"],
  [50034, "header"],
  [50035, "headeritem"],
  [50036, "table"],
]);
/** Items whose SelectionItem pattern says whether they are the selected one. */
const SELECTABLE_ITEMS: ReadonlySet<ControlType> = new Set<ControlType>(["tab", "treeitem", "listitem"]);
const LIST_ITEM = 50007;

/** A UIA ControlType id as the driver's control type. */
export const controlTypeOfUia = (id: number): ControlType => CONTROL_TYPES.get(id) ?? "other";

/** The UIA backend over `api`. Element refs are valid until the next read of the same window. */
export function uiaBackend<H>(api: UiaApi<H>): ElementBackend {
  const handles = new Map<string, H>();
  const handle = (el: DesktopElement): H => {
    const h = handles.get(el.ref);
    if (h === undefined) throw new FlowproofError({ code: "driver-error", message: `the control ${el.ref} is no longer known; read the window again` });
    return h;
  };
  const itemsOf = (h: H) => api.children(h).filter((c) => api.facts(c).controlType === 50007);
  return {
    name: "uia",
    canSearch: async (w: TopWindow) => {
      try {
        return api.descendants(Number(w.handle)).length > 0;
      } catch {
        return false;
      }
    },
    elements: async (w: TopWindow) => {
      const out: DesktopElement[] = [];
      // The item names of the last combo or list box: its items follow it (depth first) and are read through it.
      let owned: string[] = [];
      for (const [i, h] of api.descendants(Number(w.handle)).entries()) {
        const f = api.facts(h);
        const controlType = controlTypeOfUia(f.controlType);
        if (f.controlType === LIST_ITEM && owned[0] === f.name) {
          owned.shift();
          continue;
        }
        const ref = `${w.handle}/${i}`;
        handles.set(ref, h);
        const base: DesktopElement = {
          ref,
          name: f.name,
          controlType,
          automationId: f.automationId,
          className: f.className,
          rect: f.rect,
          enabled: f.enabled,
          visible: !f.offscreen && f.rect.width > 0 && f.rect.height > 0,
          focused: f.focused,
          password: f.password,
        };
        if (controlType === "checkbox") {
          out.push({ ...base, checked: api.toggleState(h) === 1 });
        } else if (controlType === "radio") {
          out.push({ ...base, checked: api.isSelected(h) === true });
        } else if (controlType === "edit" || controlType === "document") {
          const value = f.password ? undefined : api.value(h);
          out.push(value === undefined ? base : { ...base, value });
        } else if (controlType === "combobox" || controlType === "list") {
          const items = itemsOf(h);
          const names = items.map((c) => api.facts(c).name);
          const selected = items.filter((c) => api.isSelected(c) === true).map((c) => api.facts(c).name);
          const value = controlType === "combobox" ? (api.value(h) ?? selected[0] ?? "") : undefined;
          owned = [...names];
          out.push({ ...base, items: names, selected, ...(value !== undefined ? { value } : {}) });
        } else if (SELECTABLE_ITEMS.has(controlType)) {
          const selected = api.isSelected(h);
          out.push(selected === undefined ? base : { ...base, itemSelected: selected });
        } else if (controlType === "statusbar") {
          // A status bar's parts are its text children: its value, as the Win32 backend reads it.
          out.push({
            ...base,
            name: "",
            value: api
              .children(h)
              .map((c) => api.facts(c).name.trim())
              .filter((t) => t !== "")
              .join(" | "),
          });
        } else out.push(base);
      }
      return out;
    },
    focus: async (el) => api.setFocus(handle(el)),
    // UIA cannot select text: the field is emptied, so the typing that follows replaces it.
    selectAll: async (el) => api.setValue(handle(el), ""),
    invoke: async (el) => {
      const h = handle(el);
      if (el.controlType === "checkbox") api.toggle(h);
      else if (el.controlType === "radio") api.select(h);
      else api.invoke(h);
    },
    select: async (el, values) => {
      const h = handle(el);
      if (el.controlType === "combobox") api.expand(h);
      try {
        const items = itemsOf(h);
        for (const v of values) {
          const item = items.find((c) => api.facts(c).name === v);
          if (item === undefined) return `no item ${JSON.stringify(v)}`;
          api.select(item);
        }
        return undefined;
      } finally {
        if (el.controlType === "combobox") api.collapse(h);
      }
    },
  };
}

/** The UIA calls through the bun:ffi bindings (Windows only; nothing is opened until the first call). */
export async function ffiUiaApi(): Promise<UiaApi<number> | undefined> {
  const uia = await import("../ffi/uia.ts");
  const com = await import("../ffi/com.ts");
  let automation: number;
  try {
    com.coInitialize("sta");
    automation = Number(uia.createAutomation());
  } catch {
    // No UI Automation client on this machine (Wine 8): the Win32 backend serves every window.
    return undefined;
  }
  const auto = automation as unknown as Parameters<typeof uia.trueCondition>[0];
  const all = uia.trueCondition(auto);
  const ptr = (h: number) => h as unknown as Parameters<typeof uia.elementFacts>[0];
  const optional = <T>(fn: () => T): T | undefined => {
    try {
      return fn();
    } catch {
      return undefined;
    }
  };
  return {
    descendants: (hwnd) => uia.findAll(uia.elementFromHandle(auto, hwnd), uia.TreeScope.Descendants, all).map(Number),
    children: (h) => uia.findAll(ptr(h), uia.TreeScope.Children, all).map(Number),
    facts: (h) => uia.elementFacts(ptr(h)),
    value: (h) => optional(() => uia.value(ptr(h))),
    setValue: (h, text) => uia.setValue(ptr(h), text),
    toggleState: (h) => optional(() => uia.toggleState(ptr(h))),
    isSelected: (h) => optional(() => uia.isSelected(ptr(h))),
    setFocus: (h) => {
      com.hrcall(ptr(h), uia.ELEMENT.SetFocus, "IUIAutomationElement::SetFocus", [], []);
    },
    invoke: (h) => uia.invoke(ptr(h)),
    toggle: (h) => uia.toggle(ptr(h)),
    select: (h) => uia.select(ptr(h)),
    expand: (h) => optional(() => uia.expand(ptr(h))),
    collapse: (h) => optional(() => uia.collapse(ptr(h))),
  };
}
