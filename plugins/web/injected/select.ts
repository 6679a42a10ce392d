// Page-side Select: a native <select> set in one call; an ARIA combobox, listbox or listbox button
// answered move by move with what the driver does next as a user (open it, the option, Escape), then verified.
import type { SelectAnswer, SelectRequest } from "./protocol.ts";
import { composedParent, containsComposed, deepHit, deepQueryAll, isLeaving, isVisible, lower, norm, scrollToSee, short } from "./dom.ts";
import { describe, describeCover, isButton, isCheckbox, isDisabled, isDropdown, isField, isLink, labelledControl, reaches, roleOf } from "./roles.ts";
import { isMoving } from "./probes.ts";
import { resolve } from "./resolver.ts";
import { holds, holdsAll, isOptionSelected, listboxOf, optionLabel, optionsNamed, optionsShown, popupOf, showsLabel, valueOf } from "./values.ts";

export const kindWord = (el: Element): string =>
  isCheckbox(el)
    ? "a checkbox"
    : isLink(el)
      ? "a link"
      : isButton(el)
        ? "a button"
        : isField(el)
          ? "a text field"
          : `a <${el.tagName.toLowerCase()}> with no dropdown role`;
export const notDropdown = (el: Element): SelectAnswer => {
  const name = norm(el.getAttribute("aria-label")) || norm((el as HTMLElement).innerText ?? el.textContent).slice(0, 40);
  const advice = isField(el)
    ? `to type a value write \`Type … into the "${name}" field\``
    : `if it opens a menu, write \`Click "${name}"\` and then \`Click "<option>"\``;
  return {
    ok: false,
    failed: "unsupported",
    retryable: false,
    detail: `${describe(el)} is ${kindWord(el)}, not a dropdown: Select chooses an option of a <select>, an ARIA combobox (role="combobox") or listbox (role="listbox"); ${advice}`,
  };
};
/**
 * Whether `hit` is part of the control's own box (inside its parent, in the composed tree) and
 * not a button of its own (a chip's remove button): a click there opens the control as a user's does.
 */
const ownChip = (el: Element, hit: Element | null): boolean => {
  const box = composedParent(el);
  if (!hit || !(box instanceof Element) || !containsComposed(box, hit)) return false;
  for (let n: Node | null = hit; n && n !== box; n = composedParent(n)) if (n instanceof Element && isButton(n)) return false;
  return true;
};

/**
 * The option last found ready to be clicked, and its box then: an option is clicked once it has
 * stood still from one look to the next, a frame apart (a popup positioned after it opens, by a
 * script, moves its options with no animation running).
 */
let optionSeen: { readonly el: Element; readonly rect: DOMRect } | null = null;

/** A trusted click on `el`, once it is visible, enabled and would receive it. */
export const clickOn = (el: Element, what: "open" | "option", tier: string): SelectAnswer => {
  if (!isVisible(el)) return { ok: false, failed: "visible", detail: `${describe(el)} is present but not visible` };
  if (isDisabled(el)) return { ok: false, failed: "enabled", detail: `${describe(el)} is disabled` };
  // A popup still growing in (MUI's Grow) moves its options: the click waits for it to stand still.
  if (isMoving(el))
    return {
      ok: false,
      failed: "stable",
      retryable: true,
      settling: true,
      detail: `${describe(el)} is still moving (a CSS animation or transition is running)`,
    };
  // An option below a long listbox's fold is scrolled into its listbox, as a user would.
  const rect = scrollToSee(el, what === "option" ? "nearest" : "center");
  if (what === "option") {
    const seen = optionSeen;
    optionSeen = { el, rect };
    const still =
      seen?.el === el &&
      Math.abs(seen.rect.left - rect.left) < 0.5 &&
      Math.abs(seen.rect.top - rect.top) < 0.5 &&
      Math.abs(seen.rect.width - rect.width) < 0.5 &&
      Math.abs(seen.rect.height - rect.height) < 0.5;
    if (!still) return { ok: false, failed: "stable", retryable: true, settling: true, detail: `${describe(el)} has not stood still for a frame yet` };
  }
  const y = rect.top + rect.height / 2;
  // A control partly covered by its own chips (a multi-select's chosen options) is clicked where it shows.
  const xs = (what === "open" ? [0.5, 0.9, 0.75, 0.25, 0.1] : [0.5]).map((f) => rect.left + rect.width * f);
  const x = xs.find((px) => reaches(el, deepHit(px, y))) ?? xs.find((px) => ownChip(el, deepHit(px, y))) ?? xs[0]!;
  const hit = deepHit(x, y);
  if (!reaches(el, hit) && !(what === "open" && ownChip(el, hit))) {
    return {
      ok: false,
      failed: "receives-pointer",
      detail: `${describe(el)} would not receive the click: ${hit ? describeCover(hit) : "nothing"} is on top at (${Math.round(x)}, ${Math.round(y)})`,
    };
  }
  if (what === "option") optionSeen = null;
  return { ok: true, click: { x, y, what }, tier };
};

