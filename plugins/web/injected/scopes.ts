// Page-side resolution of scoped targets: table/ARIA-grid cells, and item, css: and id:
// containers found by their anchors. A miss or an ambiguity is a ScopeError, which the fence
// (frames.ts) turns into the answer of the call that met it.
import type { CellPayload, FramedPayload, ScopedPayload, SelectorPayload } from "../../../src/plugins/api.ts";
import type { Rung } from "./protocol.ts";
import { closestDeep, containsDeep, deepQueryAll, isVisible, lower, norm, PLACEHOLDERS, placeholderOf, shadowRootsIn } from "./dom.ts";
import { describe, ROLE_TESTS, toRole } from "./roles.ts";
import { byText, ownText, visibleFirst } from "./resolver.ts";

export const ITEM = "li, [role=listitem], [role=row], [role=option], [role=article], tr";
export const GRID = "table, [role=grid], [role=table], [role=treegrid]";
export const ROW = "tr, [role=row]";
export const CELL = "th, td, [role=cell], [role=gridcell], [role=columnheader], [role=rowheader]";
export const CONTROL =
  "input:not([type=hidden]), select, textarea, button, a[href], [role=button], [role=checkbox], [role=switch], [role=combobox], [role=textbox]";
export const ESCAPE = 'name the element with "css:…" instead, e.g. `the "css:.amount" in the "css:.card" containing "…"`';

/**
 * `retry` false: waiting cannot fix it (ambiguity, a cross-origin frame). It lives in the page
 * (no flowproof module there) and the fence turns it into the call's answer: a plain Error on purpose.
 */
export class ScopeError extends Error {
  readonly failed: "not-found" | "ambiguous" | "unsupported";
  constructor(failed: "not-found" | "ambiguous" | "unsupported", message: string) {
    super(message);
    this.failed = failed;
  }
}

export const q = (s: string) => JSON.stringify(s);

/** 0 exact, 1 prefix, 2 case-insensitive exact, 3 case-insensitive prefix, -1 none. */
export const tierOf = (name: string, want: string): number => {
  if (name === "") return -1;
  if (name === want) return 0;
  if (name.startsWith(want)) return 1;
  const nl = lower(name);
  const wl = lower(want);
  if (nl === wl) return 2;
  if (nl.startsWith(wl)) return 3;
  return -1;
};

export const NAMED = `[aria-label], ${PLACEHOLDERS}, [title], img[alt], input[type=submit], input[type=button], input[type=reset]`;
export const ownNames = (el: Element): string[] => {
  const names = [ownText(el)];
  for (const v of [el.getAttribute("aria-label"), placeholderOf(el), el.getAttribute("title"), el.getAttribute("alt")]) if (v) names.push(norm(v));
  if (el.tagName === "INPUT" && ["submit", "button", "reset"].includes((el as HTMLInputElement).type)) names.push(norm((el as HTMLInputElement).value));
  return names;
};

/**
 * Visible elements under `root` naming `text`, ranked: 0–3 by their own name (the anchor ladder),
 * 4–5 by their own name containing it, 6–9 by their whole text (innermost only), computed only
 * when no own name matched.
 */
export const anchorHits = (root: Document | Element, text: string): Array<{ el: Element; rank: number }> => {
  const want = norm(text);
  // A text owner whose name matches on any rung has the anchor's first characters in one of its
  // text nodes (unless split mid-word); naming attributes are queried separately below.
  const head = want.slice(0, 4).toLowerCase();
  const hits: Array<{ el: Element; rank: number }> = [];
  const seen = new Set<Element>();
  const consider = (el: Element) => {
    if (seen.has(el)) return;
    seen.add(el);
    let best = -1;
    for (const n of ownNames(el)) {
      // "containing": after the anchor ladder, the anchor anywhere in the name (4, then 5 case-insensitively).
      const t = tierOf(n, want) !== -1 ? tierOf(n, want) : n.includes(want) ? 4 : lower(n).includes(lower(want)) ? 5 : -1;
      if (t !== -1 && (best === -1 || t < best)) best = t;
    }
    if (best !== -1 && isVisible(el)) hits.push({ el, rank: best });
  };
  const doc = root.ownerDocument ?? (root as Document);
  // Open shadow roots are searched like the light DOM: a list of components keeps each item's text in its own root.
  const roots = shadowRootsIn(root);
  for (const tree of [root, ...roots]) {
    const walker = doc.createTreeWalker(tree, 4);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.tagName === "SCRIPT" || parent.tagName === "STYLE") continue;
      if ((node.nodeValue ?? "").toLowerCase().includes(head)) consider(parent);
    }
  }
  for (const el of deepQueryAll(root, NAMED, roots)) consider(el);
  if (hits.length > 0) return hits;
  const sub: Array<{ el: Element; rank: number }> = [];
  for (const el of deepQueryAll(root, "*", roots)) {
    if (el.tagName === "SCRIPT" || el.tagName === "STYLE") continue;
    const t = tierOf(norm(el.textContent), want);
    if (t === -1) continue;
    // Document order visits ancestors first: a matching descendant replaces them (innermost wins).
    for (let i = sub.length - 1; i >= 0; i--) if (containsDeep(sub[i]!.el, el)) sub.splice(i, 1);
    sub.push({ el, rank: 6 + t });
  }
  return sub.filter((s) => isVisible(s.el));
};

