// Page-side assertion readings: one answer per expectation (text, url, title, visibility,
// emptiness, counts, checked/enabled state, attributes, computed styles).
import type { CheckAnswer, CheckRequest } from "./protocol.ts";
import { clippedBy, deepQueryAll, deepText, describeBox, isShown, isVisible, lower, norm, short } from "./dom.ts";
import { checkedOf, describe, isDisabled, selectedOf } from "./roles.ts";
import { resolve, resolveRung } from "./resolver.ts";
import { valueOf } from "./values.ts";

const surfaceText = (): string => {
  const parts = [document.body ? deepText(document.body) : ""];
  for (const el of deepQueryAll(document, "[aria-label]")) {
    if (isVisible(el)) parts.push(el.getAttribute("aria-label") ?? "");
  }
  return parts.join("\n");
};

const occurrences = (hay: string, needle: string) => {
  if (!needle) return 0;
  let n = 0;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) n++;
  return n;
};

const containsLadder = (hay: string, needle: string) => {
  const h = norm(hay);
  const w = norm(needle);
  return h.includes(w) || lower(h).includes(lower(w));
};

const parseNumber = (s: string): number | undefined => {
  const cleaned = s.replace(/[^0-9.\-]/g, "");
  if (cleaned === "" || cleaned === "-" || cleaned === ".") return undefined;
  const n = Number(cleaned);
  return Number.isFinite(n) ? n : undefined;
};

/**
 * `page url is`: a whole URL (with `://`) compares the whole URL; a path compares the path, plus
 * the query when the expected value has a `?` and the fragment when it has a `#`. `actual` is a
 * clause naming what was compared, and the whole URL when only part of it was.
 */
const urlMatches = (expected: string): { pass: boolean; actual: string } => {
  const here = new URL(location.href);
  if (expected.includes("://")) return { pass: location.href === expected, actual: `it is ${location.href}` };
  let compared = here.pathname;
  const parts = ["path"];
  if (expected.includes("?")) {
    compared += here.search;
    parts.push("query");
  }
  if (expected.includes("#")) {
    compared += here.hash;
    parts.push("fragment");
  }
  const what = parts.length === 1 ? "its path is" : `its ${parts.join(" and ")} are`;
  const whole = compared === location.href ? "" : ` (the whole URL is ${location.href})`;
  return { pass: compared === expected, actual: `${what} ${compared}${whole}` };
};

/** The page's local or session storage, or why it cannot be read (an opaque origin, storage disabled). */
const storageArea = (area: "local" | "session"): Storage | string => {
  try {
    return area === "local" ? window.localStorage : window.sessionStorage;
  } catch {
    return `${area} storage cannot be read on ${location.href}`;
  }
};

/** The keys the page's local or session storage holds, for a message. */
const keysOf = (store: Storage): string[] => Array.from({ length: store.length }, (_, i) => store.key(i)).filter((k): k is string => k !== null);
const keyList = (keys: readonly string[]) => (keys.length > 0 ? keys.map((k) => JSON.stringify(short(k))).join(", ") : "none");

/** The page's local or session storage holds exactly `want` (any order). */
const storageKeys = (area: "local" | "session", want: readonly string[]): CheckAnswer => {
  const store = storageArea(area);
  if (typeof store === "string") return { pass: false, actual: store };
  const keys = keysOf(store);
  const extra = keys.filter((k) => !want.includes(k));
  const missing = want.filter((k) => !keys.includes(k));
  const parts = [...(extra.length > 0 ? [`it also holds ${keyList(extra)}`] : []), ...(missing.length > 0 ? [`it has no ${keyList(missing)}`] : [])];
  return {
    pass: extra.length === 0 && missing.length === 0,
    actual: `${area} storage holds the keys ${keyList(keys)}${parts.length > 0 ? ` (${parts.join("; ")})` : ""}`,
  };
};

