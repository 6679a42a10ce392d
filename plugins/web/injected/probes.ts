// Page-side actionability probes and reads: where to click a target and whether it would receive
// the click (visible, still, enabled, on top), focusing a field to type into, and what it reads.
import type { Candidate, ProbeAnswer, ProbeRequest, Rung, ValueAnswer } from "./protocol.ts";
import { clippedBy, composedParent, containsComposed, deepHit, describeBox, isLeaving, isShown, isVisible, scrollToSee } from "./dom.ts";
import { checkedOf, describe, describeCover, isButton, isDisabled, isField, isLink, kindOf, labelledControl, reaches } from "./roles.ts";
import { resolve, resolveRung } from "./resolver.ts";
import { valueOf } from "./values.ts";

export const GEOMETRY = /^(transform|translate|rotate|scale|top|left|right|bottom|width|height|margin.*|inset.*|offset.*)$/;
/**
 * The animations that may show `el`: the document's own, and those of every shadow root `el` is
 * shown through (a document's list leaves shadow trees out): its own root's and each composed ancestor's.
 */
const animationsAround = (el: Element): Animation[] => {
  const roots = new Set<Document | ShadowRoot>([document]);
  for (let n: Node | null = el; n; n = composedParent(n)) {
    const root = n.getRootNode();
    if (root instanceof ShadowRoot) roots.add(root);
  }
  return [...roots].flatMap((r) => (r.getAnimations ? r.getAnimations() : []));
};

export const isMoving = (el: Element) => {
  for (const a of animationsAround(el)) {
    if (a.playState !== "running") continue;
    const effect = a.effect as KeyframeEffect | null;
    const target = effect?.target;
    // In the composed tree: a web component's popup animates in its shadow root while the options
    // it shows are slotted in from the light DOM (Shoelace's sl-select).
    if (!target || !containsComposed(target, el)) continue;
    if (a instanceof CSSTransition) {
      if (GEOMETRY.test(a.transitionProperty)) return true;
      continue;
    }
    const frames = effect.getKeyframes();
    if (frames.some((f) => Object.keys(f).some((k) => GEOMETRY.test(k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))))) return true;
  }
  return false;
};

/** The element itself when it is draggable (draggable="true"), else its nearest draggable composed ancestor, else itself. */
export const draggableOf = (el: Element): Element => {
  for (let n: Node | null = el; n; n = composedParent(n)) {
    if (!(n instanceof Element)) continue;
    const attr = n.getAttribute("draggable");
    if (attr === "true") return n;
    if (attr === "false") break;
  }
  return el;
};

/**
 * A class or style change this recent on a pointer target, or on what holds it, may still move it:
 * motion libraries set a dialog's phases a frame apart (laid out in place, then shrunk to where
 * its animation starts, then animated), and between two of them no animation runs yet.
 */
