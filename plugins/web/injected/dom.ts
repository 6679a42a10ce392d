// Page-side helpers over the composed tree (light DOM, open shadow roots, slots): the one
// definition of "visible" (rendered, and not cut off by a clipping box), the box a user sees,
// bringing it into view, deep queries and text, what a pointer hit reaches, and the text helpers
// every page-side module shares.

// Page text for a message is bounded here but shortened only by the engine, after it redacted
// the secrets (SHOWN_TEXT_OPEN/CLOSE in src/engine/context.ts): a cut made here, before
// redaction, could leave a secret's prefix in the message.
export const PAGE_TEXT_BOUND = 4096;
export const norm = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
export const short = (s: string) => `\uE000${s.length > PAGE_TEXT_BOUND ? `${s.slice(0, PAGE_TEXT_BOUND)}…` : s}\uE001`;
export const lower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The composed-tree (flat tree) parent: a slotted node's slot, a shadow root's host. */
export const composedParent = (n: Node): Node | null => {
  const slot = (n as Element | Text).assignedSlot;
  if (slot) return slot;
  const p = n.parentNode;
  return p instanceof ShadowRoot ? p.host : p;
};
/** What a box-less element (display: contents, a <slot>) renders: its assigned nodes, or else its children. */
export const renderedChildren = (el: Element): Node[] => {
  if (el instanceof HTMLSlotElement) {
    const assigned = el.assignedNodes();
    if (assigned.length > 0) return assigned;
  }
  return Array.from((el.shadowRoot ?? el).childNodes);
};
export const textRect = (t: Node): DOMRect | undefined => {
  if (!(t.nodeValue ?? "").trim()) return undefined;
  const range = document.createRange();
  range.selectNodeContents(t);
  const r = range.getBoundingClientRect();
  return r.width > 0 || r.height > 0 ? r : undefined;
};
export const isContents = (el: Element) => getComputedStyle(el).display === "contents";

/**
 * The border box a user sees: an element's own, or for a box-less one (display: contents, a
 * <slot> and its fallback) the union of what it renders, text included. Zero-sized when nothing renders.
 */
export const boxOf = (el: Element): DOMRect => {
  const rect = el.getBoundingClientRect();
  if (rect.width > 0 || rect.height > 0 || !isContents(el)) return rect;
  let l = Infinity, t = Infinity, r = -Infinity, b = -Infinity;
  for (const n of renderedChildren(el)) {
    const box = n.nodeType === Node.TEXT_NODE ? textRect(n) : n instanceof Element && isVisible(n) ? boxOf(n) : undefined;
    if (!box) continue;
    l = Math.min(l, box.left);
    t = Math.min(t, box.top);
    r = Math.max(r, box.right);
    b = Math.max(b, box.bottom);
  }
  return l === Infinity ? rect : new DOMRect(l, t, r - l, b - t);
};

/**
 * Rendered, Playwright's rule: a box with width and height (display: none anywhere up, an empty or
 * zero-height element, a collapsed wrapper have none; a box-less display: contents element is
 * judged by what it renders), and not visibility: hidden (nor content-visibility: hidden).
 * Opacity and what covers it do not count. Which element a label names is decided among these.
 */
export const isVisible = (el: Element): boolean => {
  const rect = el.getBoundingClientRect();
  if (rect.width <= 0 || rect.height <= 0) {
    // display:contents wrappers and slots have no box; judge by what they render (text too).
    if (!isContents(el)) return false;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden") return false;
    return renderedChildren(el).some((n) => (n.nodeType === Node.TEXT_NODE ? textRect(n) !== undefined : n instanceof Element && isVisible(n)));
  }
  const check = (el as Element & { checkVisibility?: (o: object) => boolean }).checkVisibility;
  if (check) return check.call(el, { visibilityProperty: true, contentVisibilityAuto: true });
  const style = getComputedStyle(el);
  return style.visibility !== "hidden" && style.display !== "none";
};

// Open shadow roots (web components) are searched like the light DOM; closed ones stay
// unreachable by design. A page without shadow roots pays one pass over its elements.
export const shadowRootsIn = (root: Document | Element | ShadowRoot): ShadowRoot[] => {
  const out: ShadowRoot[] = [];
  const visit = (r: Document | Element | ShadowRoot) => {
    for (const el of Array.from(r.querySelectorAll("*"))) {
      if (el.shadowRoot) {
        out.push(el.shadowRoot);
        visit(el.shadowRoot);
      }
    }
  };
  if (root instanceof Element && root.shadowRoot) {
    out.push(root.shadowRoot);
    visit(root.shadowRoot);
  }
  visit(root);
  return out;
};
/** `querySelectorAll` that also looks inside open shadow roots below `root` (`roots`, when already found). */
export const deepQueryAll = (root: Document | Element, css: string, roots: readonly ShadowRoot[] = shadowRootsIn(root)): Element[] => {
  const found = Array.from(root.querySelectorAll(css));
  for (const shadow of roots) found.push(...Array.from(shadow.querySelectorAll(css)));
  return found;
};
/** `a.contains(b)` across shadow boundaries (b inside a's shadow tree counts). */
export const containsDeep = (a: Element, b: Node): boolean => {
  for (let n: Node | null = b; n; n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null)) if (n === a) return true;
  return false;
};
/** Rendered text of `el` including what its open shadow roots render (innerText leaves those out). */
export const deepText = (el: HTMLElement): string => {
  const parts = [el.innerText ?? el.textContent ?? ""];
  for (const shadow of shadowRootsIn(el)) {
    for (const child of Array.from(shadow.children)) {
      if (child instanceof HTMLElement && !(child instanceof HTMLStyleElement) && !(child instanceof HTMLScriptElement)) parts.push(child.innerText);
    }
  }
  return parts.join("\n");
};