/**
 * The one container holding every anchor. Each anchor's hits map to their innermost container;
 * a container scores the worst rank among its anchors, and the best score must be unique.
 */
export const pickContainer = (
  root: Document | Element,
  anchors: readonly string[],
  containerOf: (hit: Element) => Element | null,
  what: string,
): { found: Element } | { missing: string; outside: boolean } => {
  let scores: Map<Element, number> | undefined;
  let outside = false;
  for (const anchor of anchors) {
    const mine = new Map<Element, number>();
    for (const hit of anchorHits(root, anchor)) {
      const c = containerOf(hit.el);
      if (!c) {
        outside = true;
        continue;
      }
      const prev = mine.get(c);
      if (prev === undefined || hit.rank < prev) mine.set(c, hit.rank);
    }
    if (scores === undefined) scores = mine;
    else {
      const next = new Map<Element, number>();
      for (const [c, r] of scores) {
        const other = mine.get(c);
        if (other !== undefined) next.set(c, Math.max(r, other));
      }
      scores = next;
    }
  }
  const all = anchors.map(q).join(" and ");
  if (!scores || scores.size === 0) return { missing: `no ${what} contains ${all}`, outside };
  const best = Math.min(...scores.values());
  const winners = [...scores].filter(([, r]) => r === best).map(([c]) => c);
  if (winners.length > 1) {
    throw new ScopeError(
      "ambiguous",
      `${all} is in ${winners.length} ${what}s (${winners.slice(0, 3).map(describe).join(", ")}${winners.length > 3 ? ", …" : ""}); an anchor must identify exactly one — use a more specific anchor, add \`and "…"\`, or ${ESCAPE}`,
    );
  }
  return { found: winners[0]! };
};

// ------------------------------------------------------------------ cells

export const cellsOf = (row: Element) => Array.from(row.querySelectorAll(CELL)).filter((c) => c.parentElement?.closest(ROW) === row);
export const spanOf = (c: Element) => (c.tagName === "TD" || c.tagName === "TH" ? Math.max(1, (c as HTMLTableCellElement).colSpan) : 1);
export const positionOf = (cell: Element, row: Element): number => {
  let pos = 0;
  for (const c of cellsOf(row)) {
    if (c === cell) return pos;
    pos += spanOf(c);
  }
  return -1;
};
export const cellAt = (row: Element, pos: number): Element | null => {
  let at = 0;
  for (const c of cellsOf(row)) {
    const span = spanOf(c);
    if (pos >= at && pos < at + span) return c;
    at += span;
  }
  return null;
};

/** A row of column headers: in a thead, or made of th / columnheader cells (an empty stub cell above the row labels is fine). */
const isHeadingRow = (row: Element): boolean =>
  row.parentElement?.tagName === "THEAD" ||
  cellsOf(row).every((c) => c.tagName === "TH" || c.getAttribute("role") === "columnheader" || norm(c.textContent) === "");

/** Column header cells: th in a header row (a stub td above the row labels is fine), or role=columnheader. */
export const headersOf = (grid: Element): Element[] =>
  Array.from(grid.querySelectorAll("th, [role=columnheader]")).filter((h) => {
    if (h.closest(GRID) !== grid) return false;
    if (h.getAttribute("role") === "columnheader") return true;
    if (h.getAttribute("role") === "rowheader" || h.getAttribute("scope") === "row") return false;
    const row = h.closest(ROW);
    return row !== null && isHeadingRow(row);
  });

/**
 * The tables that hold the rows of a table made only of its header: grids that draw their header
 * and their body as two tables (Element Plus, Ant Design with a fixed header) keep both in one
 * wrapper. The twins are the visible tables without column headers of their own in the nearest of
 * the header table's four closest ancestors that holds any.
 */
export const bodyTwins = (grid: Element): Element[] => {
  const rows = Array.from(grid.querySelectorAll(ROW)).filter((r) => r.closest(GRID) === grid);
  if (rows.length === 0 || !rows.every(isHeadingRow)) return [];
  let box = grid.parentElement;
  for (let level = 0; box && box !== document.body && level < 4; level++, box = box.parentElement) {
    const twins = Array.from(box.querySelectorAll(GRID)).filter((t) => t !== grid && !t.contains(grid) && isVisible(t) && headersOf(t).length === 0);
    if (twins.length > 0) return twins;
  }
  return [];
};

