// Page-side iframes and the fence around the page API: a framed ladder is answered by the frame's
// own page API (installed there on first use), scope errors become answers, and value assignment
// and scrolling, which frames need too.
import type { FramedPayload } from "../../../src/plugins/api.ts";
import type { Rung, ScopeAnswer, ScopeMethods, ScrollRequest } from "./protocol.ts";
import { isDisabled, describe } from "./roles.ts";
import { isVisible, norm } from "./dom.ts";
import { resolve } from "./resolver.ts";
import { installerOf } from "./installer.ts";
import { innerRung, q, ScopeError, tierOf } from "./scopes.ts";

/** The page script's own source (see installer.ts), to install it into a frame that lacks it. */
declare const __flowproofSource: string;

// ------------------------------------------------------------------ frames

export const frameLabel = (f: Element) => {
  for (const a of ["title", "name", "id", "aria-label"]) {
    const v = f.getAttribute(a);
    if (v) return `${a}=${q(v)}`;
  }
  const src = f.getAttribute("src");
  return src ? `src=${q(src)}` : "an unnamed frame";
};

type FrameApi = Record<string, (req: unknown) => unknown>;
export const enterFrame = (p: FramedPayload): { frame: HTMLIFrameElement; api: FrameApi } => {
  const frames = Array.from(document.querySelectorAll("iframe, frame")) as HTMLIFrameElement[];
  let matched: HTMLIFrameElement[];
  let name: string;
  if (p.frame_css !== undefined) {
    name = `"css:${p.frame_css}"`;
    matched = (Array.from(document.querySelectorAll(p.frame_css)) as HTMLIFrameElement[]).filter((f) => f.tagName === "IFRAME" || f.tagName === "FRAME");
  } else {
    const want = norm(p.frame_text ?? "");
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
  if (matched.length > 1)
    throw new ScopeError("ambiguous", `${matched.length} iframes match ${name} (${matched.map(frameLabel).join(", ")}); name one with "css:…"`);
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
  if (!win.__flowproof) win.eval(installerOf(__flowproofSource));
  if (!win.__flowproof) throw new ScopeError("not-found", `the iframe ${name} is still loading`);
  return { frame, api: win.__flowproof };
};

// ------------------------------------------------------------------ value assignment and scroll

export const assignValue = (req: { ladder: readonly Rung[]; value: string }): ScopeAnswer => {
  const found = resolve(req.ladder);
  if (!found.el) return { ok: false, failed: "not-found", detail: found.detail };
  const el = found.el as HTMLInputElement;
  const tag = el.tagName;
  if (tag !== "TEXTAREA" && !(tag === "INPUT" && !["submit", "button", "reset", "image", "checkbox", "radio", "file", "hidden"].includes(el.type))) {
    return { ok: false, failed: "editable", detail: `${describe(el)} is not a text field` };
  }
  if (!isVisible(el)) return { ok: false, failed: "visible", detail: `${describe(el)} is present but not visible` };
  if (isDisabled(el)) return { ok: false, failed: "enabled", detail: `${describe(el)} is disabled` };
  if (el.readOnly) return { ok: false, failed: "editable", detail: `${describe(el)} is read-only` };
  el.focus();
  // The prototype's setter, so frameworks that track the value (React) see the change.
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), "value")?.set;
  if (setter) setter.call(el, req.value);
  else el.value = req.value;
  el.dispatchEvent(new Event("input", { bubbles: true }));
  el.dispatchEvent(new Event("change", { bubbles: true }));
  if (el.value !== req.value) {
    return {
      ok: false,
      failed: "unsupported",
      detail: `${describe(el)} did not keep the value: the page rewrote it (it now holds ${el.value.length} characters, ${req.value.length} were set)`,
    };
  }
  return { ok: true, value: "", tier: found.tier };
};

export const isScrollable = (el: Element) => {
  if (el === el.ownerDocument.scrollingElement) return el.scrollHeight > el.clientHeight;
  const overflow = getComputedStyle(el).overflowY;
  return (overflow === "auto" || overflow === "scroll" || overflow === "overlay") && el.scrollHeight > el.clientHeight;
};

export const scroll = (req: ScrollRequest): ScopeAnswer => {
  const to = req.to;
  let target: Element;
  let tier = "page";
  if (!req.ladder || req.ladder.length === 0) target = document.scrollingElement ?? document.documentElement;
  else {
    const found = resolve(req.ladder);
    if (!found.el) return { ok: false, failed: "not-found", detail: found.detail };
    target = found.el;
    tier = found.tier;
  }
  if (to.into_view) {
    target.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" as ScrollBehavior });
    const r = target.getBoundingClientRect();
    const inView = r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
    return inView ? { ok: true, value: "", tier } : { ok: false, failed: "visible", detail: `${describe(target)} did not come into view` };
  }
  if (typeof to.to_px === "number" || typeof to.to_pct === "number") return scrollBy(target, to, tier);
  if (to.to === "left" || to.to === "right") return scrollAcross(target, to.to, tier);
  let box: Element | null = target;
  while (box && !isScrollable(box)) box = box.parentElement;
  const container = box ?? document.scrollingElement ?? document.documentElement;
  const top = to.to === "bottom" ? container.scrollHeight : 0;
  container.scrollTo({ top, behavior: "instant" as ScrollBehavior });
  const max = container.scrollHeight - container.clientHeight;
  const reached = to.to === "bottom" ? Math.abs(max - container.scrollTop) <= 1 : container.scrollTop <= 1;
  return reached
    ? { ok: true, value: String(container.scrollTop), tier }
    : { ok: false, failed: "unsupported", detail: `${describe(container)} stopped at ${Math.round(container.scrollTop)} px` };
};