/**
 * The options `wants` name (the text rule: exact, then prefix, then ignoring case), or the answer
 * naming what is missing or ambiguous; `offered`, the labels listed before typing filtered them.
 */
const pickAll = (
  control: Element,
  options: readonly Element[],
  wants: readonly string[],
  exact: boolean,
  offered?: readonly string[],
): Element[] | SelectAnswer => {
  const picked: Element[] = [];
  for (const want of wants) {
    const matches = optionsNamed(options, want, exact);
    const option = matches[0];
    if (!option) {
      const named = (labels: readonly string[]) => (labels.length > 0 ? labels.map((l) => JSON.stringify(short(l))).join(", ") : "none");
      const list = named(options.map(optionLabel).filter((l) => l !== ""));
      const recorded = exact ? " reading exactly as recorded" : "";
      const shown = offered && offered.length > 0 ? `${named(offered)}; typed into, it lists ${list}` : list;
      // `Select Red and Blue` is one option's name: several are each quoted.
      const parts = wants.length === 1 ? splitOptions(want, (p) => optionsNamed(options, p, exact).length === 1) : undefined;
      const quoted = parts?.map((p) => JSON.stringify(p));
      const several = quoted ? `; to choose several, quote each one: ${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}` : "";
      return {
        ok: false,
        failed: "unsupported",
        detail: `${describe(control)} has no option ${JSON.stringify(want)}${recorded} (options: ${shown})${several}`,
      };
    }
    if (matches.length > 1) {
      return {
        ok: false,
        failed: "ambiguous",
        retryable: false,
        detail: `${matches.length} options of ${describe(control)} answer to ${JSON.stringify(want)}: ${matches.map((o) => JSON.stringify(short(optionLabel(o)))).join(", ")}; write the whole option`,
      };
    }
    picked.push(option);
  }
  return picked;
};

const isEditable = (el: Element) => (el instanceof HTMLInputElement && !el.readOnly) || (el as HTMLElement).isContentEditable;

/**
 * Select on an ARIA combobox, listbox or listbox button, move by move as a user does: click it
 * open (or, for an editable combobox whose popup does not list the option, type its text to
 * filter), click the option by its name; a multi-select's options are clicked until exactly the
 * wanted ones are selected and its popup is closed with Escape. Then the control must show them.
 */