const RESTYLED_MS = 50;
/** Changes that keep coming for this long are the page's own churn (a ticking style), never waited for. */
const CHURN_MS = 1_000;
/** When each element's class or style last changed, and since when it has kept changing. */
const restyled = new WeakMap<Node, { readonly since: number; readonly last: number }>();
if (typeof MutationObserver !== "undefined" && typeof document !== "undefined") {
  new MutationObserver((records) => {
    const now = performance.now();
    for (const r of records) {
      const seen = restyled.get(r.target);
      restyled.set(r.target, { since: seen && now - seen.last < 2 * RESTYLED_MS ? seen.since : now, last: now });
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["class", "style"] });
}

/** The nearest of `el` and its composed ancestors restyled within RESTYLED_MS (and not churning), with how long ago; or null. */
const restyledAround = (el: Element): { readonly by: Element; readonly ago: number } | null => {
  const now = performance.now();
  for (let n: Node | null = el; n; n = composedParent(n)) {
    const seen = restyled.get(n);
    if (seen && now - seen.last < RESTYLED_MS && now - seen.since < CHURN_MS && n instanceof Element) return { by: n, ago: now - seen.last };
  }
  return null;
};

export const probe = (req: ProbeRequest): ProbeAnswer => probeFound(req, resolve(req.ladder));

export const probeFound = (req: ProbeRequest, found: ReturnType<typeof resolve>): ProbeAnswer => {
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
  if (req.purpose === "pointer" || req.purpose === "drag") {
    const changed = restyledAround(el);
    if (changed) {
      const what = changed.by === el ? "its class or style" : `the class or style of ${describeBox(changed.by)}, which holds it,`;
      return {
        ok: false,
        failed: "stable",
        precaution: true,
        detail: `${describe(el)} may still be moving: ${what} changed ${Math.round(changed.ago)} ms ago`,
      };
    }
  }
  if (req.purpose !== "read" && isDisabled(el)) return { ok: false, failed: "enabled", detail: `${describe(el)} is disabled` };
  // Every scrolling box around it (and the page) is scrolled to bring it into view first.
  const rect = scrollToSee(el, "center", req.at);
  const clip = clippedBy(el);
  if (clip)
    return { ok: false, failed: "visible", detail: `${describe(el)} is present but cut off by ${describeBox(clip)}, which does not scroll it into view` };
  const xPct = req.at ? req.at.xPct : 50;
  const yPct = req.at ? req.at.yPct : 50;
  const x = rect.left + (rect.width * xPct) / 100;
  const y = rect.top + (rect.height * yPct) / 100;
  // Clamp click-at points on the far edges into the box.
  const cx = Math.min(Math.max(x, rect.left + 0.5), rect.right - 0.5);
  const cy = Math.min(Math.max(y, rect.top + 0.5), rect.bottom - 0.5);
  if (req.purpose === "pointer" || req.purpose === "drag") {
    const hit = deepHit(cx, cy);
    if (!reaches(el, hit)) {
      return {
        ok: false,
        failed: "receives-pointer",
        detail: `${describe(el)} would not receive the click: ${hit ? describeCover(hit) : "nothing"} is on top at (${Math.round(cx)}, ${Math.round(cy)})`,
      };
    }
  }
  if (req.guard && req.purpose === "pointer") armClick(el);
  const checked = checkedOf(found.el);
  return { ok: true, tier: found.tier, x: cx, y: cy, tag: el.tagName.toLowerCase(), kind: kindOf(found.el), ...(checked === undefined ? {} : { checked }) };
};

/** How long after the probe a guarded click's events are checked: the click follows at once. */
const GUARD_MS = 2_000;
/** The pointer and mouse events of one click, a double click's and a right click's. */
const CLICK_EVENTS = ["pointerdown", "mousedown", "pointerup", "mouseup", "click", "dblclick", "auxclick", "contextmenu"];

/**
 * The click a probe just found its point for: its target, and what its first press landed on when
 * that was not the target. Between the probe and the press the page can still change (a dialog's
 * opening animation moving its buttons away from under the point): such a click is kept from the
 * page, the press and everything after it, and reported (`clickLanded`), so the attempt is tried
 * again rather than clicking whatever took the target's place (a dialog's backdrop, which closes it).
 */
let guard: { readonly el: Element; readonly until: number; pressed: boolean; clicked: boolean; missed?: string } | null = null;

/** Whether the point lies outside the element's box (a pixel of rounding allowed). */
const outside = (el: Element, x: number, y: number) => {
  const r = el.getBoundingClientRect();
  return x < r.left - 1 || x > r.right + 1 || y < r.top - 1 || y > r.bottom + 1;
};

const onClickEvent = (ev: Event) => {
  const g = guard;
  if (!g || performance.now() > g.until) return;
  // The first press decides; then the first click, which goes to what the press and the release
  // share: when that is not the target and the point is no longer over it, the target moved away
  // from under the pointer (a popup or a pointer-events lock the press set up over a target still
  // under the point is the app's design; a label's click on its control comes after). A target the
  // app rendered anew is not judged.
  const hit = ev.composedPath()[0];
  const judged = hit instanceof Element && g.el.isConnected && g.missed === undefined;
  if (!g.pressed && (ev.type === "pointerdown" || ev.type === "mousedown")) {
    g.pressed = true;
    if (judged && !reaches(g.el, hit)) g.missed = `${describe(g.el)} did not receive the click: ${describeCover(hit)} was on top when it landed`;
  } else if (g.pressed && !g.clicked && ev.type === "click") {
    g.clicked = true;
    const { clientX, clientY } = ev as MouseEvent;
    if (judged && !reaches(g.el, hit) && outside(g.el, clientX, clientY))
      g.missed = `${describe(g.el)} moved away from under the pointer while it was pressed: the click went to ${describeCover(hit)}`;
  }
  if (g.missed !== undefined) {
    ev.preventDefault();
    ev.stopImmediatePropagation();
  }
};
// Installed with the page script, before the app's own listeners on the window.
if (typeof window !== "undefined") for (const type of CLICK_EVENTS) window.addEventListener(type, onClickEvent, { capture: true });

/** Guards the click about to land on `el` (the top document's only: a frame's clicks are not asked about). */
const armClick = (el: Element) => {
  guard = window.top === window ? { el, until: performance.now() + GUARD_MS, pressed: false, clicked: false } : null;
};

/** What the last guarded click's press landed on, when not its target: the sentence, or null. Ends the guard. */
export const clickLanded = (): string | null => {
  const missed = guard?.missed ?? null;
  guard = null;
  return missed;
};

/** A finite animation that ends this soon is waited for before typing (a dialog closing takes a few hundred ms). */
const CLOSING_MS = 2_000;

/**
 * What `el` is inside of that a finite animation or transition, ending within CLOSING_MS, still
 * runs on (a dialog closing), or null.
 */
const closingAround = (el: Element): Element | null => {
  for (const a of animationsAround(el)) {
    if (a.playState !== "running") continue;
    const target = (a.effect as KeyframeEffect | null)?.target;
    if (!target || !containsComposed(target, el)) continue;
    const timing = a.effect?.getComputedTiming();
    const left = Number(timing?.endTime) - Number(timing?.localTime ?? 0);
    if (Number.isFinite(left) && left <= CLOSING_MS) return target;
  }
  return null;
};

/** The element with keyboard focus (through open shadow roots), or null when the page itself has it. */
const focusedElement = (): Element | null => {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return !active || active === document.body || active === document.documentElement ? null : active;
};

/** Focus that went to nothing this recently (a dialog's button hidden as it closed) may still be placed by the page. */
const UNPLACED_MS = 100;
/** When the keyboard focus last left an element for nothing (focusout without a next element). */
let unplacedAt = Number.NEGATIVE_INFINITY;
if (typeof window !== "undefined")
  window.addEventListener(
    "focusout",
    (ev) => {
      if ((ev as FocusEvent).relatedTarget === null) unplacedAt = performance.now();
    },
    { capture: true },
  );

/** The field the last `focusForTyping` focused, for `typingLost`. */
let typingInto: HTMLElement | null = null;

export const focusForTyping = (req: ProbeRequest): ProbeAnswer => {
  typingInto = null;
  const found = resolve(req.ladder);
  const answer = probeFound({ ...req, purpose: "type" }, found);
  if (!answer.ok) return answer;
  const el = found.el as HTMLElement;
  if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.readOnly) {
    return {
      ok: false,
      failed: "editable",
      detail: `${describe(el)} is read-only: a user cannot type into it either; click it and choose from what it opens (a date picker's day, a list's option)`,
    };
  }
  if (el instanceof HTMLSelectElement) {
    return { ok: false, failed: "editable", detail: `${describe(el)} is a dropdown, not a text field; write \`Select <option> from the "…" dropdown\`` };
  }
  if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el.isContentEditable)) {
    return { ok: false, failed: "editable", detail: `${describe(el)} is not a text field` };
  }
  // The focus still in something animating out (a dialog closing): the page may move it when the
  // animation ends (back to the dialog's opener), taking the keys typed meanwhile.
  const holder = focusedElement();
  const closing = holder && holder !== el && !containsComposed(el, holder) && !containsComposed(holder, el) ? closingAround(holder) : null;
  if (closing) {
    return {
      ok: false,
      failed: "stable",
      precaution: true,
      detail: `the keyboard focus is still in ${describeBox(closing)}, which is animating (the page may move the focus when it ends)`,
    };
  }
  // The focus just left for nothing (a dialog closed): the page may be about to give it back to
  // where the dialog was opened from.
  const unplaced = performance.now() - unplacedAt;
  if (!holder && unplaced < UNPLACED_MS) {
    return {
      ok: false,
      failed: "stable",
      precaution: true,
      detail: `the keyboard focus left for nothing ${Math.round(unplaced)} ms ago (the page may be placing it)`,
    };
  }
  el.focus();
  typingInto = el;
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