/** The scrolling box's extent on one axis: its offset now, how far it scrolls, and the words for a message. */
const axisOf = (el: Element, x: boolean) => ({
  at: () => (x ? el.scrollLeft : el.scrollTop),
  max: x ? el.scrollWidth - el.clientWidth : el.scrollHeight - el.clientHeight,
  content: x ? el.scrollWidth : el.scrollHeight,
  view: x ? el.clientWidth : el.clientHeight,
  go: (px: number) => el.scrollTo({ [x ? "left" : "top"]: px, behavior: "instant" as ScrollBehavior }),
  across: x ? " across" : "",
});

/** `to <n>px` or `to <n>%` on one axis (`axis: "x"`: across), verified ±1 px. */
const scrollBy = (target: Element, to: ScrollRequest["to"], tier: string): ScopeAnswer => {
  const a = axisOf(target, to.axis === "x");
  if (a.max <= 0)
    return { ok: false, failed: "unsupported", detail: `${describe(target)} does not scroll${a.across}: its content fits (${a.content} px in ${a.view} px)` };
  const px = typeof to.to_px === "number" ? to.to_px : Math.round((a.max * (to.to_pct ?? 0)) / 100);
  a.go(px);
  if (Math.abs(a.at() - px) > 1) {
    return {
      ok: false,
      failed: "unsupported",
      detail: `${describe(target)} stopped at ${Math.round(a.at())} px${a.across}, short of ${px} px (it scrolls at most ${a.max} px)`,
    };
  }
  return { ok: true, value: String(a.at()), tier };
};

/** `to the left|right`: the target, or the nearest box around it that scrolls across, to that edge. */
const scrollAcross = (target: Element, edge: "left" | "right", tier: string): ScopeAnswer => {
  let box: Element | null = target;
  while (
    box &&
    !(box.scrollWidth > box.clientWidth && getComputedStyle(box).overflowX !== "visible" && getComputedStyle(box).overflowX !== "hidden") &&
    box !== document.scrollingElement
  )
    box = box.parentElement;
  const container = box ?? document.scrollingElement ?? document.documentElement;
  const a = axisOf(container, true);
  a.go(edge === "right" ? a.max : 0);
  const reached = edge === "right" ? Math.abs(a.max - a.at()) <= 1 : a.at() <= 1;
  return reached
    ? { ok: true, value: String(a.at()), tier }
    : { ok: false, failed: "unsupported", detail: `${describe(container)} stopped at ${Math.round(a.at())} px across` };
};

// ------------------------------------------------------------------ the fence

/** A scope error as the answer shape of the method that hit it. */
export const answerFor = (method: string, req: unknown, e: ScopeError): unknown => {
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

export const fence = <T extends object>(api: T): T & ScopeMethods => {
  const inner: Record<string, unknown> = { ...api, assignValue, scroll };
  const out: Record<string, unknown> = {};
  for (const [method, fn] of Object.entries(inner)) {
    if (typeof fn !== "function") continue;
    out[method] = (req: unknown) => {
      try {
        const ladder = (req as { ladder?: readonly Rung[] } | undefined)?.ladder;
        const first = ladder?.[0];
        const framed = first && "kind" in first.payload && first.payload.kind === "framed" ? first.payload : undefined;
        if (first && framed) {
          const { frame, api: frameApi } = enterFrame(framed);
          const pointer = method === "probe" || method === "focusForTyping";
          if (pointer) {
            const r = frame.getBoundingClientRect();
            if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
              frame.scrollIntoView({ block: "center", behavior: "instant" as ScrollBehavior });
          }
          const answer = frameApi[method]!({ ...(req as object), ladder: [{ tier: first.tier, payload: innerRung(framed) }] });
          if (pointer && answer && typeof answer === "object" && (answer as { ok?: boolean }).ok === true) {
            // Frame-viewport coordinates to page-viewport ones: the frame's content box offset.
            const r = frame.getBoundingClientRect();
            const style = getComputedStyle(frame);
            const a = answer as { x: number; y: number };
            return {
              ...a,
              x: a.x + r.left + frame.clientLeft + parseFloat(style.paddingLeft),
              y: a.y + r.top + frame.clientTop + parseFloat(style.paddingTop),
            };
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
