// Page-side resolution of scoped targets: table/ARIA-grid cells, item and css:/id: containers, and
// same-origin iframes (the frame is a fence: the inner target is looked up in the frame's own page
// API), plus value assignment and scrolling. Injected by source text next to the page API, so it
// must be self-contained: no runtime imports, nothing referenced outside the function body.
import type { Rung } from "./page-api.ts";

/** What the page API lends this module (its own resolver and element tests). */
export interface ScopeKit {
  byText(text: string, role: string | undefined, root: Document | Element): Element[];
  toRole(el: Element, role: string | undefined): Element | null;
  isVisible(el: Element): boolean;
  isDisabled(el: Element): boolean;
  resolve(ladder: readonly Rung[]): { el: Element; tier: string } | { el: null; detail: string };
  describe(el: Element): string;
  /** The page API installer itself, to install it into a frame that does not have it yet. */
  installer: (...args: never[]) => unknown;
  /** The assertion readings installer passed to the page API (installed into frames with it). */
  readings?: ((...args: never[]) => unknown) | undefined;
}

/** `{to:"top"|"bottom"} | {into_view:true} | {to_px:n}`, as in the trace's `scroll` params. */
export interface ScrollRequest {
  readonly ladder?: readonly Rung[] | undefined;
  readonly to: { readonly to?: "top" | "bottom"; readonly into_view?: boolean; readonly to_px?: number };
}

export type ScopeAnswer = { readonly ok: true; readonly value: string; readonly tier: string } | { readonly ok: false; readonly failed: string; readonly detail: string };

export interface ScopeMethods {
  /** Sets a field's value as a script would (value setter + input/change), then reads it back. */
  assignValue(req: { ladder: readonly Rung[]; value: string }): ScopeAnswer;
  scroll(req: ScrollRequest): ScopeAnswer;
}

export interface Scopes {
  /** Elements a `cell` or `scoped` rung names; throws for a miss (retryable) or an ambiguity (not). */
  resolveStructural(rung: Rung): Element[];
  /** Wraps the page API: framed ladders are answered by the frame's own API; scope errors become answers. */
  fence<T extends object>(api: T): T & ScopeMethods;
}

