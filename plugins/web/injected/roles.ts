// Page-side element kinds: what counts as a field, button, checkbox, dropdown or link, the
// element of a requested role near a match, and how an element is described in a message.
import { deepQueryAll, describeBox, isVisible, norm, receives, short } from "./dom.ts";

export const BUTTON_INPUTS = ["submit", "button", "reset", "image"];
export const NON_TEXT_INPUTS = [...BUTTON_INPUTS, "checkbox", "radio", "file", "hidden", "range", "color"];
export const roleOf = (el: Element) => el.getAttribute("role") ?? "";
export const isField = (el: Element) => {
  if (el instanceof HTMLInputElement) return !NON_TEXT_INPUTS.includes(el.type);
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  if ((el as HTMLElement).isContentEditable) return true;
  return ["textbox", "searchbox", "combobox", "spinbutton"].includes(roleOf(el));
};
/**
 * The boxes a field's control draws around it, innermost first: up to three of its closest
 * ancestors, as long as each holds no other field and no label. A select or combobox renders its
 * placeholder, its chosen value and its chips beside its input there (react-select, Ant Design,
 * Element Plus); what lies in them is the control's own.
 */
export const ownBoxes = (el: Element): Element[] => {
  const boxes: Element[] = [];
  for (let box = el.parentElement; box && box !== document.body && boxes.length < 3; box = box.parentElement) {
    if (
      box.querySelector("label") ||
      Array.from(box.querySelectorAll("input, select, textarea, [contenteditable], [role]")).some((f) => f !== el && isField(f))
    )
      break;
    boxes.push(box);
  }
  return boxes;
};
/**
 * A pointer hit on a field's own box (its placeholder or chosen value drawn over its input) reaches
 * the field, as a person clicking the control: anything in it but a button or a link.
 */
export const onOwnBox = (el: Element, hit: Element | null): boolean => {
  if (!hit || !isField(el)) return false;
  const box = ownBoxes(el).find((b) => b.contains(hit));
  if (!box) return false;
  for (let n: Element | null = hit; n && n !== box; n = n.parentElement) if (isButton(n)) return false;
  return true;
};
/** Whether a pointer hit reaches the target: `receives`, or a hit on a field's own box. */
export const reaches = (el: Element, hit: Element | null): boolean => receives(el, hit) || onOwnBox(el, hit);
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

/** Roles a `<label for>` names on an element HTML does not let a label name (PrimeVue's `<span role="combobox">`). */
const LABELLED_ROLES = ["combobox", "listbox", "textbox", "searchbox", "spinbutton", "checkbox", "switch", "radio", "slider"];

/**
 * The control a `<label>` names: its native control, else the element its `for` points at when
 * that is a widget by its role (a page that writes `<label for="city">` for its own combobox
 * means it, though HTML does not tie the two).
 */
export const labelledControl = (el: Element): Element | null => {
  if (!(el instanceof HTMLLabelElement)) return null;
  if (el.control) return el.control;
  const target = el.htmlFor ? (el.getRootNode() as Document | ShadowRoot).getElementById?.(el.htmlFor) : null;
  return target && LABELLED_ROLES.includes(roleOf(target)) ? target : null;
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

/**
 * Whether a checkbox, radio or switch is on: a native input's own state, else aria-checked. A
 * native input kept invisible under a drawn control that announces its state with aria-checked
 * reads as what it announces: what shows is drawn from that state, and the hidden input's may be
 * stale (Element Plus's switch cancels the input's own toggle and keeps its state in aria-checked).
 */
export const checkedOf = (el: Element): boolean | undefined => {
  const aria = el.getAttribute("aria-checked");
  if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio"))
    return (aria === "true" || aria === "false") && !isVisible(el) ? aria === "true" : el.checked;
  if (aria === "true") return true;
  if (aria === "false") return false;
  return undefined;
};
