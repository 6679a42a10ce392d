// Page-side Select: a native <select> set in one call; an ARIA combobox or listbox answered move
// by move with the trusted click the driver makes next (open it, then the option), then verified.
import type { SelectAnswer, SelectRequest } from "./protocol.ts";
import { deepHit, isVisible, lower, norm, receives, scrollToSee, short } from "./dom.ts";
import { describe, describeCover, isButton, isCheckbox, isDisabled, isDropdown, isField, isLink, labelledControl, roleOf } from "./roles.ts";
import { resolve } from "./resolver.ts";
import { holds, listboxOf, optionLabel, optionsOf, pickOption, valueOf } from "./values.ts";

export const kindWord = (el: Element): string =>
  isCheckbox(el) ? "a checkbox" : isLink(el) ? "a link" : isButton(el) ? "a button" : isField(el) ? "a text field" : `a <${el.tagName.toLowerCase()}> with no dropdown role`;
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
/** A trusted click on `el`, once it is visible, enabled and would receive it. */
export const clickOn = (el: Element, what: "open" | "option", tier: string): SelectAnswer => {
  if (!isVisible(el)) return { ok: false, failed: "visible", detail: `${describe(el)} is present but not visible` };
  if (isDisabled(el)) return { ok: false, failed: "enabled", detail: `${describe(el)} is disabled` };
  // An option below a long listbox's fold is scrolled into its listbox, as a user would.
  const rect = scrollToSee(el, what === "option" ? "nearest" : "center");
  const x = rect.left + rect.width / 2;
  const y = rect.top + rect.height / 2;
  const hit = deepHit(x, y);
  if (!receives(el, hit)) {
    return { ok: false, failed: "receives-pointer", detail: `${describe(el)} would not receive the click: ${hit ? describeCover(hit) : "nothing"} is on top at (${Math.round(x)}, ${Math.round(y)})` };
  }
  return { ok: true, click: { x, y, what }, tier };
};

/** Select on an ARIA combobox or listbox: open it, click the option by its label, verify it holds. */
export const selectAria = (control: Element, req: SelectRequest, tier: string): SelectAnswer => {
  if (req.values.length !== 1) {
    return { ok: false, failed: "unsupported", retryable: false, detail: `${describe(control)} is an ARIA ${roleOf(control)}; choose one option per step (\`Select ${JSON.stringify(req.values[0] ?? "…")} from …\`)` };
  }
  const want = req.values[0]!;
  if (req.after === "option") {
    if (holds(control, want)) return { ok: true, value: valueOf(control), tier };
    return { ok: false, failed: "unsupported", detail: `the option ${JSON.stringify(want)} was clicked but ${describe(control)} does not hold it (it reads ${JSON.stringify(short(valueOf(control)))})` };
  }
  if (req.after === undefined && holds(control, want)) return { ok: true, value: valueOf(control), tier };
  const listbox = listboxOf(control, req.after === "open");
  if (listbox && isVisible(listbox)) {
    const options = optionsOf(listbox);
    const option = pickOption(options, want);
    if (!option) {
      const list = options.map(optionLabel).filter((l) => l !== "");
      return { ok: false, failed: "unsupported", detail: `${describe(control)} has no option ${JSON.stringify(want)} (options: ${list.length > 0 ? list.map((l) => JSON.stringify(short(l))).join(", ") : "none"})` };
    }
    return clickOn(option, "option", tier);
  }
  if (control === listbox) return { ok: false, failed: "visible", detail: `${describe(control)} is present but not visible` };
  if (req.after === "open") {
    return {
      ok: false,
      failed: "unsupported",
      detail: `clicking ${describe(control)} opened no listbox (no role="listbox" it controls became visible); if it opens as you type, write \`Type ${want} into the "…" field\` and then \`Click "${want}"\``,
    };
  }
  return clickOn(control, "open", tier);
};

export const select = (req: SelectRequest): SelectAnswer => {
  const found = resolve(req.ladder);
  if (!found.el) {
    // The label names a control that is not a dropdown: no wait makes it one.
    const plain = resolve(req.ladder.map((r) => ({ tier: r.tier, payload: Object.fromEntries(Object.entries(r.payload).filter(([k]) => k !== "role")) })));
    if (plain.el && isVisible(plain.el) && !isDropdown(plain.el) && (isButton(plain.el) || isField(plain.el) || isCheckbox(plain.el) || isLink(plain.el))) return notDropdown(plain.el);
    return { ok: false, failed: "not-found", detail: found.detail };
  }
  const el = found.el;
  if (!(el instanceof HTMLSelectElement)) {
    const control = isDropdown(el) ? el : (labelledControl(el) ?? null);
    if (!control || !isDropdown(control)) return notDropdown(el);
    return selectAria(control, req, found.tier);
  }
  if (!isVisible(el)) return { ok: false, failed: "visible", detail: `${describe(el)} is present but not visible` };
  if (isDisabled(el)) return { ok: false, failed: "enabled", detail: `${describe(el)} is disabled` };
  const options = Array.from(el.options);
  const picked: HTMLOptionElement[] = [];
  for (const want of req.values) {
    const w = norm(want);
    const match =
      options.find((o) => o.value === want) ??
      options.find((o) => norm(o.text) === w) ??
      options.find((o) => norm(o.text).startsWith(w)) ??
      options.find((o) => lower(norm(o.text)) === lower(w));
    if (!match) {
      return { ok: false, failed: "unsupported", detail: `${describe(el)} has no option ${JSON.stringify(want)} (options: ${options.map((o) => JSON.stringify(norm(o.text))).join(", ")})` };
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
  return { ok: true, value: valueOf(el), tier: found.tier };
};