export function installScopes(kit: ScopeKit): Scopes {
  const ITEM = "li, [role=listitem], [role=row], [role=option], [role=article], tr";
  const GRID = "table, [role=grid], [role=table], [role=treegrid]";
  const ROW = "tr, [role=row]";
  const CELL = "th, td, [role=cell], [role=gridcell], [role=columnheader], [role=rowheader]";
  const CONTROL = "input:not([type=hidden]), select, textarea, button, a[href], [role=button], [role=checkbox], [role=switch], [role=combobox], [role=textbox]";
  const ESCAPE = 'name the element with "css:…" instead, e.g. `the "css:.amount" in the "css:.card" containing "…"`';

  /** `retry` false: waiting cannot fix it (ambiguity, a cross-origin frame). */
  class ScopeError extends Error {
    readonly failed: "not-found" | "ambiguous" | "unsupported";
    constructor(failed: "not-found" | "ambiguous" | "unsupported", message: string) {
      super(message);
      this.failed = failed;
    }
  }

  const norm = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
  const lower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const q = (s: string) => JSON.stringify(s);

  /** 0 exact, 1 prefix, 2 case-insensitive exact, 3 case-insensitive prefix, -1 none. */
  const tierOf = (name: string, want: string): number => {
    if (name === "") return -1;
    if (name === want) return 0;
    if (name.startsWith(want)) return 1;
    const nl = lower(name);
    const wl = lower(want);
    if (nl === wl) return 2;
    if (nl.startsWith(wl)) return 3;
    return -1;
  };

  const ownText = (el: Element) => {
    let s = "";
    for (const n of Array.from(el.childNodes)) if (n.nodeType === 3) s += n.textContent ?? "";
    return norm(s);
  };

  const NAMED = "[aria-label], [placeholder], [title], img[alt], input[type=submit], input[type=button], input[type=reset]";
  const ownNames = (el: Element): string[] => {
    const names = [ownText(el)];
    for (const a of ["aria-label", "placeholder", "title", "alt"]) {
      const v = el.getAttribute(a);
      if (v) names.push(norm(v));
    }
    if (el.tagName === "INPUT" && ["submit", "button", "reset"].includes((el as HTMLInputElement).type)) names.push(norm((el as HTMLInputElement).value));
    return names;
  };

  /**
   * Visible elements under `root` naming `text`, ranked: 0–3 by their own name (the anchor ladder),
   * 4–5 by their own name containing it, 6–9 by their whole text (innermost only), computed only
   * when no own name matched.
   */
  const anchorHits = (root: Document | Element, text: string): Array<{ el: Element; rank: number }> => {
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
      if (best !== -1 && kit.isVisible(el)) hits.push({ el, rank: best });
    };
    const doc = root.ownerDocument ?? (root as Document);
    const walker = doc.createTreeWalker(root, 4);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.tagName === "SCRIPT" || parent.tagName === "STYLE") continue;
      if ((node.nodeValue ?? "").toLowerCase().includes(head)) consider(parent);
    }
    for (const el of Array.from(root.querySelectorAll(NAMED))) consider(el);
    if (hits.length > 0) return hits;
    const sub: Array<{ el: Element; rank: number }> = [];
    for (const el of Array.from(root.querySelectorAll("*"))) {
      if (el.tagName === "SCRIPT" || el.tagName === "STYLE") continue;
      const t = tierOf(norm(el.textContent), want);
      if (t === -1) continue;
      // Document order visits ancestors first: a matching descendant replaces them (innermost wins).
      for (let i = sub.length - 1; i >= 0; i--) if (sub[i]!.el.contains(el)) sub.splice(i, 1);
      sub.push({ el, rank: 6 + t });
    }
    return sub.filter((s) => kit.isVisible(s.el));
  };

  /**
   * The one container holding every anchor. Each anchor's hits map to their innermost container;
   * a container scores the worst rank among its anchors, and the best score must be unique.
   */
  const pickContainer = (
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
        `${all} is in ${winners.length} ${what}s (${winners.slice(0, 3).map(kit.describe).join(", ")}${winners.length > 3 ? ", …" : ""}); an anchor must identify exactly one — use a more specific anchor, add \`and "…"\`, or ${ESCAPE}`,
      );
    }
    return { found: winners[0]! };
  };

  // ------------------------------------------------------------------ cells

  const cellsOf = (row: Element) => Array.from(row.querySelectorAll(CELL)).filter((c) => c.parentElement?.closest(ROW) === row);
  const spanOf = (c: Element) => (c.tagName === "TD" || c.tagName === "TH" ? Math.max(1, (c as HTMLTableCellElement).colSpan) : 1);
  const positionOf = (cell: Element, row: Element): number => {
    let pos = 0;
    for (const c of cellsOf(row)) {
      if (c === cell) return pos;
      pos += spanOf(c);
    }
    return -1;
  };
  const cellAt = (row: Element, pos: number): Element | null => {
    let at = 0;
    for (const c of cellsOf(row)) {
      const span = spanOf(c);
      if (pos >= at && pos < at + span) return c;
      at += span;
    }
    return null;
  };

  /** Column header cells: th in a header row (a stub td above the row labels is fine), or role=columnheader. */
  const headersOf = (grid: Element): Element[] =>
    Array.from(grid.querySelectorAll("th, [role=columnheader]")).filter((h) => {
      if (h.closest(GRID) !== grid) return false;
      if (h.getAttribute("role") === "columnheader") return true;
      if (h.getAttribute("role") === "rowheader" || h.getAttribute("scope") === "row") return false;
      const row = h.closest(ROW);
      if (!row) return false;
      if (row.parentElement?.tagName === "THEAD") return true;
      return cellsOf(row).every((c) => c.tagName === "TH" || c.getAttribute("role") === "columnheader" || norm(c.textContent) === "");
    });

  const headerName = (h: Element) => [norm(h.textContent), norm(h.getAttribute("aria-label"))];

  const resolveCell = (p: Readonly<Record<string, unknown>>, doc: Document): Element[] => {
    const column = String(p["column_text"] ?? "");
    const anchors = [String(p["row_anchor"] ?? ""), ...(Array.isArray(p["row_anchor_also"]) ? p["row_anchor_also"].map(String) : [])];
    const grids = Array.from(doc.querySelectorAll(GRID)).filter(kit.isVisible);
    const seenHeaders: string[] = [];
    const candidates: Array<{ cellOf: (row: Element) => Element | null; grid: Element; headerRow: Element | null }> = [];
    for (const grid of grids) {
      const headers = headersOf(grid).filter(kit.isVisible);
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
        throw new ScopeError("ambiguous", `${kit.describe(grid)} has ${matched.length} columns headed ${q(column)}; a duplicate header cannot name a column — ${ESCAPE}`);
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
      throw new ScopeError("not-found", `no table or grid has a column headed ${q(column)}${list ? ` (columns seen: ${list})` : " (no table or ARIA grid is visible)"}`);
    }
    const isHeaderRow = (row: Element) => row.parentElement?.tagName === "THEAD" || row.querySelector("[role=columnheader]") !== null || candidates.some((c) => c.headerRow === row);
    const owner = new Map<Element, (typeof candidates)[number]>();
    for (const c of candidates) owner.set(c.grid, c);
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
    if (!cell) throw new ScopeError("not-found", `${kit.describe(row)} has no cell under ${q(column)}`);
    return [narrow(cell, p)];
  };

  /** A role noun picks that control in the cell; without one, a cell holding a single control means it. */
  const narrow = (cell: Element, p: Readonly<Record<string, unknown>>): Element => {
    const role = typeof p["role"] === "string" ? p["role"] : undefined;
    if (role) {
      const el = kit.toRole(cell, role);
      if (!el) throw new ScopeError("not-found", `${kit.describe(cell)} holds no ${role}`);
      return el;
    }
    const controls = Array.from(cell.querySelectorAll(CONTROL)).filter(kit.isVisible);
    return controls.length === 1 ? controls[0]! : cell;
  };

  // ------------------------------------------------------------------ containers

  const innerRung = (p: Readonly<Record<string, unknown>>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    if (typeof p["inner_text"] === "string") out["text"] = p["inner_text"];
    if (typeof p["inner_css"] === "string") out["css"] = p["inner_css"];
    if (typeof p["inner_id"] === "string") out["id"] = p["inner_id"];
    if (typeof p["role"] === "string") out["role"] = p["role"];
    return out;
  };

  const innerIn = (container: Element, p: Readonly<Record<string, unknown>>): Element[] => {
    const role = typeof p["role"] === "string" ? p["role"] : undefined;
    let found: Element[];
    if (typeof p["inner_text"] === "string") return kit.byText(p["inner_text"], role, container);
    if (typeof p["inner_css"] === "string") found = Array.from(container.querySelectorAll(p["inner_css"]));
    else if (typeof p["inner_id"] === "string") {
      const id = p["inner_id"];
      found = Array.from(container.querySelectorAll("[id], [name]")).filter((e) => e.id === id || e.getAttribute("name") === id);
    } else throw new ScopeError("unsupported", `the scoped payload names no inner target (${JSON.stringify(p)})`);
    if (role) found = found.map((e) => kit.toRole(e, role) ?? e);
    const visible = found.filter(kit.isVisible);
    return visible.length > 0 ? visible.concat(found.filter((e) => !visible.includes(e))) : found;
  };

  const resolveScoped = (p: Readonly<Record<string, unknown>>, doc: Document): Element[] => {
    const spec = String(p["container"] ?? "item");
    const anchors = [String(p["container_anchor"] ?? ""), ...(Array.isArray(p["anchor_also"]) ? p["anchor_also"].map(String) : [])];
    let containerOf: (hit: Element) => Element | null;
    let what: string;
    if (spec === "item") {
      containerOf = (hit) => hit.closest(ITEM);
      what = "item";
    } else if (spec.startsWith("css:")) {
      const css = spec.slice(4);
      doc.querySelector(css); // a bad selector throws here, before any anchor is matched
      containerOf = (hit) => hit.closest(css);
      what = `"${spec}" container`;
    } else if (spec.startsWith("id:")) {
      const box = doc.getElementById(spec.slice(3));
      if (!box) throw new ScopeError("not-found", `no element has id ${q(spec.slice(3))}`);
      containerOf = (hit) => (box.contains(hit) ? box : null);
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
      const name = typeof p["inner_css"] === "string" ? `"css:${p["inner_css"]}"` : typeof p["inner_id"] === "string" ? `"id:${p["inner_id"]}"` : q(String(p["inner_text"]));
      throw new ScopeError("not-found", `${kit.describe(picked.found)} has no ${name}${typeof p["role"] === "string" ? ` ${p["role"]}` : ""}`);
    }
    return inner;
  };

  const resolveStructural = (rung: Rung): Element[] => {
    const p = rung.payload;
    if (p["kind"] === "cell") return resolveCell(p, document);
    if (p["kind"] === "scoped") return resolveScoped(p, document);
    if (p["kind"] === "framed") throw new ScopeError("unsupported", "an iframe target must be the whole ladder");
    throw new ScopeError("unsupported", `unknown structural payload kind ${JSON.stringify(p["kind"])}`);
  };

  // ------------------------------------------------------------------ frames

  const frameLabel = (f: Element) => {
    for (const a of ["title", "name", "id", "aria-label"]) {
      const v = f.getAttribute(a);
      if (v) return `${a}=${q(v)}`;
    }
    const src = f.getAttribute("src");
    return src ? `src=${q(src)}` : "an unnamed frame";
  };

  type FrameApi = Record<string, (req: unknown) => unknown>;
  const enterFrame = (p: Readonly<Record<string, unknown>>): { frame: HTMLIFrameElement; api: FrameApi } => {
    const frames = Array.from(document.querySelectorAll("iframe, frame")) as HTMLIFrameElement[];
    let matched: HTMLIFrameElement[];
    let name: string;
    if (typeof p["frame_css"] === "string") {
      name = `"css:${p["frame_css"]}"`;
      matched = (Array.from(document.querySelectorAll(p["frame_css"])) as HTMLIFrameElement[]).filter((f) => f.tagName === "IFRAME" || f.tagName === "FRAME");
    } else {
      const want = norm(String(p["frame_text"] ?? ""));
      name = q(want);
      let best = 99;
      matched = [];
      for (const f of frames) {
        const t = Math.min(...["title", "name", "id", "aria-label"].map((a) => tierOf(norm(f.getAttribute(a)), want)).map((x) => (x === -1 ? 99 : x)));
        if (t < best) {
          best = t;
          matched = [f];
        } else if (t === best && t !== 99) matched.push(f);
      }
    }
    if (matched.length === 0) {
      throw new ScopeError("not-found", `no iframe ${name} on the page; frames present: ${frames.length ? frames.map(frameLabel).join(", ") : "none"}`);
    }
    if (matched.length > 1) throw new ScopeError("ambiguous", `${matched.length} iframes match ${name} (${matched.map(frameLabel).join(", ")}); name one with "css:…"`);
    const frame = matched[0]!;
    let doc: Document | null = null;
    try {
      doc = frame.contentDocument;
    } catch {
      doc = null; // a cross-origin frame throws in some embedders instead of returning null
    }
    if (!doc) throw new ScopeError("unsupported", `the iframe ${name} is cross-origin (${frameLabel(frame)}); flowproof reaches into same-origin frames only`);
    const win = frame.contentWindow as (Window & { __flowproof?: FrameApi; eval(s: string): unknown }) | null;
    if (!win) throw new ScopeError("not-found", `the iframe ${name} has no document yet`);
    if (!win.__flowproof) win.eval(`(${String(kit.installer)})(${String(installScopes)}${kit.readings ? `, ${String(kit.readings)}` : ""})`);
    if (!win.__flowproof) throw new ScopeError("not-found", `the iframe ${name} is still loading`);
    return { frame, api: win.__flowproof };
  };

  // ------------------------------------------------------------------ value assignment and scroll

  const assignValue = (req: { ladder: readonly Rung[]; value: string }): ScopeAnswer => {
    const found = kit.resolve(req.ladder);
    if (!found.el) return { ok: false, failed: "not-found", detail: found.detail };
    const el = found.el as HTMLInputElement;
    const tag = el.tagName;
    if (tag !== "TEXTAREA" && !(tag === "INPUT" && !["submit", "button", "reset", "image", "checkbox", "radio", "file", "hidden"].includes(el.type))) {
      return { ok: false, failed: "editable", detail: `${kit.describe(el)} is not a text field` };
    }
    if (!kit.isVisible(el)) return { ok: false, failed: "visible", detail: `${kit.describe(el)} is present but not visible` };
    if (kit.isDisabled(el)) return { ok: false, failed: "enabled", detail: `${kit.describe(el)} is disabled` };
    if (el.readOnly) return { ok: false, failed: "editable", detail: `${kit.describe(el)} is read-only` };
    el.focus();
    // The prototype's setter, so frameworks that track the value (React) see the change.
    const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), "value")?.set;
    if (setter) setter.call(el, req.value);
    else el.value = req.value;
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
    if (el.value !== req.value) {
      return { ok: false, failed: "unsupported", detail: `${kit.describe(el)} did not keep the value: the page rewrote it (it now holds ${el.value.length} characters, ${req.value.length} were set)` };
    }
    return { ok: true, value: "", tier: found.tier };
  };

  const isScrollable = (el: Element) => {
    if (el === el.ownerDocument.scrollingElement) return el.scrollHeight > el.clientHeight;
    const overflow = getComputedStyle(el).overflowY;
    return (overflow === "auto" || overflow === "scroll" || overflow === "overlay") && el.scrollHeight > el.clientHeight;
  };

  const scroll = (req: ScrollRequest): ScopeAnswer => {
    const to = req.to;
    let target: Element;
    let tier = "page";
    if (!req.ladder || req.ladder.length === 0) target = document.scrollingElement ?? document.documentElement;
    else {
      const found = kit.resolve(req.ladder);
      if (!found.el) return { ok: false, failed: "not-found", detail: found.detail };
      target = found.el;
      tier = found.tier;
    }
    if (to.into_view) {
      target.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" as ScrollBehavior });
      const r = target.getBoundingClientRect();
      const inView = r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
      return inView ? { ok: true, value: "", tier } : { ok: false, failed: "visible", detail: `${kit.describe(target)} did not come into view` };
    }
    if (typeof to.to_px === "number") {
      const px = to.to_px;
      if (target.scrollHeight <= target.clientHeight) {
        return { ok: false, failed: "unsupported", detail: `${kit.describe(target)} does not scroll: its content fits (${target.scrollHeight} px in ${target.clientHeight} px)` };
      }
      target.scrollTo({ top: px, behavior: "instant" as ScrollBehavior });
      if (Math.abs(target.scrollTop - px) > 1) {
        return { ok: false, failed: "unsupported", detail: `${kit.describe(target)} stopped at ${Math.round(target.scrollTop)} px, short of ${px} px (it scrolls at most ${target.scrollHeight - target.clientHeight} px)` };
      }
      return { ok: true, value: String(target.scrollTop), tier };
    }
    let box: Element | null = target;
    while (box && !isScrollable(box)) box = box.parentElement;
    const container = box ?? document.scrollingElement ?? document.documentElement;
    const top = to.to === "bottom" ? container.scrollHeight : 0;
    container.scrollTo({ top, behavior: "instant" as ScrollBehavior });
    const max = container.scrollHeight - container.clientHeight;
    const reached = to.to === "bottom" ? Math.abs(max - container.scrollTop) <= 1 : container.scrollTop <= 1;
    return reached ? { ok: true, value: String(container.scrollTop), tier } : { ok: false, failed: "unsupported", detail: `${kit.describe(container)} stopped at ${Math.round(container.scrollTop)} px` };
  };

  // ------------------------------------------------------------------ the fence

  /** A scope error as the answer shape of the method that hit it. */
  const answerFor = (method: string, req: unknown, e: ScopeError): unknown => {
    const retryable = e.failed === "not-found";
    if (method === "count") return 0;
    if (method === "fileInput") return e.message;
    if (method === "check") {
      const expect = (req as { expect?: { kind?: string; visible?: boolean; count?: number } }).expect;
      if (retryable && expect?.kind === "visible" && expect.visible === false) return { pass: true, actual: "absent" };
      if (retryable && expect?.kind === "count") return { pass: expect.count === 0, actual: "found 0" };
      return retryable ? { pass: false, actual: `never appeared (${e.message})` } : { pass: false, actual: e.message, retryable: false };
    }
    return { ok: false, failed: e.failed, detail: e.message };
  };

  const fence = <T extends object>(api: T): T & ScopeMethods => {
    const inner: Record<string, unknown> = { ...api, assignValue, scroll };
    const out: Record<string, unknown> = {};
    for (const [method, fn] of Object.entries(inner)) {
      if (typeof fn !== "function") continue;
      out[method] = (req: unknown) => {
        try {
          const ladder = (req as { ladder?: readonly Rung[] } | undefined)?.ladder;
          const first = ladder?.[0];
          if (first && first.payload["kind"] === "framed") {
            const { frame, api: frameApi } = enterFrame(first.payload);
            const pointer = method === "probe" || method === "focusForTyping";
            if (pointer) {
              const r = frame.getBoundingClientRect();
              if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) frame.scrollIntoView({ block: "center", behavior: "instant" as ScrollBehavior });
            }
            const answer = frameApi[method]!({ ...(req as object), ladder: [{ tier: first.tier, payload: innerRung(first.payload) }] });
            if (pointer && answer && typeof answer === "object" && (answer as { ok?: boolean }).ok === true) {
              // Frame-viewport coordinates to page-viewport ones: the frame's content box offset.
              const r = frame.getBoundingClientRect();
              const style = getComputedStyle(frame);
              const a = answer as { x: number; y: number };
              return { ...a, x: a.x + r.left + frame.clientLeft + parseFloat(style.paddingLeft), y: a.y + r.top + frame.clientTop + parseFloat(style.paddingTop) };
            }
            return answer;
          }
          return (fn as (r: unknown) => unknown)(req);
        } catch (e) {
          if (e instanceof ScopeError) return answerFor(method, req, e);
          throw e;
        }
      };
    }
    return out as T & ScopeMethods;
  };

  return { resolveStructural, fence };
}
