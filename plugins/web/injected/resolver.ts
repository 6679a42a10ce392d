// Page-side target resolution: a selector ladder to the element it names (text, css, id, and the
// structural rungs scopes.ts answers), first rung that names anything wins.
import type { Rung } from "./protocol.ts";
import { containsDeep, cssEscapeId, deepQueryAll, isLeaving, isLive, isVisible, lower, norm, PLACEHOLDERS, placeholderOf, shadowRootsIn } from "./dom.ts";
import { BUTTON_INPUTS, labelledControl, toRole } from "./roles.ts";

/** Resolves `cell` and `scoped` rungs (scopes.ts); set once when the page API is installed. */
let structural: ((rung: Rung) => Element[]) | undefined;
export function useStructural(resolveStructural: (rung: Rung) => Element[]): void {
  structural = resolveStructural;
}

export const ownText = (el: Element) => {
  let s = "";
  for (const n of Array.from(el.childNodes)) if (n.nodeType === Node.TEXT_NODE) s += n.textContent ?? "";
  return norm(s);
};

/** The text of the elements `aria-labelledby` names (looked up in the element's own tree first). */
export const labelledByText = (el: Element): string => {
  const ids = (el.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter((id) => id !== "");
  if (ids.length === 0) return "";
  const root = el.getRootNode() as Document | ShadowRoot;
  return norm(
    ids
      .map((id) => (root.getElementById ? root.getElementById(id) : null) ?? document.getElementById(id))
      .map((l) => l?.textContent ?? "")
      .join(" "),
  );
};

/** Names an element answers to, besides its subtree text. */
export const namesOf = (el: Element): string[] => {
  const names = [ownText(el)];
  const aria = el.getAttribute("aria-label");
  if (aria) names.push(norm(aria));
  const by = labelledByText(el);
  if (by) names.push(by);
  const ph = placeholderOf(el);
  if (ph) names.push(norm(ph));
  if (el instanceof HTMLInputElement && BUTTON_INPUTS.includes(el.type)) names.push(norm(el.value || (el.type === "submit" ? "Submit" : "")));
  const title = el.getAttribute("title");
  if (title) names.push(norm(title));
  if (el instanceof HTMLImageElement && el.alt) names.push(norm(el.alt));
  return names.filter((n) => n !== "");
};

/** 0 exact, 1 prefix, 2 case-insensitive exact, 3 case-insensitive prefix, -1 none. */
export const matchTier = (name: string, want: string, wantLower: string): number => {
  if (name === want) return 0;
  if (name.startsWith(want)) return 1;
  const nl = lower(name);
  if (nl === wantLower) return 2;
  if (nl.startsWith(wantLower)) return 3;
  return -1;
};

export const allElements = (root: Document | Element, roots?: readonly ShadowRoot[]): Element[] => deepQueryAll(root, "*", roots);

/**
 * Elements that could answer to `wantLower` by a name of their own: owners of a text node that
 * starts like it (own text must equal or start with the anchor), elements with naming
 * attributes, and labels. Native queries and a text-node walk instead of a pass over every element.
 */
export const nameCandidates = (root: Document | Element, wantLower: string, roots: readonly ShadowRoot[]): Set<Element> => {
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
  for (const el of deepQueryAll(root, `[aria-label], [aria-labelledby], ${PLACEHOLDERS}, [title], img[alt], input, label`, roots)) out.add(el);
  return out;
};

export const byText = (text: string, role: string | undefined, root: Document | Element): Element[] => {
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
    const control = labelledControl(el);
    if (control) {
      const t = matchTier(norm(el.textContent), want, wantLower);
      if (t !== -1) add(t, role ? toRole(control, role) : control);
    }
  }
  // Live matches (visible and not leaving) win at any tier; then visible ones; then any.
  const pick = (tiers: readonly Element[][], keep: (el: Element) => boolean): Element[] | undefined => {
    for (const bucket of tiers) {
      const kept = bucket.filter(keep);
      if (kept.length > 0) return kept;
    }
    return undefined;
  };
  const named = pick(buckets, isLive);
  if (named) return named;
  // Subtree text: innermost elements whose whole text matches (e.g. <button><b>Save</b> all</button>).
  const sub: Element[][] = [[], [], [], []];
  for (const el of allElements(root, roots)) {
    if (el instanceof HTMLScriptElement || el instanceof HTMLStyleElement || el.tagName === "HEAD" || el === document.body || el === document.documentElement)
      continue;
    // textContent needs no layout; hidden matches are filtered by visibility below.
    const t = matchTier(norm(el.textContent), want, wantLower);
    if (t === -1) continue;
    const mapped = toRole(el, role);
    if (!mapped) continue;
    const bucket = sub[t]!;
    for (let i = bucket.length - 1; i >= 0; i--) if (containsDeep(bucket[i]!, mapped)) bucket.splice(i, 1);
    if (!bucket.some((b) => containsDeep(mapped, b))) bucket.push(mapped);
  }
  return pick(sub, isLive) ?? pick(buckets, isVisible) ?? pick(sub, isVisible) ?? pick(buckets, () => true) ?? pick(sub, () => true) ?? [];
};

