// Page-side values: what a control holds (a field's value, a select's options, an ARIA listbox's
// selection, a combobox's shown text) and the ARIA listbox a combobox controls.
import { composedElements, deepQueryAll, deepText, isLeaving, isVisible, lower, norm, renderedChildren, textRect } from "./dom.ts";
import { isButton, ownBoxes, roleOf } from "./roles.ts";

export const valueOf = (el: Element): string => {
  // An editable combobox that shows its choice beside its emptied input (react-select) holds that.
  if (el instanceof HTMLInputElement && el.value === "" && roleOf(el) === "combobox") return comboboxValue(el);
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return el.value;
  if (el instanceof HTMLSelectElement)
    return Array.from(el.selectedOptions)
      .map((o) => norm(o.text))
      .join(", ");
  if (roleOf(el) === "listbox") return selectedLabels(el).join(", ");
  if (roleOf(el) === "combobox" || el.getAttribute("aria-haspopup") === "listbox") return comboboxValue(el);
  return norm(deepText(el as HTMLElement));
};

// ---- ARIA comboboxes and listboxes (design systems, web components) ----

/** The rendered text of a control, its popup listbox left out (walks the composed tree). */
export const shownText = (el: Element, skip: (el: Element) => boolean = () => false): string => {
  // Text nodes side by side in one element read as one run ("Red" ", " "Blue" is "Red, Blue");
  // text in separate elements (a chip per choice) is kept apart by a space.
  const parts: string[] = [];
  let lastParent: Node | null = null;
  const walk = (n: Node) => {
    if (n.nodeType === Node.TEXT_NODE) {
      if (!textRect(n)) return;
      if (lastParent === n.parentNode && parts.length > 0) parts[parts.length - 1] += n.nodeValue ?? "";
      else parts.push(n.nodeValue ?? "");
      lastParent = n.parentNode;
      return;
    }
    if (!(n instanceof Element) || n instanceof HTMLStyleElement || n instanceof HTMLScriptElement) return;
    if ((n !== el && roleOf(n) === "listbox") || skip(n)) return;
    if (n instanceof HTMLInputElement || n instanceof HTMLTextAreaElement) {
      parts.push(n.value);
      return;
    }
    const kids = n.shadowRoot ? Array.from(n.shadowRoot.childNodes) : n instanceof HTMLSlotElement ? renderedChildren(n) : Array.from(n.childNodes);
    for (const k of kids) walk(k);
  };
  walk(el);
  return norm(parts.join(" "));
};
/**
 * What a combobox shows: its text or its input's value; a multi-select that shows its choices as
 * chips beside an empty input (Shoelace) reads as the labels of its selected options.
 */
const comboboxValue = (el: Element): string => {
  const shown = shownText(el) || besideInput(el);
  if (shown !== "") return shown;
  const listbox = listboxOf(el, false);
  return listbox ? selectedLabels(listbox).join(", ") : "";
};
/**
 * What an editable combobox whose input is empty shows beside it: many empty their input once an
 * option is chosen and render the choice (or a multi-select's chips) next to it, in the control's
 * own box (react-select, Ant Design's Select). Read from the nearest of its three closest
 * ancestors that shows text, holds no other field and no label; the control's description (a
 * placeholder named by aria-describedby) and buttons (a chip's remove button, a clear button) are
 * not its value. Empty for any other control.
 */
const besideInput = (el: Element): string => {
  if (!(el instanceof HTMLInputElement) || el.value !== "") return "";
  const described = new Set(byIds(el, "aria-describedby"));
  for (const box of ownBoxes(el)) {
    const shown = shownText(box, (n) => described.has(n) || isButton(n));
    if (shown !== "") return shown;
  }
  return "";
};
export const selectedLabels = (listbox: Element): string[] =>
  optionsOf(listbox)
    .filter((o) => o.getAttribute("aria-selected") === "true")
    .map(optionLabel);
/** The options of a listbox, in its shadow tree and slotted into it too (a web component's options are its light children). */
export const optionsOf = (listbox: Element): Element[] => {
  const found = deepQueryAll(listbox, "[role=option]");
  for (const el of composedElements(listbox)) if (roleOf(el) === "option" && !found.includes(el)) found.push(el);
  return found;
};
/**
 * The box a listbox shows in: itself, or for a listbox drawn only for screen readers (no size, its
 * overflow hidden: Ant Design's) beside the options a user sees, its nearest ancestor with a box,
 * the popup; null when that popup is the page itself or holds the control (no popup is showing).
 */
export const popupOf = (listbox: Element, control?: Element): Element | null => {
  if (!isMirror(listbox)) return listbox;
  for (let a = listbox.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
    if (control && a.contains(control)) return null;
    const r = a.getBoundingClientRect();
    if (r.width > 1 && r.height > 1) return a;
  }
  return null;
};
const isMirror = (listbox: Element): boolean => {
  const r = listbox.getBoundingClientRect();
  return r.width <= 1 && r.height <= 1 && getComputedStyle(listbox).overflow !== "visible" && optionsOf(listbox).length > 0;
};
/**
 * The options a user sees and clicks: a listbox's own, or for a screen-reader listbox (see
 * `popupOf`) the outermost visible elements of its popup that read as one of its options (by
 * title or text), and their like (the classes every such one carries) in the same list: a long
 * virtual list mirrors only the options near the active one.
 */
