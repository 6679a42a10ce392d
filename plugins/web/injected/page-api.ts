// Page-side script: resolves selector ladders, answers actionability probes and assertion
// readings, each in one round trip. Injected by source text (`installPageApi.toString()`), so it
// must be self-contained: no runtime imports, no references to anything outside the function body.
import type { Expectation } from "../../../src/plugins/api.ts";
import type { ScopeKit, Scopes } from "./scopes.ts";
import type { ReadingKit } from "./readings.ts";

/** Wire shapes shared with the driver (types only; erased at runtime). */
export interface Rung {
  readonly tier: string;
  readonly payload: Readonly<Record<string, unknown>>;
}
export type Purpose = "pointer" | "drag" | "type" | "read" | "check" | "select";
export interface ProbeRequest {
  readonly ladder: readonly Rung[];
  readonly purpose: Purpose;
  /** Click-at point in percent of the box. */
  readonly at?: { readonly xPct: number; readonly yPct: number } | undefined;
}
export type ProbeFailure = "not-found" | "visible" | "stable" | "enabled" | "editable" | "receives-pointer" | "unsupported" | "ambiguous";
export type ProbeAnswer =
  | { readonly ok: true; readonly tier: string; readonly x: number; readonly y: number; readonly tag: string; readonly kind: string; readonly checked?: boolean }
  | { readonly ok: false; readonly failed: ProbeFailure; readonly detail: string };
export interface CheckRequest {
  /** Absent = the whole page surface. */
  readonly ladder?: readonly Rung[] | undefined;
  readonly expect: Expectation;
}
export interface CheckAnswer {
  readonly pass: boolean;
  /** What was seen, for the failure message (already shortened). */
  readonly actual: string;
  readonly tier?: string;
}
export type ValueAnswer = { readonly ok: true; readonly value: string; readonly tier: string } | { readonly ok: false; readonly failed: ProbeFailure; readonly detail: string };

/**
 * One move of Select: the outcome, or a trusted click the driver makes before asking again
 * (`after` tells the page which click was made: the one that opens the popup, or the option's).
 */
export type SelectAnswer =
  | { readonly ok: true; readonly value: string; readonly tier: string }
  | { readonly ok: true; readonly click: { readonly x: number; readonly y: number; readonly what: "open" | "option" }; readonly tier: string }
  | { readonly ok: false; readonly failed: ProbeFailure; readonly detail: string; readonly retryable?: boolean };
export interface SelectRequest {
  readonly ladder: readonly Rung[];
  readonly values: readonly string[];
  readonly after?: "open" | "option" | undefined;
}

export interface PageApi {
  probe(req: ProbeRequest): ProbeAnswer;
  focusForTyping(req: ProbeRequest): ProbeAnswer;
  check(req: CheckRequest): CheckAnswer;
  read(req: { ladder: readonly Rung[] }): ValueAnswer;
  count(req: { ladder: readonly Rung[] }): number;
  select(req: SelectRequest): SelectAnswer;
  checkedState(req: { ladder: readonly Rung[] }): ValueAnswer;
  /** Whether the target is under the pointer (`:hover`) right now. */
  hovered(req: { ladder: readonly Rung[]; x: number; y: number }): ValueAnswer;
  /** The `<input type=file>` the ladder names (directly, through its label, or inside it); hidden inputs count. */
  fileInput(req: { ladder: readonly Rung[] }): HTMLInputElement | string;
}

/**
 * `makeScopes` (scopes.ts) adds cell, container and iframe targets; `makeReadings` (readings.ts)
 * answers assertion readings. Both are passed by source text alongside this function.
 */
