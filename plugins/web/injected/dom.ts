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
/**
 * A field's placeholder: its placeholder attribute, its aria-placeholder, or on editable content a
 * data-placeholder, which rich-text editors (Quill, ProseMirror's) show through CSS while empty.
 */
export const placeholderOf = (el: Element): string | null =>
  el.getAttribute("placeholder") ?? el.getAttribute("aria-placeholder") ?? ((el as HTMLElement).isContentEditable ? el.getAttribute("data-placeholder") : null);
/** The elements `placeholderOf` can name. */
export const PLACEHOLDERS = "[placeholder], [aria-placeholder], [contenteditable][data-placeholder], [contenteditable] [data-placeholder]";
export const isContents = (el: Element) => getComputedStyle(el).display === "contents";

/**
 * The border box a user sees: an element's own, or for a box-less one (display: contents, a
 * <slot> and its fallback) the union of what it renders, text included. Zero-sized when nothing renders.
 */
export const boxOf = (el: Element): DOMRect => {
  const rect = el.getBoundingClientRect();
  if (rect.width > 0 || rect.height > 0 || !isContents(el)) return rect;
  let l = Infinity,
    t = Infinity,
    r = -Infinity,
    b = -Infinity;
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
/**
 * `querySelectorAll` that also looks inside open shadow roots below `root` (`roots`, when already
 * found). Combinators cross shadow boundaries, Playwright's rule: in `.todo-list li` the `li` may sit
 * in the shadow root of a component inside the list (a shadow root's host is its elements' parent).
 * Natively each tree is matched alone, so such a selector matched nothing on a page of components,
 * and `appears 0 times` or `is not visible` passed whatever the page showed.
 */
export const deepQueryAll = (root: Document | Element, css: string, roots: readonly ShadowRoot[] = shadowRootsIn(root)): Element[] => {
  const found = Array.from(root.querySelectorAll(css)); // a bad selector throws here
  if (roots.length === 0) return found;
  const chains = splitSelectorList(css);
  if (chains === undefined || chains.every((c) => c.length === 1)) {
    for (const shadow of roots) found.push(...Array.from(shadow.querySelectorAll(css)));
    return found;
  }
  const last = chains.map((c) => c[c.length - 1]!.compound).join(", ");
  const pierced: Element[] = [];
  for (const tree of [root, ...roots]) {
    for (const el of Array.from(tree.querySelectorAll(last))) if (chains.some((c) => matchesChain(el, c, c.length - 1))) pierced.push(el);
  }
  return pierced;
};

/** One compound selector of a chain and the combinator that joins it to the compound before it. */
interface ChainPart {
  readonly compound: string;
  readonly combinator: " " | ">" | "+" | "~";
}

/** Splits a selector list at its top-level commas and combinators; undefined when it cannot (the native query decides then). */
const splitSelectorList = (css: string): ChainPart[][] | undefined => {
  const chains: ChainPart[][] = [];
  let chain: ChainPart[] = [];
  let compound = "";
  let combinator: ChainPart["combinator"] = " ";
  let pending: ChainPart["combinator"] | undefined;
  let depth = 0;
  let quote = "";
  const close = () => {
    if (compound.trim() === "") return false;
    chain.push({ compound: compound.trim(), combinator });
    compound = "";
    return true;
  };
  for (let i = 0; i < css.length; i++) {
    const c = css[i]!;
    if (c === "\\") {
      compound += c + (css[i + 1] ?? "");
      i++;
      continue;
    }
    if (quote !== "") {
      compound += c;
      if (c === quote) quote = "";
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      compound += c;
      continue;
    }
    if (c === "(" || c === "[") depth++;
    if (c === ")" || c === "]") depth--;
    if (depth > 0 || !/[\s>+~,]/.test(c)) {
      if (pending !== undefined) {
        combinator = pending;
        pending = undefined;
      }
      compound += c;
      continue;
    }
    if (compound.trim() !== "") {
      close();
      pending = " ";
    }
    if (c === ",") {
      if (chain.length === 0) return undefined;
      chains.push(chain);
      chain = [];
      combinator = " ";
      pending = undefined;
    } else if (c !== " " && c !== "\t" && c !== "\n" && c !== "\r" && c !== "\f") {
      if (chain.length === 0) return undefined; // a leading combinator (`> li`): relative selectors are the native query's
      pending = c as ChainPart["combinator"];
    }
  }
  if (quote !== "" || depth !== 0 || (!close() && chain.length === 0)) return undefined;
  if (pending !== undefined && pending !== " ") return undefined; // a dangling combinator
  chains.push(chain);
  return chains;
};

/** The parent across a shadow boundary: a top-level element of a shadow root has its host as parent. */
export const hostParent = (el: Element): Element | null => el.parentElement ?? (el.parentNode instanceof ShadowRoot ? el.parentNode.host : null);

/** `el.closest(css)` that climbs out of shadow roots to their hosts (an item `li` around a component). */
export const closestDeep = (el: Element, css: string): Element | null => {
  for (let n: Element | null = el; n; n = hostParent(n)) if (n.matches(css)) return n;
  return null;
};

/** `el` matches compounds 0..i of `chain`, ancestors found across shadow boundaries. */
const matchesChain = (el: Element, chain: readonly ChainPart[], i: number): boolean => {
  const part = chain[i]!;
  if (!el.matches(part.compound)) return false;
  if (i === 0) return true;
  switch (part.combinator) {
    case " ":
      for (let a = hostParent(el); a; a = hostParent(a)) if (matchesChain(a, chain, i - 1)) return true;
      return false;
    case ">": {
      const p = hostParent(el);
      return p !== null && matchesChain(p, chain, i - 1);
    }
    case "+": {
      const prev = el.previousElementSibling;
      return prev !== null && matchesChain(prev, chain, i - 1);
    }
    case "~":
      for (let s = el.previousElementSibling; s; s = s.previousElementSibling) if (matchesChain(s, chain, i - 1)) return true;
      return false;
  }
};
/** `a.contains(b)` across shadow boundaries (b inside a's shadow tree counts). */
export const containsDeep = (a: Element, b: Node): boolean => {
  for (let n: Node | null = b; n; n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null)) if (n === a) return true;
  return false;
};
/**
 * Not rendered at all: `display: none` on it or on an ancestor in the composed tree (a component's
 * host hidden by the page), or a host's light child that no slot takes.
 */
