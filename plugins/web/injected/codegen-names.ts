// Page side of `flowproof codegen`: names an element the way a person writes it (its label, its
// text, a role noun, a scope, an ordinal) and keeps only the names that the resolver replay uses
// takes back to exactly that element; `id:`/`css:` only when no readable name is unique.
// Synchronous on purpose: a click that navigates leaves no later moment to ask the page.
import type { SelectorPayload } from "../../../src/plugins/api.ts";
import type { CodegenAnchor, CodegenRole, CodegenTarget, NamedTarget, Naming } from "./codegen-protocol.ts";
import type { Rung } from "./protocol.ts";
import { closestDeep, containsComposed, cssEscapeId, isVisible, norm, placeholderOf } from "./dom.ts";
import { isButton, isCheckbox, isDropdown, isField, isLink } from "./roles.ts";
import { labelledByText, resolve, resolveRung } from "./resolver.ts";
import { candidates } from "./probes.ts";
import { ITEM } from "./scopes.ts";

/** What the step does with the element: the role a text label implies (as the compiler gives it) and which names fit. */
export type Purpose = "click" | "type" | "select" | "check" | "read" | "visible";

/** Longest label worth writing into a step; a longer text is a paragraph, not a name. */
const MAX_LABEL = 60;
/** Longest text an item scope is anchored on. */
const MAX_ANCHOR = 40;
/** How many checked names the page reports (the Node side takes the first that reads back the same). */
const MAX_NAMES = 3;

/** The role a step of this purpose gives a text label that names none (compile.ts `selectorsFor`). */
const IMPLIED: Readonly<Record<Purpose, CodegenRole | undefined>> = {
  click: undefined,
  type: "field",
  select: "dropdown",
  check: "checkbox",
  read: undefined,
  visible: undefined,
};

/** A label that can be quoted in a step: not empty, short, no quote, no selector or template syntax. */
const quotable = (s: string): boolean => s !== "" && s.length <= MAX_LABEL && !s.includes('"') && !/^(css|id):/.test(s) && !s.includes("${");

/** The grammar's role noun for an element, or undefined when it is none of them. */
export function roleNounOf(el: Element): CodegenRole | undefined {
  if (isCheckbox(el)) return "checkbox";
  if (isDropdown(el)) return "dropdown";
  if (isField(el)) return "field";
  if (isLink(el)) return "link";
  if (isButton(el)) return "button";
  return undefined;
}

/** Text the element shows (innerText: what a person reads), whitespace folded. */
export const shownTextOf = (el: Element): string => norm((el as HTMLElement).innerText ?? el.textContent);

/** The names a person would call the element by, best first. */
export function labelsOf(el: Element): string[] {
  const names: string[] = [];
  const push = (s: string | null | undefined) => {
    const n = norm(s);
    if (quotable(n) && !names.includes(n)) names.push(n);
  };
  const labels = (el as HTMLInputElement).labels;
  if (labels) for (const l of Array.from(labels)) push(shownTextOf(l));
  push(el.getAttribute("aria-label"));
  push(labelledByText(el));
  if (el instanceof HTMLInputElement && ["submit", "button", "reset"].includes(el.type)) push(el.value || (el.type === "submit" ? "Submit" : ""));
  if (isField(el) || isDropdown(el)) push(placeholderOf(el));
  else push(shownTextOf(el));
  push(el.getAttribute("title"));
  push(el.querySelector("img[alt]")?.getAttribute("alt"));
  return names;
}

/** The ladder a target compiles to (mirrors compile.ts `selectorsFor` and scoped.ts `scopedSelector`). */
export function ladderOf(target: CodegenTarget, implied: CodegenRole | undefined): Rung[] {
  const inner = (a: CodegenAnchor) => (a.kind === "text" ? { inner_text: a.text } : a.kind === "css" ? { inner_css: a.selector } : { inner_id: a.id });
  const role = target.role !== undefined ? { role: target.role } : {};
  let payload: SelectorPayload;
  switch (target.kind) {
    case "element": {
      const r = target.role ?? (target.anchor.kind === "text" ? implied : undefined);
      const refine = { ...(target.nth !== undefined ? { nth: target.nth } : {}), ...(r !== undefined ? { role: r } : {}) };
      const a = target.anchor;
      if (a.kind === "text") return [{ tier: "text_anchor", payload: { text: a.text, ...refine } }];
      return [{ tier: "native_id", payload: a.kind === "css" ? { css: a.selector, ...refine } : { id: a.id, ...refine } }];
    }
    case "scoped":
      payload = {
        kind: "scoped",
        container: "item",
        container_anchor: target.anchors[0] ?? "",
        ...(target.anchors.length > 1 ? { anchor_also: target.anchors.slice(1) } : {}),
        ...inner(target.inner),
        ...role,
      };
      break;
    case "cell":
      payload = {
        kind: "cell",
        column_text: target.column,
        row_anchor: target.rowAnchors[0] ?? "",
        ...(target.rowAnchors.length > 1 ? { row_anchor_also: target.rowAnchors.slice(1) } : {}),
        ...role,
      };
      break;
  }
  return [{ tier: "structural", payload }];
}

/**
 * The target with its ladder when the resolver takes it to `el` (or, for a click, to something
 * inside it) and, for a plain label, to nothing else visible; undefined otherwise.
 */