export function installPageApi(makeScopes?: (kit: ScopeKit) => Scopes, makeReadings?: (kit: ReadingKit) => (req: CheckRequest) => CheckAnswer): PageApi {
  // Page text for a message is bounded here but shortened only by the engine, after it redacted
  // the secrets (SHOWN_TEXT_OPEN/CLOSE in src/engine/context.ts): a cut made here, before
  // redaction, could leave a secret's prefix in the message.
  const PAGE_TEXT_BOUND = 4096;
  const norm = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
  const short = (s: string) => `\uE000${s.length > PAGE_TEXT_BOUND ? `${s.slice(0, PAGE_TEXT_BOUND)}…` : s}\uE001`;
  const lower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

  /** The composed-tree (flat tree) parent: a slotted node's slot, a shadow root's host. */
  const composedParent = (n: Node): Node | null => {
    const slot = (n as Element | Text).assignedSlot;
    if (slot) return slot;
    const p = n.parentNode;
    return p instanceof ShadowRoot ? p.host : p;
  };
  /** What a box-less element (display: contents, a <slot>) renders: its assigned nodes, or else its children. */
  const renderedChildren = (el: Element): Node[] => {
    if (el instanceof HTMLSlotElement) {
      const assigned = el.assignedNodes();
      if (assigned.length > 0) return assigned;
    }
    return Array.from((el.shadowRoot ?? el).childNodes);
  };
  const textRect = (t: Node): DOMRect | undefined => {
    if (!(t.nodeValue ?? "").trim()) return undefined;
    const range = document.createRange();
    range.selectNodeContents(t);
    const r = range.getBoundingClientRect();
    return r.width > 0 || r.height > 0 ? r : undefined;
  };
  const isContents = (el: Element) => getComputedStyle(el).display === "contents";

  /**
   * The border box a user sees: an element's own, or for a box-less one (display: contents, a
   * <slot> and its fallback) the union of what it renders, text included. Zero-sized when nothing renders.
   */
  const boxOf = (el: Element): DOMRect => {
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

  const isVisible = (el: Element): boolean => {
    const rect = el.getBoundingClientRect();
    if (rect.width <= 0 && rect.height <= 0) {
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
  const shadowRootsIn = (root: Document | Element | ShadowRoot): ShadowRoot[] => {
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
  const deepQueryAll = (root: Document | Element, css: string, roots: readonly ShadowRoot[] = shadowRootsIn(root)): Element[] => {
    const found = Array.from(root.querySelectorAll(css));
    for (const shadow of roots) found.push(...Array.from(shadow.querySelectorAll(css)));
    return found;
  };
  /** `a.contains(b)` across shadow boundaries (b inside a's shadow tree counts). */
  const containsDeep = (a: Element, b: Node): boolean => {
    for (let n: Node | null = b; n; n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null)) if (n === a) return true;
    return false;
  };
  /** Rendered text of `el` including what its open shadow roots render (innerText leaves those out). */
  const deepText = (el: HTMLElement): string => {
    const parts = [el.innerText ?? el.textContent ?? ""];
    for (const shadow of shadowRootsIn(el)) {
      for (const child of Array.from(shadow.children)) {
        if (child instanceof HTMLElement && !(child instanceof HTMLStyleElement) && !(child instanceof HTMLScriptElement)) parts.push(child.innerText);
      }
    }
    return parts.join("\n");
  };

  const BUTTON_INPUTS = ["submit", "button", "reset", "image"];
  const NON_TEXT_INPUTS = [...BUTTON_INPUTS, "checkbox", "radio", "file", "hidden", "range", "color"];
  const roleOf = (el: Element) => el.getAttribute("role") ?? "";
  const isField = (el: Element) => {
    if (el instanceof HTMLInputElement) return !NON_TEXT_INPUTS.includes(el.type);
    if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
    if ((el as HTMLElement).isContentEditable) return true;
    return ["textbox", "searchbox", "combobox", "spinbutton"].includes(roleOf(el));
  };
  const isButton = (el: Element) =>
    el instanceof HTMLButtonElement ||
    (el instanceof HTMLInputElement && BUTTON_INPUTS.includes(el.type)) ||
    ["button", "menuitem", "tab", "link"].includes(roleOf(el)) ||
    el instanceof HTMLAnchorElement;
  const isCheckbox = (el: Element) =>
    (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) ||
    ["checkbox", "switch", "radio", "menuitemcheckbox"].includes(roleOf(el));
  const isDropdown = (el: Element) => el instanceof HTMLSelectElement || ["combobox", "listbox"].includes(roleOf(el));
  const isLink = (el: Element) => (el instanceof HTMLAnchorElement && el.hasAttribute("href")) || roleOf(el) === "link";
  const ROLE_TESTS: Record<string, (el: Element) => boolean> = {
    field: (el) => isField(el) || isDropdown(el),
    button: isButton,
    checkbox: isCheckbox,
    dropdown: isDropdown,
    link: isLink,
  };

  const labelledControl = (el: Element): Element | null => {
    if (el instanceof HTMLLabelElement) return el.control;
    return null;
  };

  /** Maps a matched element to the element of the requested role, or null. */
  const toRole = (el: Element, role: string | undefined): Element | null => {
    if (!role) return el;
    const test = ROLE_TESTS[role];
    if (!test) return el;
    if (test(el)) return el;
    const control = labelledControl(el);
    if (control && test(control)) return control;
    const inner = deepQueryAll(el, "*").filter(test);
    if (inner.length === 1) return inner[0]!;
    const up = el.closest("button, a, [role=button], [role=link], [role=tab], [role=menuitem]");
    if (up && test(up)) return up;
    return null;
  };

  const ownText = (el: Element) => {
    let s = "";
    for (const n of Array.from(el.childNodes)) if (n.nodeType === Node.TEXT_NODE) s += n.textContent ?? "";
    return norm(s);
  };

  /** The text of the elements `aria-labelledby` names (looked up in the element's own tree first). */
  const labelledByText = (el: Element): string => {
    const ids = (el.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter((id) => id !== "");
    if (ids.length === 0) return "";
    const root = el.getRootNode() as Document | ShadowRoot;
    return norm(ids.map((id) => (root.getElementById ? root.getElementById(id) : null) ?? document.getElementById(id)).map((l) => l?.textContent ?? "").join(" "));
  };

  /** Names an element answers to, besides its subtree text. */
  const namesOf = (el: Element): string[] => {
    const names = [ownText(el)];
    const aria = el.getAttribute("aria-label");
    if (aria) names.push(norm(aria));
    const by = labelledByText(el);
    if (by) names.push(by);
    const ph = el.getAttribute("placeholder");
    if (ph) names.push(norm(ph));
    if (el instanceof HTMLInputElement && BUTTON_INPUTS.includes(el.type)) names.push(norm(el.value || (el.type === "submit" ? "Submit" : "")));
    const title = el.getAttribute("title");
    if (title) names.push(norm(title));
    if (el instanceof HTMLImageElement && el.alt) names.push(norm(el.alt));
    return names.filter((n) => n !== "");
  };

  /** 0 exact, 1 prefix, 2 case-insensitive exact, 3 case-insensitive prefix, -1 none. */
  const matchTier = (name: string, want: string, wantLower: string): number => {
    if (name === want) return 0;
    if (name.startsWith(want)) return 1;
    const nl = lower(name);
    if (nl === wantLower) return 2;
    if (nl.startsWith(wantLower)) return 3;
    return -1;
  };

  const allElements = (root: Document | Element, roots?: readonly ShadowRoot[]): Element[] => deepQueryAll(root, "*", roots);

  /**
   * Elements that could answer to `wantLower` by a name of their own: owners of a text node that
   * starts like it (own text must equal or start with the anchor), elements with naming
   * attributes, and labels. Native queries and a text-node walk instead of a pass over every element.
   */
  const nameCandidates = (root: Document | Element, wantLower: string, roots: readonly ShadowRoot[]): Set<Element> => {
    // A superset test: toLowerCase on both sides also folds what the ASCII-only ladder would not.
    const head = wantLower.slice(0, 4).toLowerCase();
    const out = new Set<Element>();
    for (const r of [root, ...roots]) {
      const walker = document.createTreeWalker(r, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent instanceof HTMLScriptElement || parent instanceof HTMLStyleElement) continue;
        const value = node.nodeValue;
        if (value && value.toLowerCase().includes(head)) out.add(parent);
      }
    }
    for (const el of deepQueryAll(root, "[aria-label], [aria-labelledby], [placeholder], [title], img[alt], input, label", roots)) out.add(el);
    return out;
  };

  const byText = (text: string, role: string | undefined, root: Document | Element): Element[] => {
    const want = norm(text);
    const wantLower = lower(want);
    const buckets: Element[][] = [[], [], [], []];
    const add = (tier: number, el: Element | null) => {
      if (el && tier >= 0 && !buckets[tier]!.includes(el)) buckets[tier]!.push(el);
    };
    // The open shadow roots are found once per resolution and shared by both passes.
    const roots = shadowRootsIn(root);
    for (const el of nameCandidates(root, wantLower, roots)) {
      if (el instanceof HTMLScriptElement || el instanceof HTMLStyleElement || el.tagName === "TITLE" || el.tagName === "HEAD") continue;
      let best = -1;
      for (const n of namesOf(el)) {
        const t = matchTier(n, want, wantLower);
        if (t !== -1 && (best === -1 || t < best)) best = t;
      }
      if (best !== -1) add(best, toRole(el, role));
      if (el instanceof HTMLLabelElement && el.control) {
        const t = matchTier(norm(el.textContent), want, wantLower);
        if (t !== -1) add(t, role ? toRole(el.control, role) : el.control);
      }
    }
    for (const bucket of buckets) {
      const visible = bucket.filter(isVisible);
      if (visible.length > 0) return visible;
    }
    // Subtree text: innermost elements whose whole text matches (e.g. <button><b>Save</b> all</button>).
    const sub: Element[][] = [[], [], [], []];
    for (const el of allElements(root, roots)) {
      if (el instanceof HTMLScriptElement || el instanceof HTMLStyleElement || el.tagName === "HEAD" || el === document.body || el === document.documentElement) continue;
      // textContent needs no layout; hidden matches are filtered by visibility below.
      const t = matchTier(norm(el.textContent), want, wantLower);
      if (t === -1) continue;
      const mapped = toRole(el, role);
      if (!mapped) continue;
      const bucket = sub[t]!;
      for (let i = bucket.length - 1; i >= 0; i--) if (containsDeep(bucket[i]!, mapped)) bucket.splice(i, 1);
      if (!bucket.some((b) => containsDeep(mapped, b))) bucket.push(mapped);
    }
    for (const bucket of sub) {
      const visible = bucket.filter(isVisible);
      if (visible.length > 0) return visible;
    }
    for (const bucket of buckets) if (bucket.length > 0) return bucket;
    for (const bucket of sub) if (bucket.length > 0) return bucket;
    return [];
  };

  const cssEscapeId = (id: string) => (typeof CSS !== "undefined" && CSS.escape ? CSS.escape(id) : id);

  /** All elements a rung names, in document order, visible ones first; throws on a bad selector. */
  const resolveRung = (rung: Rung): Element[] => {
    const p = rung.payload;
    const role = typeof p["role"] === "string" ? (p["role"] as string) : undefined;
    let found: Element[];
    if (typeof p["css"] === "string") found = deepQueryAll(document, p["css"] as string);
    else if (typeof p["id"] === "string") {
      const id = cssEscapeId(p["id"] as string);
      const byId = document.getElementById(p["id"] as string) ?? deepQueryAll(document, `[id="${id}"]`)[0] ?? null;
      const byName = byId ? [] : deepQueryAll(document, `[name="${id}"]`);
      found = byId ? [byId] : byName;
    } else if (typeof p["text"] === "string") return byText(p["text"] as string, role, document);
    else if (typeof p["kind"] === "string" && scopes) return scopes.resolveStructural(rung);
    else throw new Error(`unsupported selector payload ${JSON.stringify(p)}`);
    if (role) found = found.map((el) => toRole(el, role) ?? el);
    const visible = found.filter(isVisible);
    return visible.length > 0 ? visible.concat(found.filter((e) => !visible.includes(e))) : found;
  };

  /** First rung that names anything wins; `nth` (1-based) picks among its matches. */
  const resolve = (ladder: readonly Rung[]): { el: Element; tier: string } | { el: null; detail: string } => {
    const tried: string[] = [];
    for (const rung of ladder) {
      const all = resolveRung(rung);
      const nth = typeof rung.payload["nth"] === "number" ? (rung.payload["nth"] as number) : 1;
      const el = all[nth - 1];
      if (el) return { el, tier: rung.tier };
      tried.push(all.length > 0 ? `${describeRung(rung)} matched only ${all.length}` : `${describeRung(rung)} matched nothing`);
    }
    return { el: null, detail: tried.join("; ") || "empty selector ladder" };
  };

  const describeRung = (rung: Rung) => {
    const p = rung.payload;
    const nth = typeof p["nth"] === "number" ? ` #${p["nth"]}` : "";
    if (typeof p["css"] === "string") return `css ${JSON.stringify(p["css"])}${nth}`;
    if (typeof p["id"] === "string") return `id ${JSON.stringify(p["id"])}${nth}`;
    return `text ${JSON.stringify(p["text"])}${typeof p["role"] === "string" ? ` (${p["role"]})` : ""}${nth}`;
  };

  const describe = (el: Element) => {
    const id = el.id ? `#${el.id}` : "";
    const text = norm((el as HTMLElement).innerText ?? el.textContent ?? "");
    return `<${el.tagName.toLowerCase()}${id}>${text ? ` "${short(text)}"` : ""}`;
  };

  const isDisabled = (el: Element) => {
    if ((el as HTMLButtonElement).disabled === true) return true;
    if (el.closest("[aria-disabled=true]")) return true;
    const fieldset = el.closest("fieldset");
    return !!fieldset && fieldset.disabled && !fieldset.querySelector("legend")?.contains(el);
  };

  const GEOMETRY = /^(transform|translate|rotate|scale|top|left|right|bottom|width|height|margin.*|inset.*|offset.*)$/;
  const isMoving = (el: Element) => {
    const anims = document.getAnimations ? document.getAnimations() : [];
    for (const a of anims) {
      if (a.playState !== "running") continue;
      const effect = a.effect as KeyframeEffect | null;
      const target = effect?.target;
      if (!target || !(target === el || target.contains(el))) continue;
      if (a instanceof CSSTransition) {
        if (GEOMETRY.test(a.transitionProperty)) return true;
        continue;
      }
      const frames = effect.getKeyframes();
      if (frames.some((f) => Object.keys(f).some((k) => GEOMETRY.test(k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))))) return true;
    }
    return false;
  };

  const deepHit = (x: number, y: number): Element | null => {
    let hit = document.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  };

  /** `b` is `a` or below it in the composed tree (slotted content counts as inside its slot). */
  const containsComposed = (a: Element, b: Node): boolean => {
    for (let n: Node | null = b; n; n = composedParent(n)) if (n === a) return true;
    return false;
  };

  /**
   * Whether a pointer hit at the target reaches it: the hit is the target or in its composed
   * subtree (slotted light DOM included), or the shadow host of the target's own tree (a point on
   * slotted text is reported as the host), or, for a box-less target, the box it renders in. A
   * real overlay (any other element) does not count.
   */
  const receives = (el: Element, hit: Element | null) => {
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

  const kindOf = (el: Element) =>
    el instanceof HTMLInputElement ? `input:${el.type}` : el instanceof HTMLSelectElement ? "select" : el.tagName.toLowerCase();

  const checkedOf = (el: Element): boolean | undefined => {
    if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) return el.checked;
    const aria = el.getAttribute("aria-checked");
    if (aria === "true") return true;
    if (aria === "false") return false;
    return undefined;
  };

  /** The element itself when it is draggable (draggable="true"), else its nearest draggable composed ancestor, else itself. */
  const draggableOf = (el: Element): Element => {
    for (let n: Node | null = el; n; n = composedParent(n)) {
      if (!(n instanceof Element)) continue;
      const attr = n.getAttribute("draggable");
      if (attr === "true") return n;
      if (attr === "false") break;
    }
    return el;
  };

  const inViewport = (r: DOMRect) => r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;

  const probe = (req: ProbeRequest): ProbeAnswer => probeFound(req, resolve(req.ladder));

  const probeFound = (req: ProbeRequest, found: ReturnType<typeof resolve>): ProbeAnswer => {
    if (!found.el) return { ok: false, failed: "not-found", detail: found.detail };
    let el = found.el;
    // A visually hidden styled checkbox is operated through its visible label, as a user would.
    if (!isVisible(el) && el instanceof HTMLInputElement && el.labels) {
      const label = Array.from(el.labels).find(isVisible);
      if (label) el = label;
    }
    // A native drag starts from the draggable element: a label inside a draggable tile means the tile.
    if (req.purpose === "drag") el = draggableOf(el);
    if (!isVisible(el)) return { ok: false, failed: "visible", detail: `${describe(el)} is present but not visible` };
    if (isMoving(el)) return { ok: false, failed: "stable", detail: `${describe(el)} is still moving (a CSS animation or transition is running)` };
    if (req.purpose !== "read" && isDisabled(el)) return { ok: false, failed: "enabled", detail: `${describe(el)} is disabled` };
    let rect = boxOf(el);
    if (!inViewport(rect)) {
      el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" as ScrollBehavior });
      rect = boxOf(el);
    }
    const xPct = req.at ? req.at.xPct : 50;
    const yPct = req.at ? req.at.yPct : 50;
    const x = rect.left + (rect.width * xPct) / 100;
    const y = rect.top + (rect.height * yPct) / 100;
    // Clamp click-at points on the far edges into the box.
    const cx = Math.min(Math.max(x, rect.left + 0.5), rect.right - 0.5);
    const cy = Math.min(Math.max(y, rect.top + 0.5), rect.bottom - 0.5);
    if (req.purpose === "pointer" || req.purpose === "drag") {
      const hit = deepHit(cx, cy);
      if (!receives(el, hit)) {
        return { ok: false, failed: "receives-pointer", detail: `${describe(el)} would not receive the click: ${hit ? describe(hit) : "nothing"} is on top at (${Math.round(cx)}, ${Math.round(cy)})` };
      }
    }
    const checked = checkedOf(found.el);
    return { ok: true, tier: found.tier, x: cx, y: cy, tag: el.tagName.toLowerCase(), kind: kindOf(found.el), ...(checked === undefined ? {} : { checked }) };
  };

  const focusForTyping = (req: ProbeRequest): ProbeAnswer => {
    const found = resolve(req.ladder);
    const answer = probeFound({ ...req, purpose: "type" }, found);
    if (!answer.ok) return answer;
    const el = found.el as HTMLElement;
    if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.readOnly) {
      return { ok: false, failed: "editable", detail: `${describe(el)} is read-only` };
    }
    if (el instanceof HTMLSelectElement) {
      return { ok: false, failed: "editable", detail: `${describe(el)} is a dropdown, not a text field; write \`Select <option> from the "…" dropdown\`` };
    }
    if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el.isContentEditable)) {
      return { ok: false, failed: "editable", detail: `${describe(el)} is not a text field` };
    }
    el.focus();
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      try {
        el.setSelectionRange(0, el.value.length);
      } catch {
        el.select(); // number/email inputs do not support setSelectionRange
      }
    } else {
      const range = document.createRange();
      range.selectNodeContents(el);
      const sel = getSelection();
      sel?.removeAllRanges();
      sel?.addRange(range);
    }
    return answer;
  };

  const valueOf = (el: Element): string => {
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return el.value;
    if (el instanceof HTMLSelectElement) return Array.from(el.selectedOptions).map((o) => norm(o.text)).join(", ");
    if (roleOf(el) === "listbox") return optionsOf(el).filter((o) => o.getAttribute("aria-selected") === "true").map(optionLabel).join(", ");
    if (roleOf(el) === "combobox") return shownText(el);
    return norm(deepText(el as HTMLElement));
  };

  const read = (req: { ladder: readonly Rung[] }): ValueAnswer => {
    const found = resolve(req.ladder);
    if (!found.el) return { ok: false, failed: "not-found", detail: found.detail };
    return { ok: true, value: valueOf(found.el), tier: found.tier };
  };

  const count = (req: { ladder: readonly Rung[] }): number => {
    for (const rung of req.ladder) {
      const n = resolveRung(rung).filter(isVisible).length;
      if (n > 0) return n;
    }
    return 0;
  };

  // ---- ARIA comboboxes and listboxes (design systems, web components) ----

  /** The rendered text of a control, its popup listbox left out (walks the composed tree). */
  const shownText = (el: Element): string => {
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
  const optionsOf = (listbox: Element): Element[] => deepQueryAll(listbox, "[role=option]");
  const optionLabel = (o: Element): string => norm(o.getAttribute("aria-label")) || norm(deepText(o as HTMLElement)) || norm(o.textContent);
  const byIds = (el: Element, attr: string): Element[] => {
    const root = el.getRootNode() as Document | ShadowRoot;
    return (el.getAttribute(attr) ?? "").split(/\s+/).filter((id) => id !== "").map((id) => (root.getElementById ? root.getElementById(id) : null) ?? document.getElementById(id)).filter((x): x is HTMLElement => x !== null);
  };
  /** The listbox a combobox controls: aria-controls / aria-owns, inside it (its shadow root too), or beside it. */
  const listboxOf = (control: Element, anyVisible: boolean): Element | null => {
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
  const pickOption = (options: readonly Element[], want: string): Element | undefined => {
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
  const holds = (control: Element, label: string): boolean => {
    const want = lower(norm(label));
    if (roleOf(control) === "listbox") return optionsOf(control).some((o) => o.getAttribute("aria-selected") === "true" && lower(optionLabel(o)) === want);
    const value = (control as Element & { value?: unknown }).value;
    if (typeof value === "string" && lower(norm(value)) === want) return true;
    return lower(shownText(control)) === want;
  };
  const kindWord = (el: Element): string =>
    isCheckbox(el) ? "a checkbox" : isLink(el) ? "a link" : isButton(el) ? "a button" : isField(el) ? "a text field" : `a <${el.tagName.toLowerCase()}> with no dropdown role`;
  const notDropdown = (el: Element): SelectAnswer => {
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
  const clickOn = (el: Element, what: "open" | "option", tier: string): SelectAnswer => {
    if (!isVisible(el)) return { ok: false, failed: "visible", detail: `${describe(el)} is present but not visible` };
    if (isDisabled(el)) return { ok: false, failed: "enabled", detail: `${describe(el)} is disabled` };
    let rect = boxOf(el);
    if (!inViewport(rect)) {
      el.scrollIntoView({ block: what === "option" ? "nearest" : "center", inline: "nearest", behavior: "instant" as ScrollBehavior });
      rect = boxOf(el);
    }
    const x = rect.left + rect.width / 2;
    const y = rect.top + rect.height / 2;
    const hit = deepHit(x, y);
    if (!receives(el, hit)) {
      return { ok: false, failed: "receives-pointer", detail: `${describe(el)} would not receive the click: ${hit ? describe(hit) : "nothing"} is on top at (${Math.round(x)}, ${Math.round(y)})` };
    }
    return { ok: true, click: { x, y, what }, tier };
  };

  /** Select on an ARIA combobox or listbox: open it, click the option by its label, verify it holds. */
  const selectAria = (control: Element, req: SelectRequest, tier: string): SelectAnswer => {
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

  const select = (req: SelectRequest): SelectAnswer => {
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

  const checkedState = (req: { ladder: readonly Rung[] }): ValueAnswer => {
    const found = resolve(req.ladder);
    if (!found.el) return { ok: false, failed: "not-found", detail: found.detail };
    const c = checkedOf(found.el);
    if (c === undefined) return { ok: false, failed: "unsupported", detail: `${describe(found.el)} is not a checkbox, radio or switch` };
    return { ok: true, value: String(c), tier: found.tier };
  };

  const hovered = (req: { ladder: readonly Rung[]; x: number; y: number }): ValueAnswer => {
    const found = resolve(req.ladder);
    if (!found.el) return { ok: false, failed: "not-found", detail: found.detail };
    // Chromium recomputes :hover lazily after layout moves, so the point must still hit the target too.
    const landed = found.el.matches(":hover") && receives(found.el, deepHit(req.x, req.y));
    return { ok: true, value: String(landed), tier: found.tier };
  };

  const fileInput = (req: { ladder: readonly Rung[] }): HTMLInputElement | string => {
    // A file input is not a text `field`, so the role noun is read here rather than by the resolver.
    const found = resolve(req.ladder.map((r) => ({ tier: r.tier, payload: Object.fromEntries(Object.entries(r.payload).filter(([k]) => k !== "role")) })));
    if (!found.el) return found.detail;
    const isFile = (el: Element | null): el is HTMLInputElement => el instanceof HTMLInputElement && el.type === "file";
    const el = found.el;
    if (isFile(el)) return el;
    if (el instanceof HTMLLabelElement && isFile(el.control)) return el.control;
    const inside = Array.from(el.querySelectorAll("input[type=file]")).filter(isFile);
    if (inside.length === 1) return inside[0]!;
    const near = el.closest("label");
    if (near && isFile(near.control)) return near.control;
    return `${describe(el)} is not a file input (Upload needs an <input type="file">)`;
  };

  const check: (req: CheckRequest) => CheckAnswer = makeReadings
    ? makeReadings({ norm, lower, short, isVisible, isDisabled, describe, resolve, resolveRung, valueOf, checkedOf, deepQueryAll, deepText })
    : () => ({ pass: false, actual: "the page's assertion readings are not installed" });
  const api: PageApi = { probe, focusForTyping, check, read, count, select, checkedState, hovered, fileInput };
  const scopes = makeScopes ? makeScopes({ byText, toRole, isVisible, isDisabled, resolve, describe, installer: installPageApi, readings: makeReadings }) : undefined;
  Object.defineProperty(globalThis, "__flowproof", { value: scopes ? scopes.fence(api) : api, configurable: true, enumerable: false, writable: true });
  return api;
}