export const headerName = (h: Element) => [norm(h.textContent), norm(h.getAttribute("aria-label"))];

export const resolveCell = (p: CellPayload, doc: Document): Element[] => {
  const column = p.column_text;
  const anchors = [p.row_anchor, ...(p.row_anchor_also ?? [])];
  const grids = Array.from(doc.querySelectorAll(GRID)).filter(isVisible);
  const seenHeaders: string[] = [];
  const candidates: Array<{ cellOf: (row: Element) => Element | null; grid: Element; headerRow: Element | null }> = [];
  for (const grid of grids) {
    const headers = headersOf(grid).filter(isVisible);
    let best = -1;
    let matched: Element[] = [];
    for (const h of headers) {
      const names = headerName(h);
      seenHeaders.push(names[0] || names[1] || "");
      const t = Math.min(...names.map((n) => tierOf(n, norm(column))).map((x) => (x === -1 ? 99 : x)));
      if (t === 99) continue;
      if (best === -1 || t < best) {
        best = t;
        matched = [h];
      } else if (t === best) matched.push(h);
    }
    if (matched.length === 0) continue;
    const header = matched[0]!;
    const headerRow = header.closest(ROW);
    const colindex = header.getAttribute("aria-colindex");
    const position = headerRow ? positionOf(header, headerRow) : -1;
    const distinct = new Set(matched.map((h) => h.getAttribute("aria-colindex") ?? String(positionOf(h, h.closest(ROW) ?? h))));
    if (distinct.size > 1) {
      throw new ScopeError(
        "ambiguous",
        `${describe(grid)} has ${matched.length} columns headed ${q(column)}; a duplicate header cannot name a column — ${ESCAPE}`,
      );
    }
    const cellOf = (row: Element): Element | null => {
      if (colindex !== null) {
        return Array.from(row.querySelectorAll(`[aria-colindex="${colindex}"]`)).find((c) => c.closest(ROW) === row && c !== header) ?? null;
      }
      return position === -1 ? null : cellAt(row, position);
    };
    candidates.push({ cellOf, grid, headerRow });
  }
  if (candidates.length === 0) {
    const list = [...new Set(seenHeaders.filter((h) => h !== ""))].slice(0, 12).map(q).join(", ");
    throw new ScopeError(
      "not-found",
      `no table or grid has a column headed ${q(column)}${list ? ` (columns seen: ${list})` : " (no table or ARIA grid is visible)"}`,
    );
  }
  const isHeaderRow = (row: Element) =>
    row.parentElement?.tagName === "THEAD" || row.querySelector("[role=columnheader]") !== null || candidates.some((c) => c.headerRow === row);
  const owner = new Map<Element, (typeof candidates)[number]>();
  for (const c of candidates) {
    owner.set(c.grid, c);
    for (const twin of bodyTwins(c.grid)) if (!owner.has(twin)) owner.set(twin, c);
  }
  const rowOf = (hit: Element): Element | null => {
    const row = hit.closest(ROW);
    if (!row || isHeaderRow(row)) return null;
    const grid = row.closest(GRID);
    return grid && owner.has(grid) ? row : null;
  };
  const picked = pickContainer(doc, anchors, rowOf, "row");
  if ("missing" in picked) throw new ScopeError("not-found", `${picked.missing} of a table with a ${q(column)} column`);
  const row = picked.found;
  const cell = owner.get(row.closest(GRID)!)!.cellOf(row);
  if (!cell) throw new ScopeError("not-found", `${describe(row)} has no cell under ${q(column)}`);
  return [narrow(cell, p)];
};

/** A role noun picks that control in the cell; without one, a cell holding a single control means it. */
export const narrow = (cell: Element, p: { readonly role?: string }): Element => {
  const role = p.role;
  if (role) {
    const el = toRole(cell, role);
    if (!el) throw new ScopeError("not-found", `${describe(cell)} holds no ${role}`);
    return el;
  }
  const controls = Array.from(cell.querySelectorAll(CONTROL)).filter(isVisible);
  return controls.length === 1 ? controls[0]! : cell;
};

// ------------------------------------------------------------------ containers

/** A scoped or framed payload's inner target as a rung of its own (`inner_text` → `text`, …). */
export const innerRung = (p: ScopedPayload | FramedPayload): SelectorPayload => {
  const role = p.role !== undefined ? { role: p.role } : {};
  if (p.inner_text !== undefined) return { text: p.inner_text, ...role };
  if (p.inner_css !== undefined) return { css: p.inner_css, ...role };
  if (p.inner_id !== undefined) return { id: p.inner_id, ...role };
  return role;
};