export function checked(target: CodegenTarget, purpose: Purpose, el: Element): NamedTarget | undefined {
  const ladder = ladderOf(target, IMPLIED[purpose]);
  let found: ReturnType<typeof resolve>;
  try {
    found = resolve(ladder);
  } catch {
    return undefined; // an ambiguous or missing scope: this name does not single the element out
  }
  if (!found.el) return undefined;
  const same = found.el === el || (purpose === "click" && containsComposed(el, found.el));
  if (!same) return undefined;
  const p = ladder[0]!.payload;
  // A plain label that names several visible elements is refused by record as ambiguous.
  if ("text" in p && p.nth === undefined && candidates({ ladder }).length > 1) return undefined;
  return { target, ladder };
}

/** The role noun a step of this purpose writes after the label (`the "Email" field`), if any. */
function writtenRole(purpose: Purpose, el: Element): CodegenRole | undefined {
  const implied = IMPLIED[purpose];
  if (implied !== undefined) return implied;
  const noun = roleNounOf(el);
  return purpose === "click" && (noun === "button" || noun === "link") ? noun : undefined;
}

/** Texts inside the element's item (its row, list item, option) that could anchor a scope, in document order. */
function itemAnchors(item: Element, el: Element, label: string): string[] {
  const out: string[] = [];
  const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n && out.length < 5; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!parent || containsComposed(el, parent) || !isVisible(parent)) continue;
    const t = norm(n.nodeValue);
    if (t !== label && t.length >= 2 && t.length <= MAX_ANCHOR && quotable(t) && !out.includes(t)) out.push(t);
  }
  return out;
}

/** A unique CSS path to the element: its id, else tag:nth-of-type steps up to an ancestor with an id (or the body). */
function cssPathOf(el: Element): string {
  if (el.id) return `#${cssEscapeId(el.id)}`;
  const steps: string[] = [];
  for (let e: Element | null = el; e && e !== document.body && steps.length < 6; e = e.parentElement) {
    if (e.id) {
      steps.unshift(`#${cssEscapeId(e.id)}`);
      break;
    }
    const same = e.parentElement ? Array.from(e.parentElement.children).filter((c) => c.tagName === e!.tagName) : [e];
    const tag = e.tagName.toLowerCase();
    steps.unshift(same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(e) + 1})` : tag);
  }
  return steps.join(" > ");
}

/** A short description of the element for a `# TODO` line: `<button#save> "Save"`. */
export function whatOf(el: Element): string {
  const text = shownTextOf(el);
  return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}>${text ? ` "${text.length > 40 ? `${text.slice(0, 40)}…` : text}"` : ""}`;
}

/**
 * The element's checked names for a step of `purpose`, most readable first: its label (plain, then
 * with its role noun), the label in its item, the label with an ordinal, a table cell (read only),
 * then `id:` and `css:`. `read` leaves out names that are the element's own text (`the "Total: 3"
 * shows Total: 3` says nothing).
 */
export function nameElement(el: Element, purpose: Purpose): Naming {
  const found: NamedTarget[] = [];
  const tryTarget = (t: CodegenTarget): boolean => {
    if (found.length >= MAX_NAMES || found.some((f) => JSON.stringify(f.target) === JSON.stringify(t))) return found.length >= MAX_NAMES;
    const ok = checked(t, purpose, el);
    if (ok) found.push(ok);
    return found.length >= MAX_NAMES;
  };
  const own = shownTextOf(el);
  const labels = labelsOf(el).filter((l) => purpose !== "read" || l !== own);
  const role = writtenRole(purpose, el);
  const withRole = role !== undefined ? { role } : {};
  for (const text of labels) {
    if (purpose === "click" || purpose === "read" || purpose === "visible") {
      if (tryTarget({ kind: "element", anchor: { kind: "text", text } })) return { targets: found, what: whatOf(el) };
    }
    if (role !== undefined && tryTarget({ kind: "element", anchor: { kind: "text", text }, role })) return { targets: found, what: whatOf(el) };
  }
  const label = labels[0];
  const item = closestDeep(el, ITEM);
  if (label !== undefined && item) {
    for (const anchor of itemAnchors(item, el, label)) {
      if (tryTarget({ kind: "scoped", container: { kind: "item" }, anchors: [anchor], inner: { kind: "text", text: label }, ...withRole }))
        return { targets: found, what: whatOf(el) };
    }
  }
  if (label !== undefined && found.length === 0) {
    const r = role ?? IMPLIED[purpose];
    const rung: Rung = { tier: "text_anchor", payload: { text: label, ...(r !== undefined ? { role: r } : {}) } };
    const all = resolveRung(rung);
    const nth = all.findIndex((x) => x === el || (purpose === "click" && containsComposed(el, x))) + 1;
    if (nth > 0 && tryTarget({ kind: "element", anchor: { kind: "text", text: label }, nth, ...withRole })) return { targets: found, what: whatOf(el) };
  }
  if (purpose === "read") {
    const cell = el.closest("td, th");
    const row = cell?.parentElement;
    const table = cell?.closest("table");
    const header = table && cell ? norm(table.querySelector(`thead tr > :nth-child(${(cell as HTMLTableCellElement).cellIndex + 1})`)?.textContent) : "";
    if (row && quotable(header)) {
      for (const anchor of itemAnchors(row, cell, header))
        if (tryTarget({ kind: "cell", column: header, rowAnchors: [anchor] })) return { targets: found, what: whatOf(el) };
    }
  }
  const idLike = el.id || (isField(el) || isDropdown(el) ? (el.getAttribute("name") ?? "") : "");
  if (quotable(idLike)) tryTarget({ kind: "element", anchor: { kind: "id", id: idLike }, ...withRole });
  const css = cssPathOf(el);
  if (found.length === 0 && css !== "" && !css.includes('"')) tryTarget({ kind: "element", anchor: { kind: "css", selector: css }, ...withRole });
  return { targets: found, what: whatOf(el) };
}