/**
 * Whether the keyboard focus left the field `focusForTyping` focused while `length` characters were
 * typed into it, and the field did not get them all: the page moved the focus on its own (a
 * dialog closing gives it back to its opener once its animation ends). Focus passed on to another
 * field is the page's design (a code's boxes, one per digit), never lost. The sentence, or null.
 */
export const typingLost = (req: { length: number }): string | null => {
  const el = typingInto;
  if (!el?.isConnected) return null;
  const active = focusedElement();
  if (active && (active === el || containsComposed(el, active) || ((active as HTMLElement).isContentEditable && active.contains(el)) || isField(active)))
    return null;
  const held = [...(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value : (el.textContent ?? ""))].length;
  if (held >= req.length) return null;
  return `${describeBox(el)} lost the keyboard focus to ${active ? describe(active) : "the page"} while the text was typed (it holds ${held} of ${req.length} characters)`;
};

export const read = (req: { ladder: readonly Rung[] }): ValueAnswer => {
  const found = resolve(req.ladder);
  if (!found.el) return { ok: false, failed: "not-found", detail: found.detail };
  return { ok: true, value: valueOf(found.el), tier: found.tier };
};

/** How many elements the ladder names that are visible (isShown), from the first rung that names any. */
export const count = (req: { ladder: readonly Rung[] }): number => {
  for (const rung of req.ladder) {
    const n = resolveRung(rung).filter(isShown).length;
    if (n > 0) return n;
  }
  return 0;
};