/** The page's local or session storage under `key`: whether its value contains `text` (or, `exact`, is it), and what it holds. */
const storageReading = (area: "local" | "session", key: string, text: string, exact = false): CheckAnswer => {
  const store = storageArea(area);
  if (typeof store === "string") return { pass: false, actual: store };
  const value = store.getItem(key);
  if (value === null) {
    const keys = Array.from({ length: store.length }, (_, i) => store.key(i)).filter((k): k is string => k !== null);
    return {
      pass: false,
      actual: `${area} storage has no key ${JSON.stringify(key)} (keys: ${keys.length > 0 ? keys.map((k) => JSON.stringify(short(k))).join(", ") : "none"})`,
    };
  }
  return { pass: exact ? value === text : containsLadder(value, text), actual: `it holds ${JSON.stringify(short(value))}` };
};

/** The page's local or session storage holds nothing under `key`. */
const storageAbsent = (area: "local" | "session", key: string): CheckAnswer => {
  const store = storageArea(area);
  if (typeof store === "string") return { pass: false, actual: store };
  const value = store.getItem(key);
  return {
    pass: value === null,
    actual:
      value === null
        ? `${area} storage has no key ${JSON.stringify(key)}`
        : `${area} storage holds ${JSON.stringify(short(value))} under ${JSON.stringify(key)}`,
  };
};

/** The element that has keyboard focus, looked up through open shadow roots. */
const deepActiveElement = (): Element | null => {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
};

/** How the focused element reads in a message, or that nothing has focus. */
const focusNow = (): string => {
  const active = deepActiveElement();
  return !active || active === document.body || active === document.documentElement ? "nothing has keyboard focus" : `${describe(active)} has keyboard focus`;
};