const unrendered = (el: Element): boolean => {
  for (let n: Node | null = el; n && n instanceof Element; n = composedParent(n)) {
    if (getComputedStyle(n).display === "none") return true;
    const parent = n.parentElement;
    if (parent?.shadowRoot && !n.assignedSlot) return true;
  }
  return false;
};
/** Rendered text of `el` including what its open shadow roots render (innerText leaves those out). */
export const deepText = (el: HTMLElement): string => {
  const parts = [el.innerText ?? el.textContent ?? ""];
  for (const shadow of shadowRootsIn(el)) {
    // innerText of an element that is not rendered is its whole textContent: a component hidden by
    // its host's display: none (a filtered-out list item) would read as shown.
    if (unrendered(shadow.host)) continue;
    for (const child of Array.from(shadow.children)) {
      if (child instanceof HTMLElement && !(child instanceof HTMLStyleElement) && !(child instanceof HTMLScriptElement) && !unrendered(child))
        parts.push(child.innerText);
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

/**
 * Leaving, or set aside from what a user works with: inside an `aria-hidden="true"` or `inert`
 * subtree (composed tree). A closing popover keeps its listbox in the DOM so marked while it
 * animates out (MUI), and a modal popup so marks the page behind it. Such an element counts for a
 * label only when nothing else answers to it (the resolver's live-first rule).
 */
export const isLeaving = (el: Element): boolean => {
  for (let n: Node | null = el; n; n = composedParent(n)) {
    if (n instanceof Element && (n.getAttribute("aria-hidden") === "true" || n.hasAttribute("inert"))) return true;
  }
  return false;
};

/** Visible (isVisible) and not leaving (isLeaving): what a label names first. */
export const isLive = (el: Element): boolean => isVisible(el) && !isLeaving(el);

/** The elements below `root` in the composed tree: its shadow tree, and what its slots show (assigned light children). */
export const composedElements = (root: Element): Element[] => {
  const out: Element[] = [];
  const walk = (n: Element) => {
    const kids =
      n instanceof HTMLSlotElement && n.assignedElements({ flatten: true }).length > 0
        ? n.assignedElements({ flatten: true })
        : Array.from((n.shadowRoot ?? n).children);
    for (const k of kids) {
      out.push(k);
      walk(k);
    }
  };
  walk(root);
  return out;
};