export const selectAria = (control: Element, req: SelectRequest, tier: string): SelectAnswer => {
  const wants = (current?.el === control ? current.wants : undefined) ?? req.values;
  const multi = wants.length > 1;
  // Held: the control shows the options this Select clicked (their own labels: `Fin` chose `Finance`), else those asked for.
  const held = () => {
    const labels = (current?.el === control ? current.chosen : undefined) ?? wants;
    return multi ? holdsAll(control, labels) : holds(control, labels[0]!);
  };
  // The labels of the options this Select clicked (kept across its moves), else what it was asked for.
  // A control that already held the option reads as the option's own label.
  const settled = (): SelectAnswer => {
    const clicked = current?.el === control ? current.chosen : undefined;
    const shown = norm(valueOf(control));
    return { ok: true, value: valueOf(control), tier, chosen: clicked ?? (!multi && shown !== "" ? [shown] : wants) };
  };
  const listbox = listboxOf(control, req.after === "open" || req.after === "option" || req.after === "type");
  // Open: its listbox shows, is not on its way out, and the control does not say it is collapsed
  // (a popup a previous step closed may still be animating out: it is not this step's to use).
  const collapsed = control !== listbox && control.getAttribute("aria-expanded") === "false";
  const popup = listbox && popupOf(listbox, control);
  const open = listbox !== null && popup !== null && isVisible(popup) && !collapsed && (!isLeaving(popup) || req.after === "open" || req.after === "type");
  if (!open) {
    if (req.after === "option" || req.after === "close") {
      if (held()) return settled();
      // Not retried: a second attempt would choose again in an app that just chose wrong.
      if (!multi) {
        return {
          ok: false,
          failed: "unsupported",
          retryable: false,
          settling: true,
          detail: `the option ${JSON.stringify(wants[0])} was clicked but ${describe(control)} does not show it (it shows ${JSON.stringify(short(valueOf(control)))})`,
        };
      }
      if (req.after === "close") {
        return {
          ok: false,
          failed: "unsupported",
          retryable: false,
          settling: true,
          detail: `${describe(control)} does not show ${wants.map((w) => JSON.stringify(w)).join(", ")} once closed (it shows ${JSON.stringify(short(valueOf(control)))})`,
        };
      }
    }
    if (req.after === undefined && held()) return settled();
    if (control === listbox) return { ok: false, failed: "visible", detail: `${describe(control)} is present but not visible` };
    // An editable combobox that lists nothing until typed into (a search box): type the option, once.
    if (req.after === "open" && !multi && isEditable(control)) return { ok: true, type: wants[0]!, tier };
    if (req.after === "open" || req.after === "type") {
      return {
        ok: false,
        failed: "unsupported",
        detail: `clicking ${describe(control)} opened no listbox (no role="listbox" it controls became visible); if it opens as you type, write \`Type ${wants[0]} into the "…" field\` and then \`Click "${wants[0]}"\``,
      };
    }
    return clickOn(control, "open", tier);
  }
  const options = optionsShown(listbox, control);
  const isSelected = (o: Element) => isOptionSelected(o, listbox);
  // A multi-select that takes a chosen option out of its list (react-select) no longer lists one
  // this Select clicked: chosen, when the control now shows it.
  const clicked = (current?.el === control ? current.clicked : undefined) ?? {};
  const gone = multi
    ? wants.filter((w) => clicked[w] !== undefined && optionsNamed(options, w, req.exact === true).length === 0 && showsLabel(control, clicked[w]))
    : [];
  const listed = wants.filter((w) => !gone.includes(w));
  const offered = offeredBy.get(control);
  const picked = pickAll(control, options, listed, req.exact === true, req.after === "type" ? offered : undefined);
  if (!Array.isArray(picked)) {
    // `Select Red and Blue` on a multi-select with no option "Red and Blue": its options Red and Blue.
    const parts =
      multi || listbox.getAttribute("aria-multiselectable") !== "true"
        ? undefined
        : splitOptions(wants[0]!, (p) => optionsNamed(options, p, req.exact === true).length === 1);
    if (parts && current?.el === control) {
      current = { ...current, wants: parts };
      return selectAria(control, req, tier);
    }
    // An editable combobox may list only what matches its text: type the option to filter, once.
    if (!multi && isEditable(control) && req.after !== "type" && !picked.ok && picked.failed === "unsupported") {
      const labels = options.map(optionLabel).filter((l) => l !== "");
      // Kept across attempts: a later one opens the list still filtered by this typing.
      if (labels.length > 0) offeredBy.set(control, labels);
      return { ok: true, type: wants[0]!, tier };
    }
    return picked;
  }
  if (current?.el === control) current = { ...current, chosen: [...gone.map((w) => clicked[w]!), ...picked.map(optionLabel)] };
  if (!multi) {
    if (req.after === "option" && held()) return settled();
    return clickOn(picked[0]!, "option", tier);
  }
  // A multi-select: first a wanted option not yet selected, then a selected one not wanted.
  const next = picked.find((o) => !isSelected(o)) ?? options.find((o) => isSelected(o) && !picked.includes(o));
  if (next) {
    const want = listed[picked.indexOf(next)];
    if (want !== undefined && current?.el === control) current = { ...current, clicked: { ...clicked, [want]: optionLabel(next) } };
    return clickOn(next, "option", tier);
  }
  if (control !== listbox) return { ok: true, key: "Escape", tier };
  return held()
    ? settled()
    : {
        ok: false,
        failed: "unsupported",
        retryable: false,
        settling: true,
        detail: `${describe(control)} does not hold ${wants.map((w) => JSON.stringify(w)).join(", ")} (it shows ${JSON.stringify(short(valueOf(control)))})`,
      };
};

/** The control the last Select move worked on: the later moves of one Select keep to it while its popup sets the page aside. */
let current: {
  readonly el: Element;
  readonly tier: string;
  readonly chosen?: readonly string[];
  readonly wants?: readonly string[];
  /** The label of the option clicked for each wanted text, in a multi-select. */
  readonly clicked?: Readonly<Record<string, string>>;
} | null = null;

/** What an editable combobox listed before an option was typed to filter it. */
const offeredBy = new WeakMap<Element, readonly string[]>();