export const check = (req: CheckRequest): CheckAnswer => {
  const e = req.expect;
  if (e.kind === "storage_absent") return storageAbsent(e.area, e.key);
  if (e.kind === "url") {
    if (e.op === "contains") return { pass: location.href.includes(e.value), actual: `it is ${location.href}` };
    return urlMatches(e.value);
  }
  if (e.kind === "storage") return storageReading(e.area, e.key, e.text, e.exact === true);
  if (e.kind === "storage_keys") return storageKeys(e.area, e.keys);
  if (e.kind === "title") {
    const t = norm(document.title);
    return { pass: e.op === "equals" ? t === norm(e.value) : t.includes(e.value), actual: t };
  }
  if (!req.ladder || req.ladder.length === 0) {
    const text = surfaceText();
    if (e.kind === "text_contains") {
      if (e.count === undefined) return { pass: containsLadder(text, e.text), actual: short(norm(text)) };
      const exact = occurrences(norm(text), norm(e.text));
      const ci = occurrences(lower(norm(text)), lower(norm(e.text)));
      return { pass: exact === e.count || ci === e.count, actual: `${exact === 0 ? ci : exact} times` };
    }
    if (e.kind === "text_absent") return { pass: !containsLadder(text, e.text), actual: short(norm(text)) };
    return { pass: false, actual: `the ${e.kind} check needs a target` };
  }
  if (e.kind === "count") {
    let n = 0;
    for (const rung of req.ladder) {
      n = resolveRung(rung).filter(isShown).length;
      if (n > 0) break;
    }
    return { pass: n === e.count, actual: `found ${n}` };
  }
  const found = resolve(req.ladder);
  if (!found.el) {
    if (e.kind === "visible" && !e.visible) return { pass: true, actual: "absent" };
    return { pass: false, actual: `never appeared (${found.detail})` };
  }
  const el = found.el;
  const tier = found.tier;
  switch (e.kind) {
    case "visible": {
      const rendered = isVisible(el);
      const clip = rendered ? clippedBy(el) : null;
      const v = rendered && clip === null;
      const actual = v
        ? "visible"
        : clip
          ? `present but outside the visible area of ${describeBox(clip)} (scrolled or clipped out of it)`
          : "present but not rendered";
      return { pass: v === e.visible, actual, tier };
    }
    case "text_contains": {
      const value = valueOf(el);
      return { pass: containsLadder(value, e.text), actual: JSON.stringify(short(value)), tier };
    }
    case "text_absent": {
      const value = valueOf(el);
      return { pass: !containsLadder(value, e.text), actual: JSON.stringify(short(value)), tier };
    }
    case "text_equals": {
      const value = norm(valueOf(el));
      return { pass: value === norm(e.text), actual: JSON.stringify(short(value)), tier };
    }
    case "focused": {
      // A component host matches :focus while focus is inside its shadow tree.
      const has = el.matches(":focus");
      return { pass: has === e.focused, actual: has ? `it has keyboard focus` : focusNow(), tier };
    }
    case "numeric_equals": {
      const value = valueOf(el);
      const n = parseNumber(value);
      return { pass: n !== undefined && Math.abs(n - e.value) < 1e-9, actual: JSON.stringify(short(value)), tier };
    }
    case "number_compare": {
      const value = valueOf(el);
      const n = parseNumber(value);
      const holds = n !== undefined && (e.op === "gt" ? n > e.value : e.op === "lt" ? n < e.value : e.op === "ge" ? n >= e.value : n <= e.value);
      return { pass: holds, actual: n === undefined ? `${JSON.stringify(short(value))}, which is not a number` : JSON.stringify(short(value)), tier };
    }
    case "empty": {
      const value = norm(valueOf(el));
      return { pass: (value === "") === e.empty, actual: value === "" ? "empty" : JSON.stringify(short(value)), tier };
    }
    case "checked": {
      const c = checkedOf(el);
      if (c === undefined) return { pass: false, actual: `${describe(el)} is not a checkbox, radio or switch`, tier };
      return { pass: c === e.checked, actual: c ? "checked" : "not checked", tier };
    }
    case "selected": {
      const s = selectedOf(el);
      if (s === undefined) return { pass: false, actual: `${describe(el)} is not a tab, option or item that can be selected (no aria-selected)`, tier };
      return { pass: s === e.selected, actual: s ? "selected" : "not selected", tier };
    }
    case "enabled": {
      const d = isDisabled(el);
      return { pass: d !== e.enabled, actual: d ? "disabled" : "enabled", tier };
    }
    case "attribute": {
      const v = attributeOf(el, e.name);
      const same = v === e.value;
      return { pass: e.negate ? !same : same, actual: v === null ? `it has no attribute ${e.name}` : `${e.name} is ${JSON.stringify(short(v))}`, tier };
    }
    case "attribute_present": {
      const v = attributeOf(el, e.name);
      return { pass: (v !== null) === e.present, actual: v === null ? `it has no attribute ${e.name}` : `it has ${e.name}=${JSON.stringify(short(v))}`, tier };
    }
    case "style": {
      const v = getComputedStyle(el).getPropertyValue(e.prop).trim();
      const same = styleEquals(e.prop, v, e.value);
      return { pass: e.negate ? !same : same, actual: `${e.prop} is ${v}`, tier };
    }
    default:
      return { pass: false, actual: `unsupported check ${(e as { kind: string }).kind}` };
  }
};

/** Attribute names are case-insensitive in HTML; values compare exactly. */
const attributeOf = (el: Element, name: string): string | null => {
  const want = lower(name);
  for (const a of Array.from(el.attributes)) if (lower(a.name) === want) return a.value;
  return null;
};

/** A colour as the browser computes it (`rgb(…)`/`rgba(…)`), so `red`, `#f00` and `rgb(255, 0, 0)` agree. */
const canonicalColor = (value: string): string | null => {
  const probeEl = document.createElement("span");
  probeEl.style.color = "";
  probeEl.style.color = value;
  if (probeEl.style.color === "") return null;
  probeEl.style.display = "none";
  (document.body ?? document.documentElement).appendChild(probeEl);
  const c = getComputedStyle(probeEl).color;
  probeEl.remove();
  return c.replace(/\s+/g, "").replace(/^rgba\((\d+),(\d+),(\d+),1\)$/, "rgb($1,$2,$3)");
};

const styleEquals = (prop: string, actual: string, expected: string): boolean => {
  if (prop === "color" || prop === "background-color") {
    const a = canonicalColor(actual);
    const b = canonicalColor(expected);
    return a !== null && a === b;
  }
  return lower(actual.trim()) === lower(expected.trim());
};