/** A box named without its text (`<div#list>`, `<div.scroll-body>`): what clips a target, in a message. */
export const describeBox = (el: Element): string => {
  const cls = typeof el.className === "string" ? el.className.trim().split(/\s+/)[0] : "";
  return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : cls ? `.${cls}` : ""}>`;
};

export const cssEscapeId = (id: string) => (typeof CSS !== "undefined" && CSS.escape ? CSS.escape(id) : id);

export const deepHit = (x: number, y: number): Element | null => {
  let hit = document.elementFromPoint(x, y);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
};

/** `b` is `a` or below it in the composed tree (slotted content counts as inside its slot). */
export const containsComposed = (a: Element, b: Node): boolean => {
  for (let n: Node | null = b; n; n = composedParent(n)) if (n === a) return true;
  return false;
};

/**
 * Whether a pointer hit at the target reaches it: the hit is the target or in its composed
 * subtree (slotted light DOM included), or the shadow host of the target's own tree (a point on
 * slotted text is reported as the host), or, for a box-less target, the box it renders in. A
 * real overlay (any other element) does not count.
 */
export const receives = (el: Element, hit: Element | null) => {
  if (!hit) return false;
  if (hit === el || containsDeep(el, hit) || containsComposed(el, hit)) return true;
  if (hit.shadowRoot && containsDeep(hit, el)) return true;
  if (isContents(el)) {
    let p = composedParent(el);
    while (p instanceof Element && isContents(p)) p = composedParent(p);
    if (p === hit) return true;
  }
  const label = hit.closest("label");
  return !!label && label.control === el;
};

export const inViewport = (r: DOMRect) => r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;

/** One box that clips `el`: an ancestor whose overflow is not `visible`, and the area it shows (its padding box). */
interface ClipBox {
  readonly by: Element;
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly x: boolean;
  readonly y: boolean;
}

/**
 * The boxes that clip `el`, innermost first: every ancestor in the composed tree whose overflow is
 * hidden, clip, scroll or auto, except those an absolutely or fixed positioned element escapes
 * (ancestors below its containing block). The page's own scrolling (html, body) is not one.
 */
export const clipBoxes = (el: Element): ClipBox[] => {
  const out: ClipBox[] = [];
  let mode = getComputedStyle(el).position;
  if (mode === "fixed") return out;
  for (let n = composedParent(el); n; n = composedParent(n)) {
    if (!(n instanceof Element)) continue;
    if (n === document.body || n === document.documentElement) break;
    const st = getComputedStyle(n);
    const positioned = st.position !== "static" || st.transform !== "none";
    if (mode === "absolute" && !positioned) continue;
    const x = st.overflowX !== "visible";
    const y = st.overflowY !== "visible";
    if ((x || y) && st.display !== "contents") {
      const r = n.getBoundingClientRect();
      const left = r.left + n.clientLeft;
      const top = r.top + n.clientTop;
      out.push({ by: n, left, top, right: left + n.clientWidth, bottom: top + n.clientHeight, x, y });
    }
    mode = st.position === "absolute" || st.position === "fixed" ? st.position : "static";
    if (mode === "fixed") break;
  }
  return out;
};

/** The box that cuts `el` off entirely (it lies wholly outside the area the box shows), or null. */
export const clippedBy = (el: Element): Element | null => {
  const r = boxOf(el);
  for (const c of clipBoxes(el)) {
    // A box that shows no area (a zero-height wrapper) cuts off everything in it.
    if (c.x && !(c.right > c.left && r.right > c.left && r.left < c.right)) return c.by;
    if (c.y && !(c.bottom > c.top && r.bottom > c.top && r.top < c.bottom)) return c.by;
  }
  return null;
};

/** Whether the point (x, y) shows inside every box that clips `el` (1 px of rounding allowed). */
export const insideClips = (el: Element, x: number, y: number): boolean =>
  clipBoxes(el).every((c) => (!c.x || (x >= c.left - 1 && x <= c.right + 1)) && (!c.y || (y >= c.top - 1 && y <= c.bottom + 1)));

/**
 * Visible, as `is visible`, `is not visible` and `appears N times` mean it: rendered (isVisible)
 * and not cut off entirely by a box that clips it (scrolled out of a scrolling box, inside a
 * zero-height wrapper). Off the page's own viewport still counts as visible.
 */
export const isShown = (el: Element): boolean => isVisible(el) && clippedBy(el) === null;

/**
 * Brings `el` into view the way a user's scrolling would, when any of it is outside the viewport
 * or the point an action would use (`at`, percent of its box; default its centre) is outside a
 * box that clips it: every scrolling ancestor is scrolled (scrollIntoView does all). A target
 * whose point already shows is left where it is. Returns its box afterwards.
 */
export const scrollToSee = (el: Element, block: ScrollLogicalPosition = "center", at: { xPct: number; yPct: number } = { xPct: 50, yPct: 50 }): DOMRect => {
  const rect = boxOf(el);
  const x = rect.left + (rect.width * at.xPct) / 100;
  const y = rect.top + (rect.height * at.yPct) / 100;
  if (inViewport(rect) && insideClips(el, x, y)) return rect;
  el.scrollIntoView({ block, inline: block === "nearest" ? "nearest" : "center", behavior: "instant" as ScrollBehavior });
  return boxOf(el);
};
