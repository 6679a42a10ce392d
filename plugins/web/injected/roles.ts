// Page-side element kinds: what counts as a field, button, checkbox, dropdown or link, the
// element of a requested role near a match, and how an element is described in a message.
import { deepQueryAll, describeBox, norm, short } from "./dom.ts";

export const BUTTON_INPUTS = ["submit", "button", "reset", "image"];
export const NON_TEXT_INPUTS = [...BUTTON_INPUTS, "checkbox", "radio", "file", "hidden", "range", "color"];
export const roleOf = (el: Element) => el.getAttribute("role") ?? "";
export const isField = (el: Element) => {
  if (el instanceof HTMLInputElement) return !NON_TEXT_INPUTS.includes(el.type);
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  if ((el as HTMLElement).isContentEditable) return true;
  return ["textbox", "searchbox", "combobox", "spinbutton"].includes(roleOf(el));
};
export const isButton = (el: Element) =>
  el instanceof HTMLButtonElement ||
  (el instanceof HTMLInputElement && BUTTON_INPUTS.includes(el.type)) ||
  ["button", "menuitem", "tab", "link"].includes(roleOf(el)) ||
  el instanceof HTMLAnchorElement;
export const isCheckbox = (el: Element) =>
  (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) ||
  ["checkbox", "switch", "radio", "menuitemcheckbox"].includes(roleOf(el));
/** A native <select>, an ARIA combobox or listbox, or a control that pops up a listbox (`aria-haspopup="listbox"`: a Headless UI Listbox's button). */
export const isDropdown = (el: Element) =>
  el instanceof HTMLSelectElement || ["combobox", "listbox"].includes(roleOf(el)) || el.getAttribute("aria-haspopup") === "listbox";
export const isLink = (el: Element) => (el instanceof HTMLAnchorElement && el.hasAttribute("href")) || roleOf(el) === "link";
export const ROLE_TESTS: Record<string, (el: Element) => boolean> = {
  field: (el) => isField(el) || isDropdown(el),
  button: isButton,
  checkbox: isCheckbox,
  dropdown: isDropdown,
  link: isLink,
};

export const labelledControl = (el: Element): Element | null => {
  if (el instanceof HTMLLabelElement) return el.control;
  return null;
};

/** Maps a matched element to the element of the requested role, or null. */
export const toRole = (el: Element, role: string | undefined): Element | null => {
  if (!role) return el;
  const test = ROLE_TESTS[role];
  if (!test) return el;
  if (test(el)) return el;
  const control = labelledControl(el);
  if (control && test(control)) return control;
  // The one control inside: editable content's own elements (a code editor's lines) are part of it.
  const tested = deepQueryAll(el, "*").filter(test);
  const inner = tested.filter((f) => !tested.some((o) => o !== f && o.contains(f)));
  if (inner.length === 1) return inner[0]!;
  const up = el.closest("button, a, [role=button], [role=link], [role=tab], [role=menuitem]");
  if (up && test(up)) return up;
  return null;
};

export const describe = (el: Element) => {
  const id = el.id ? `#${el.id}` : "";
  const text = norm((el as HTMLElement).innerText ?? el.textContent ?? "");
  return `<${el.tagName.toLowerCase()}${id}>${text ? ` "${short(text)}"` : ""}`;
};

/** Longest text, in characters, that naming a covering element quotes; a longer one is left out. */
const COVER_TEXT_MAX = 40;

/**
 * What is on top of a pointer target: named like a box (`<input.toggle-all>`, `<div#veil>`: tag
 * plus id, else its first class) and by its text when that is short; an overlay's whole text says nothing.
 */
export const describeCover = (el: Element) => {
  const text = norm((el as HTMLElement).innerText ?? el.textContent ?? "");
  return `${describeBox(el)}${text !== "" && text.length <= COVER_TEXT_MAX ? ` "${short(text)}"` : ""}`;
};

export const isDisabled = (el: Element) => {
  if ((el as HTMLButtonElement).disabled === true) return true;
  if (el.closest("[aria-disabled=true]")) return true;
  const fieldset = el.closest("fieldset");
  return !!fieldset && fieldset.disabled && !fieldset.querySelector("legend")?.contains(el);
};

export const kindOf = (el: Element) =>
  el instanceof HTMLInputElement ? `input:${el.type}` : el instanceof HTMLSelectElement ? "select" : el.tagName.toLowerCase();

/** Whether a tab, option or item is the selected one (`<option>`'s own state, else aria-selected); undefined when it cannot be. */
export const selectedOf = (el: Element): boolean | undefined => {
  if (el instanceof HTMLOptionElement) return el.selected;
  const aria = el.getAttribute("aria-selected");
  if (aria === "true") return true;
  if (aria === "false") return false;
  return undefined;
};

export const checkedOf = (el: Element): boolean | undefined => {
  if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) return el.checked;
  const aria = el.getAttribute("aria-checked");
  if (aria === "true") return true;
  if (aria === "false") return false;
  return undefined;
};