/** `Red and Blue` / `Red, Green and Blue` as its parts, when there are several and each names one option (`names`); else undefined. */
const splitOptions = (text: string, names: (part: string) => boolean): string[] | undefined => {
  const parts = text
    .split(/\s*,\s*(?:and\s+)?|\s+and\s+/i)
    .map(norm)
    .filter((p) => p !== "");
  return parts.length > 1 && parts.every(names) ? parts : undefined;
};

export const select = (req: SelectRequest): SelectAnswer => {
  if (req.after !== undefined && current?.el.isConnected) return selectAria(current.el, req, current.tier);
  current = null;
  const found = resolve(req.ladder);
  if (!found.el) {
    // The label names a control that is not a dropdown: no wait makes it one.
    const plain = resolve(req.ladder.map((r) => ({ tier: r.tier, payload: Object.fromEntries(Object.entries(r.payload).filter(([k]) => k !== "role")) })));
    if (plain.el && isVisible(plain.el) && !isDropdown(plain.el) && (isButton(plain.el) || isField(plain.el) || isCheckbox(plain.el) || isLink(plain.el)))
      return notDropdown(plain.el);
    return { ok: false, failed: "not-found", detail: found.detail };
  }
  const el = found.el;
  if (!(el instanceof HTMLSelectElement)) {
    const control = dropdownOf(el);
    if (!control) return notDropdown(el);
    if (control instanceof HTMLSelectElement) return selectNative(control, req, found.tier);
    current = { el: control, tier: found.tier };
    return selectAria(control, req, found.tier);
  }
  return selectNative(el, req, found.tier);
};

/** The dropdown an element stands for: itself, the control its <label> names, or the one dropdown inside a component host's shadow tree. */
const dropdownOf = (el: Element): Element | null => {
  if (isDropdown(el)) return el;
  const control = labelledControl(el);
  if (control && isDropdown(control)) return control;
  // A component's combobox stands for the listbox it pops up (still showing while it closes).
  const inner = deepQueryAll(el, "select, [role=combobox], [role=listbox], [aria-haspopup=listbox]").filter(isVisible);
  const controls = inner.filter((c) => roleOf(c) !== "listbox");
  return controls.length === 1 ? controls[0]! : inner.length === 1 ? inner[0]! : null;
};

/** A native <select>: the options set in one call, input and change dispatched, the selection read back. */
const selectNative = (el: HTMLSelectElement, req: SelectRequest, tier: string): SelectAnswer => {
  if (!isVisible(el)) return { ok: false, failed: "visible", detail: `${describe(el)} is present but not visible` };
  if (isDisabled(el)) return { ok: false, failed: "enabled", detail: `${describe(el)} is disabled` };
  const options = Array.from(el.options);
  const picked: HTMLOptionElement[] = [];
  const named = (w: string) => options.some((o) => norm(o.text) === norm(w) || (req.exact !== true && (o.value === w || norm(o.text).startsWith(norm(w)))));
  // `Select Red and Blue` on a <select multiple> with no option "Red and Blue": its options Red and Blue.
  const split = el.multiple && req.values.length === 1 && !named(req.values[0]!) ? splitOptions(req.values[0]!, named) : undefined;
  for (const want of split ?? req.values) {
    const w = norm(want);
    const match =
      req.exact === true
        ? options.find((o) => norm(o.text) === w)
        : (options.find((o) => o.value === want) ??
          options.find((o) => norm(o.text) === w) ??
          options.find((o) => norm(o.text).startsWith(w)) ??
          options.find((o) => lower(norm(o.text)) === lower(w)));
    if (!match) {
      return {
        ok: false,
        failed: "unsupported",
        detail: `${describe(el)} has no option ${JSON.stringify(want)} (options: ${options.map((o) => JSON.stringify(norm(o.text))).join(", ")})`,
      };
    }
    picked.push(match);
  }
  if (picked.length > 1 && !el.multiple) return { ok: false, failed: "unsupported", detail: `${describe(el)} is not a multi-select` };
  for (const o of options) o.selected = picked.includes(o);
  el.dispatchEvent(new Event("input", { bubbles: true }));
  el.dispatchEvent(new Event("change", { bubbles: true }));
  const now = Array.from(el.selectedOptions);
  if (now.length !== picked.length || !picked.every((p) => now.includes(p))) {
    return { ok: false, failed: "unsupported", detail: `${describe(el)} did not keep the selection (it reads ${JSON.stringify(valueOf(el))})` };
  }
  return { ok: true, value: valueOf(el), tier, chosen: picked.map((o) => norm(o.text)) };
};