/**
 * The distinct visible elements a plain label names (the ladder's first rung, a text rung without
 * an ordinal), described, in document order; an element inside another candidate, a listbox its
 * combobox controls, and a component's shadow insides are the same target and are left out.
 * Empty for any other ladder.
 */
export const candidates = (req: { ladder: readonly Rung[] }): Candidate[] => {
  const rung = req.ladder[0];
  if (!rung || !("text" in rung.payload) || rung.payload.nth !== undefined) return [];
  // Elements leaving (a closing popover's listbox, a page set aside by a modal popup) are left out while any other matches.
  const shown = resolveRung(rung).filter(isVisible);
  const live = shown.filter((el) => !isLeaving(el));
  const visible = live.length > 0 ? live : shown;
  // A label and the control it names are one target: a <label> (or its text, `<label><input
  // type=radio><span>Pro</span></label>`) stands for its control, and an element another
  // candidate is aria-labelledby stands for that candidate.
  const targetOf = (el: Element): Element => {
    const label = el.closest("label");
    const control = labelledControl(el) ?? (label && !isButton(el) && !isField(el) && !isLink(el) ? labelledControl(label) : null);
    if (control) return control;
    const labelled = el.id ? visible.find((o) => o !== el && (o.getAttribute("aria-labelledby") ?? "").split(/\s+/).includes(el.id)) : undefined;
    return labelled ?? el;
  };
  const kept: { el: Element; nth: number }[] = [];
  for (const [i, found] of visible.entries()) {
    const el = targetOf(found);
    if (!kept.some((k) => k.el === el || containsComposed(k.el, el) || containsComposed(el, k.el) || oneWidget(k.el, el) || oneComponent(k.el, el)))
      kept.push({ el, nth: i + 1 });
  }
  return kept.map((k) => ({ nth: k.nth, what: describe(k.el) }));
};

/** The elements `el` names in `aria-controls` / `aria-owns`, looked up in its own tree first. */
const controlled = (el: Element): Element[] => {
  const ids = `${el.getAttribute("aria-controls") ?? ""} ${el.getAttribute("aria-owns") ?? ""}`.split(/\s+/).filter((id) => id !== "");
  const root = el.getRootNode() as Document | ShadowRoot;
  return ids.map((id) => root.getElementById?.(id) ?? document.getElementById(id)).filter((c): c is HTMLElement => c !== null);
};

/** A combobox and the listbox it controls are one dropdown. */
const oneWidget = (a: Element, b: Element): boolean => controlled(a).includes(b as HTMLElement) || controlled(b).includes(a as HTMLElement);

/** Every shadow host whose shadow tree holds `el`, innermost first. */
const hostsOf = (el: Element): Element[] => {
  const hosts: Element[] = [];
  for (let root = el.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) hosts.push(root.host);
  return hosts;
};

/**
 * A component and its own insides are one target: a control inside a component's shadow tree (a
 * dialog's close icon) and the component itself or what the page put into it (the dialog's own
 * Close button, slotted in) name the same thing. Two controls both inside one component's shadow
 * tree (an app shell's) stay distinct.
 */
const oneComponent = (a: Element, b: Element): boolean => {
  const lightIn = (x: Element, host: Element) => (x === host || containsComposed(host, x)) && !hostsOf(x).includes(host);
  return hostsOf(b).some((h) => lightIn(a, h)) || hostsOf(a).some((h) => lightIn(b, h));
};

export const checkedState = (req: { ladder: readonly Rung[] }): ValueAnswer => {
  const found = resolve(req.ladder);
  if (!found.el) return { ok: false, failed: "not-found", detail: found.detail };
  const c = checkedOf(found.el);
  if (c === undefined) return { ok: false, failed: "unsupported", detail: `${describe(found.el)} is not a checkbox, radio or switch` };
  return { ok: true, value: String(c), tier: found.tier };
};

export const hovered = (req: { ladder: readonly Rung[]; x: number; y: number }): ValueAnswer => {
  const found = resolve(req.ladder);
  if (!found.el) return { ok: false, failed: "not-found", detail: found.detail };
  // Chromium recomputes :hover lazily after layout moves, so the point must still hit the target too.
  const landed = found.el.matches(":hover") && reaches(found.el, deepHit(req.x, req.y));
  return { ok: true, value: String(landed), tier: found.tier };
};

export const fileInput = (req: { ladder: readonly Rung[] }): HTMLInputElement | string => {
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
