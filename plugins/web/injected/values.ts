// Page-side values: what a control holds (a field's value, a select's options, an ARIA listbox's
// selection, a combobox's shown text) and the ARIA listbox a combobox controls.
import { deepQueryAll, deepText, isVisible, lower, norm, renderedChildren, textRect } from "./dom.ts";
import { roleOf } from "./roles.ts";

export const valueOf = (el: Element): string => {
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return el.value;
  if (el instanceof HTMLSelectElement) return Array.from(el.selectedOptions).map((o) => norm(o.text)).join(", ");
  if (roleOf(el) === "listbox") return optionsOf(el).filter((o) => o.getAttribute("aria-selected") === "true").map(optionLabel).join(", ");
  if (roleOf(el) === "combobox") return shownText(el);
  return norm(deepText(el as HTMLElement));
};

// ---- ARIA comboboxes and listboxes (design systems, web components) ----

/** The rendered text of a control, its popup listbox left out (walks the composed tree). */
export const shownText = (el: Element): string => {
  const parts: string[] = [];
  const walk = (n: Node) => {
    if (n.nodeType === Node.TEXT_NODE) {
      if (textRect(n)) parts.push(n.nodeValue ?? "");
      return;
    }
    if (!(n instanceof Element) || n instanceof HTMLStyleElement || n instanceof HTMLScriptElement) return;
    if (n !== el && roleOf(n) === "listbox") return;
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
export const optionsOf = (listbox: Element): Element[] => deepQueryAll(listbox, "[role=option]");
export const optionLabel = (o: Element): string => norm(o.getAttribute("aria-label")) || norm(deepText(o as HTMLElement)) || norm(o.textContent);
export const byIds = (el: Element, attr: string): Element[] => {
  const root = el.getRootNode() as Document | ShadowRoot;
  return (el.getAttribute(attr) ?? "").split(/\s+/).filter((id) => id !== "").map((id) => (root.getElementById ? root.getElementById(id) : null) ?? document.getElementById(id)).filter((x): x is HTMLElement => x !== null);
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
    const shown = deepQueryAll(document, "[role=listbox]").filter(isVisible);
    if (shown.length === 1) return shown[0]!;
  }
  return null;
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
/** Whether `label` is what the control holds now: a selected option, or the combobox's value or text. */
export const holds = (control: Element, label: string): boolean => {
  const want = lower(norm(label));
  if (roleOf(control) === "listbox") return optionsOf(control).some((o) => o.getAttribute("aria-selected") === "true" && lower(optionLabel(o)) === want);
  const value = (control as Element & { value?: unknown }).value;
  if (typeof value === "string" && lower(norm(value)) === want) return true;
  return lower(shownText(control)) === want;
};
