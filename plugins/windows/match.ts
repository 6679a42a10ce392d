// Which controls a selector rung names: AutomationId, control type and name, or a label (a static
// label standing for the control after it when the action needs a field). Pure.
import type { Selector } from "../../src/plugins/api.ts";
import { isEditable, plainLabel, type WinElement } from "./backend.ts";

/** What an action needs of its target; a label names the control after it for `field`-like wants. */
export type Want = "any" | "editable" | "selectable" | "checkable" | "clickable";

/** A control's text: an edit's value, else its name. */
export function textOf(el: WinElement): string {
  if (el.value !== undefined && (isEditable(el) || el.controlType === "list")) return el.value;
  return plainLabel(el.name) || el.value || "";
}

export function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const ROLE_TYPES: Readonly<Record<string, readonly string[]>> = {
  field: ["edit", "document", "combobox"],
  button: ["button"],
  checkbox: ["checkbox", "radio"],
  dropdown: ["combobox", "list"],
  link: ["hyperlink"],
};
const WANT_TYPES: Readonly<Record<Want, readonly string[] | undefined>> = {
  any: undefined,
  editable: ["edit", "document", "combobox"],
  selectable: ["combobox", "list"],
  checkable: ["checkbox", "radio"],
  clickable: undefined,
};

/** The controls one rung names, in tree order; a label stands for the control it labels when the action needs one. */
export function matchRung(elements: readonly WinElement[], rung: Selector, want: Want): WinElement[] {
  const p = rung.payload;
  const id = typeof p["automation_id"] === "string" ? p["automation_id"] : typeof p["id"] === "string" ? p["id"] : undefined;
  if (rung.tier === "native_id" && id !== undefined) return elements.filter((e) => e.automationId === id);
  if (rung.tier === "structural" && typeof p["control_type"] === "string") {
    const name = typeof p["name"] === "string" ? p["name"] : undefined;
    return elements.filter((e) => e.controlType === p["control_type"] && (name === undefined || plainLabel(e.name) === name));
  }
  if (rung.tier !== "text_anchor" || typeof p["text"] !== "string") return [];
  const text = p["text"];
  const role = typeof p["role"] === "string" ? p["role"] : undefined;
  const types = (role ? ROLE_TYPES[role] : undefined) ?? WANT_TYPES[want];
  const exact = elements.filter((e) => plainLabel(e.name) === text);
  const named = exact.length > 0 ? exact : elements.filter((e) => plainLabel(e.name).toLowerCase() === text.toLowerCase());
  const out: WinElement[] = [];
  for (const e of named) {
    const el = types && !types.includes(e.controlType) && e.controlType === "text" ? labelled(elements, e, types) : e;
    if (el && (!types || types.includes(el.controlType)) && !out.includes(el)) out.push(el);
  }
  return out;
}

/** The control a static label names: the next control of the wanted types, before any other label. */
function labelled(elements: readonly WinElement[], label: WinElement, types: readonly string[]): WinElement | undefined {
  const start = elements.indexOf(label);
  for (const e of elements.slice(start + 1)) {
    if (types.includes(e.controlType)) return e;
    if (e.controlType === "text" && plainLabel(e.name) !== "") return undefined;
  }
  return undefined;
}
