// The plugin contract's request shapes a driver answers (re-exported by api.ts, the only module a
// plugin imports): what `check` reads and compares, and where `scroll` goes. Pure types.

/** Expectations, with every `${…}` already resolved by the engine. */
export type Expectation =
  /** The element's text (the whole surface's, for an empty ladder) contains `text`; with `count`, exactly that many elements show it. */
  | { readonly kind: "text_contains"; readonly text: string; readonly count?: number }
  /** Nothing the ladder names (the whole surface, for an empty ladder) shows `text`. */
  | { readonly kind: "text_absent"; readonly text: string }
  /** The page's address equals or contains `value` (grammar form `page_url`). */
  | { readonly kind: "url"; readonly op: "equals" | "contains"; readonly value: string }
  /** The page's or window's title equals or contains `value` (grammar form `title`). */
  | { readonly kind: "title"; readonly op: "equals" | "contains"; readonly value: string }
  /** The element's text read as a number equals `value` (assertion sugar such as `display shows 8`). */
  | { readonly kind: "numeric_equals"; readonly value: number }
  /** The field is (or is not) empty. */
  | { readonly kind: "empty"; readonly empty: boolean }
  /** The element is (or is not) visible. */
  | { readonly kind: "visible"; readonly visible: boolean }
  /** Exactly `count` elements match the ladder. */
  | { readonly kind: "count"; readonly count: number }
  /** The checkbox or radio is (or is not) checked. */
  | { readonly kind: "checked"; readonly checked: boolean }
  /** A tab, a list or tree item, an option: whether it is the selected one. */
  | { readonly kind: "selected"; readonly selected: boolean }
  /** The control is enabled (or disabled). */
  | { readonly kind: "enabled"; readonly enabled: boolean }
  /** Exact, case-sensitive attribute value (name case-insensitive); `negate` passes when absent. */
  | { readonly kind: "attribute"; readonly name: string; readonly value: string; readonly negate: boolean }
  /** The element has (or has not) the attribute `name`. */
  | { readonly kind: "attribute_present"; readonly name: string; readonly present: boolean }
  /** Computed style; colours compare canonically (named, #rgb, #rrggbb, rgb(), rgba()). */
  | { readonly kind: "style"; readonly prop: string; readonly value: string; readonly negate: boolean }
  /** A cookie fact for the page's URL; never the cookie's value. `negate`: not set / set without the flag. Needs the `cookies` capability. */
  | { readonly kind: "cookie"; readonly name: string; readonly fact: "exists" | "http_only" | "secure" | "persistent"; readonly negate?: boolean }
  /** A cookie's domain (a leading dot and case ignored) or path, for the page's URL. Needs the `cookies` capability. */
  | { readonly kind: "cookie_where"; readonly name: string; readonly attribute: "domain" | "path"; readonly value: string }
  /** How many cookies the page's URL has. Needs the `cookies` capability. */
  | { readonly kind: "cookie_count"; readonly count: number }
  /** The page's localStorage / sessionStorage value under `key` contains `text` (a web page's origin). */
  | { readonly kind: "storage"; readonly area: "local" | "session"; readonly key: string; readonly text: string; readonly exact?: boolean }
  /** The element's text read as a number is greater than (`gt`), less than (`lt`), at least (`ge`) or at most (`le`) `value`. */
  | { readonly kind: "number_compare"; readonly op: "gt" | "lt" | "ge" | "le"; readonly value: number }
  /** The page's localStorage / sessionStorage holds exactly `keys` (any order; empty: nothing). */
  | { readonly kind: "storage_keys"; readonly area: "local" | "session"; readonly keys: readonly string[] }
  /** The page's localStorage / sessionStorage holds nothing under `key`. */
  | { readonly kind: "storage_absent"; readonly area: "local" | "session"; readonly key: string }
  /** The element's whole text or value, trimmed and with white space collapsed, equals `text` (case-sensitive). */
  | { readonly kind: "text_equals"; readonly text: string }
  /** The element has (or has not) keyboard focus. */
  | { readonly kind: "focused"; readonly focused: boolean };

/** Where `Scroll` goes: a container edge, the element into view, or an exact scrollTop in px (verified ±1 px). */
export type ScrollTo =
  | { readonly to: "top" | "bottom" | "left" | "right" }
  | { readonly into_view: true }
  | { readonly to_px: number; readonly axis?: "x" }
  /** 0–100 of how far the box scrolls on that axis. */
  | { readonly to_pct: number; readonly axis?: "x" };