export const innerIn = (container: Element, p: ScopedPayload | FramedPayload): Element[] => {
  const role = p.role;
  let found: Element[];
  if (p.inner_text !== undefined) return byText(p.inner_text, role, container);
  if (p.inner_css !== undefined) found = deepQueryAll(container, p.inner_css);
  else if (p.inner_id !== undefined) {
    const id = p.inner_id;
    found = deepQueryAll(container, "[id], [name]").filter((e) => e.id === id || e.getAttribute("name") === id);
  } else if (p.kind === "scoped" && role !== undefined) return byRole(container, p, role);
  else throw new ScopeError("unsupported", `the scoped payload names no inner target (${JSON.stringify(p)})`);
  if (role) found = found.map((e) => toRole(e, role) ?? e);
  return visibleFirst(found);
};

const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? "th" : n % 10 === 1 ? "st" : n % 10 === 2 ? "nd" : n % 10 === 3 ? "rd" : "th"}`;

/**
 * A role noun alone (`the checkbox in the item containing "Buy milk"`): the container's elements of
 * that role, outermost only, visible ones first. Without an ordinal it must be one: several is the
 * usual ambiguity, listing them with the ordinal that picks each.
 */
const byRole = (container: Element, p: ScopedPayload, role: string): Element[] => {
  const test = ROLE_TESTS[role];
  if (!test) throw new ScopeError("unsupported", `${q(role)} is not a role noun`);
  const all = deepQueryAll(container, "*").filter(test);
  const found = all.filter((e) => !all.some((o) => o !== e && containsDeep(o, e)));
  const visible = found.filter(isVisible);
  const ordered = visibleFirst(found, visible);
  const counted = visible.length > 0 ? visible : found;
  if (p.nth === undefined && counted.length > 1) {
    const scope = `${p.container === "item" ? "the item" : `the ${q(p.container)}`} containing ${q(p.container_anchor)}`;
    const many = role.endsWith("x") ? `${role}es` : `${role}s`;
    throw new ScopeError(
      "ambiguous",
      `${describe(container)} holds ${counted.length} ${many}: ${counted.map((e, i) => `${ordinal(i + 1)} ${describe(e)}`).join(", ")}; ` +
        `say which one with an ordinal, e.g. \`the 2nd ${role} in ${scope}\`, or quote its label`,
    );
  }
  return ordered;
};

export const resolveScoped = (p: ScopedPayload, doc: Document): Element[] => {
  const spec = p.container;
  const anchors = [p.container_anchor, ...(p.anchor_also ?? [])];
  let containerOf: (hit: Element) => Element | null;
  let what: string;
  if (spec === "item") {
    containerOf = (hit) => closestDeep(hit, ITEM);
    what = "item";
  } else if (spec.startsWith("css:")) {
    const css = spec.slice(4);
    doc.querySelector(css); // a bad selector throws here, before any anchor is matched
    containerOf = (hit) => closestDeep(hit, css);
    what = `"${spec}" container`;
  } else if (spec.startsWith("id:")) {
    const box = doc.getElementById(spec.slice(3));
    if (!box) throw new ScopeError("not-found", `no element has id ${q(spec.slice(3))}`);
    containerOf = (hit) => (containsDeep(box, hit) ? box : null);
    what = `"${spec}" container`;
  } else throw new ScopeError("unsupported", `${q(spec)} is not a container; use item, "css:…" or "id:…"`);
  const picked = pickContainer(doc, anchors, containerOf, what);
  if ("missing" in picked) {
    if (picked.outside && spec === "item") {
      throw new ScopeError(
        "ambiguous",
        `${anchors.map(q).join(" and ")} is on the page but in no list item (li, listitem, row, option, article, tr) — name its container with "css:…", e.g. \`in the "css:.card" containing ${q(anchors[0] ?? "")}\``,
      );
    }
    throw new ScopeError("not-found", picked.missing);
  }
  const inner = innerIn(picked.found, p);
  if (inner.length === 0) {
    const name =
      p.inner_css !== undefined
        ? `"css:${p.inner_css}"`
        : p.inner_id !== undefined
          ? `"id:${p.inner_id}"`
          : p.inner_text !== undefined
            ? q(p.inner_text)
            : undefined;
    const what = name === undefined ? (p.role ?? "element") : `${name}${p.role !== undefined ? ` ${p.role}` : ""}`;
    throw new ScopeError("not-found", `${describe(picked.found)} has no ${what}`);
  }
  return inner;
};

export const resolveStructural = (rung: Rung): Element[] => {
  const p = rung.payload;
  if ("kind" in p && p.kind === "cell") return resolveCell(p, document);
  if ("kind" in p && p.kind === "scoped") return resolveScoped(p, document);
  if ("kind" in p && p.kind === "framed") throw new ScopeError("unsupported", "an iframe target must be the whole ladder");
  throw new ScopeError("unsupported", `unknown structural payload ${JSON.stringify(p)}`);
};