export const optionsShown = (listbox: Element, control?: Element): Element[] => {
  const own = optionsOf(listbox);
  const popup = popupOf(listbox, control);
  if (popup === listbox || !popup) return own;
  const labels = new Set(own.map(optionLabel));
  const rows = (test: (el: Element) => boolean) => {
    const found: Element[] = [];
    for (const el of Array.from(popup.querySelectorAll("*"))) {
      if (listbox.contains(el) || found.some((f) => f.contains(el)) || !test(el) || !isVisible(el)) continue;
      found.push(el);
    }
    return found;
  };
  const named = rows((el) => labels.has(rowLabel(el)));
  if (named.length === 0) return [];
  const common = Array.from(named[0]!.classList).filter((c) => named.every((n) => n.classList.contains(c)));
  if (common.length === 0) return named;
  return rows((el) => el.tagName === named[0]!.tagName && common.every((c) => el.classList.contains(c)) && rowLabel(el) !== "");
};
const rowLabel = (el: Element): string => norm(el.getAttribute("title")) || norm((el as HTMLElement).innerText ?? el.textContent);
/** Whether an option is selected: its aria-selected, or for an option a user sees beside a screen-reader listbox, that of its mirror. */
export const isOptionSelected = (o: Element, listbox: Element): boolean => {
  if (o.getAttribute("aria-selected") !== null || listbox.contains(o)) return o.getAttribute("aria-selected") === "true";
  const label = rowLabel(o);
  return optionsOf(listbox).some((m) => optionLabel(m) === label && m.getAttribute("aria-selected") === "true");
};
export const optionLabel = (o: Element): string => norm(o.getAttribute("aria-label")) || norm(deepText(o as HTMLElement)) || norm(o.textContent);
export const byIds = (el: Element, attr: string): Element[] => {
  const root = el.getRootNode() as Document | ShadowRoot;
  return (el.getAttribute(attr) ?? "")
    .split(/\s+/)
    .filter((id) => id !== "")
    .map((id) => (root.getElementById ? root.getElementById(id) : null) ?? document.getElementById(id))
    .filter((x): x is HTMLElement => x !== null);
};
/** The listbox a combobox controls: aria-controls / aria-owns, inside it (its shadow root too), or beside it. */
export const listboxOf = (control: Element, anyVisible: boolean): Element | null => {
  if (roleOf(control) === "listbox") return control;
  for (const t of [...byIds(control, "aria-controls"), ...byIds(control, "aria-owns")]) {
    const lb = roleOf(t) === "listbox" ? t : deepQueryAll(t, "[role=listbox]")[0];
    if (lb) return lb;
  }
  const inside = deepQueryAll(control, "[role=listbox]");
  if (inside.length > 0) return inside.find(isVisible) ?? inside[0]!;
  const parent = control.parentNode as ParentNode | null;
  const near = parent ? Array.from(parent.querySelectorAll("[role=listbox]")) : [];
  if (near.length === 1) return near[0]!;
  // A popup portalled elsewhere (e.g. to <body>) with no reference: the one listbox now showing.
  if (anyVisible) {
    const shown = deepQueryAll(document, "[role=listbox]").filter((lb) => {
      const popup = popupOf(lb, control);
      return popup !== null && isVisible(popup);
    });
    const live = shown.filter((lb) => !isLeaving(lb));
    if (live.length === 1) return live[0]!;
    if (shown.length === 1) return shown[0]!;
  }
  return null;
};
/** The options `want` names at the best tier of the text rule (exact, its value, prefix, then ignoring case): more than one is ambiguous. */
export const optionsNamed = (options: readonly Element[], want: string, exact = false): Element[] => {
  const w = norm(want);
  const labels = options.map(optionLabel);
  if (exact) return options.filter((_, i) => labels[i] === w);
  const tiers: Array<(l: string, o: Element) => boolean> = [
    (l) => l === w,
    (_, o) => o.getAttribute("data-value") === want || o.getAttribute("value") === want,
    (l) => l.startsWith(w),
    (l) => lower(l) === lower(w),
    (l) => lower(l).startsWith(lower(w)),
  ];
  for (const test of tiers) {
    const found = options.filter((o, i) => test(labels[i]!, o));
    if (found.length > 0) return found;
  }
  return [];
};
export const pickOption = (options: readonly Element[], want: string): Element | undefined => {
  const w = norm(want);
  const labels = options.map(optionLabel);
  const at = (test: (l: string, o: Element) => boolean) => options.find((o, i) => test(labels[i]!, o));
  return (
    at((l) => l === w) ??
    at((_, o) => o.getAttribute("data-value") === want || o.getAttribute("value") === want) ??
    at((l) => l.startsWith(w)) ??
    at((l) => lower(l) === lower(w)) ??
    at((l) => lower(l).startsWith(lower(w)))
  );
};
/** Whether the control holds every one of `labels` (a multi-select): its selected options, else the text it shows. */
export const holdsAll = (control: Element, labels: readonly string[]): boolean => {
  const listbox = listboxOf(control, false);
  const selected = listbox ? selectedLabels(listbox).map((l) => lower(l)) : [];
  if (selected.length > 0) return labels.length === selected.length && labels.every((l) => selected.includes(lower(norm(l))));
  const shown = lower(comboboxValue(control));
  return labels.every((l) => shown.includes(lower(norm(l))));
};
/** Whether the control shows `label` among what it holds (a multi-select's chip). */
export const showsLabel = (control: Element, label: string): boolean => lower(comboboxValue(control)).includes(lower(norm(label)));
/** Whether `label` is what the control holds now: a selected option, or the combobox's value or text. */
export const holds = (control: Element, label: string): boolean => {
  const want = lower(norm(label));
  if (roleOf(control) === "listbox") return optionsOf(control).some((o) => o.getAttribute("aria-selected") === "true" && lower(optionLabel(o)) === want);
  const value = (control as Element & { value?: unknown }).value;
  if (typeof value === "string" && lower(norm(value)) === want) return true;
  return lower(shownText(control) || besideInput(control)) === want;
};