/** All elements a rung names, in document order, visible ones first; throws on a bad selector. */
export const resolveRung = (rung: Rung): Element[] => {
  const p = rung.payload;
  const role = p.role;
  let found: Element[];
  if ("css" in p) found = deepQueryAll(document, p.css);
  else if ("id" in p) {
    const id = cssEscapeId(p.id);
    const byId = document.getElementById(p.id) ?? deepQueryAll(document, `[id="${id}"]`)[0] ?? null;
    const byName = byId ? [] : deepQueryAll(document, `[name="${id}"]`);
    found = byId ? [byId] : byName;
  } else if ("text" in p) return byText(p.text, role, document);
  else if ("kind" in p && structural) return structural(rung);
  // A plain Error on purpose: page code (no flowproof module in the page); the fence turns it into the call's answer.
  else throw new Error(`unsupported selector payload ${JSON.stringify(p)}`);
  if (role) found = found.map((el) => toRole(el, role) ?? el);
  return visibleFirst(found);
};

/**
 * `found` with its live elements first (visible and not leaving), then the visible ones that are
 * leaving (`visible`, when already known), then the rest, each part in document order.
 */
export const visibleFirst = (found: Element[], visible: Element[] = found.filter(isVisible)): Element[] => {
  if (visible.length === 0) return found;
  const live = visible.filter((e) => !isLeaving(e));
  return [...live, ...visible.filter((e) => !live.includes(e)), ...found.filter((e) => !visible.includes(e))];
};

/** First rung that names anything wins; `nth` (1-based) picks among its matches. */
export const resolve = (ladder: readonly Rung[]): { el: Element; tier: string } | { el: null; detail: string } => {
  const tried: string[] = [];
  for (const rung of ladder) {
    const all = resolveRung(rung);
    const nth = rung.payload.nth ?? 1;
    const el = all[nth - 1];
    if (el) return { el, tier: rung.tier };
    tried.push(
      all.length > 0
        ? `${describeRung(rung)} matched only ${all.length} ${all.length === 1 ? "element" : "elements"}`
        : `${describeRung(rung)} matched nothing`,
    );
  }
  return { el: null, detail: tried.join("; ") || "empty selector ladder" };
};

export const describeRung = (rung: Rung) => {
  const p = rung.payload;
  const nth = p.nth !== undefined ? ` #${p.nth}` : "";
  if ("css" in p) return `css ${JSON.stringify(p.css)}${nth}`;
  if ("id" in p) return `id ${JSON.stringify(p.id)}${nth}`;
  return `text ${JSON.stringify("text" in p ? p.text : undefined)}${p.role !== undefined ? ` (${p.role})` : ""}${nth}`;
};
