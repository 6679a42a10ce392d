// Step effects in the plugin contract (re-exported by api.ts): what an adapter observes one action
// do, and how a request or a URL is written as an effect. See docs/trace-format.md, "Effects".

/**
 * Kinds of effect an adapter can observe around an action (see docs/trace-format.md, "Effects"):
 * a navigation, a request it sent, a native dialog, a download, the target's own state, focus, the DOM.
 */
export type EffectKind = "navigation" | "request" | "dialog" | "download" | "target" | "focus" | "dom";

/**
 * What one action did, as observed. Never a body, a query value or a field's value: a request is
 * its method and normalised path (`effectPath`), a target change names only which state changed.
 */
export interface ObservedEffect {
  /** The normalised path of the document or URL the action navigated to. */
  readonly navigated?: string;
  /** `METHOD /normalised/path` of every request the action sent, in order, without repeats. */
  readonly requests?: readonly string[];
  /** The type of the native dialog it opened: alert, confirm, prompt, beforeunload. */
  readonly dialog?: string;
  readonly download?: boolean;
  /** Which of the target's own states changed: value, checked, selected, expanded, open. */
  readonly target?: readonly string[];
  /** Focus moved to another element. */
  readonly focus?: boolean;
  /** The DOM changed near the target (`near`), or only elsewhere (`page`). */
  readonly dom?: "near" | "page";
}

/** One reading of an effect watch: what happened so far, and how long nothing has happened. */
export interface EffectReading {
  /** What the step did: record writes this. */
  readonly effect: ObservedEffect;
  /**
   * Everything seen, the app's own work included (a timer's DOM change, a router's navigation):
   * replay checks a recorded effect against this, so that whether the app's own work happened to
   * carry the step's change never decides a verdict. Absent: the same as `effect`.
   */
  readonly withAppsOwn?: ObservedEffect;
  /** Milliseconds since the last observed activity; 0 while a request or a navigation is in flight. */
  readonly idleMs: number;
  /** Nothing more can happen (the action's effect is complete once it returned): the engine stops waiting. */
  readonly final?: boolean;
}

/** Observes what one action does, from just before it until `stop`. */
export interface EffectWatch {
  /** The kinds this watch observes: replay never judges a kind that was not observed at record and at replay. */
  readonly kinds: readonly EffectKind[];
  /** One reading (one attempt, answers at once). */
  read(): Promise<EffectReading>;
  /** Ends the watch and releases what it installed. */
  stop(): Promise<void>;
  /**
   * A surface that observes the requests its own steps send (`api`): a request a structured step
   * sent and got an answer to while the watch was open, as it was sent (first hop of a redirect).
   * Absent: the surface does not observe structured steps, and they are not observed at all.
   */
  sent?(method: string, url: string): void;
}

/** The methods whose requests count as writes (state-changing); every other method is a read. */
export const WRITE_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** True for POST, PUT, PATCH and DELETE (any case). */
export const isWriteMethod = (method: string): boolean => WRITE_METHODS.has(method.toUpperCase());

/**
 * The watch of a surface that observes no kind of effect: its steps record `observes: []`, so
 * replay never judges them (the desktop adapters, whose input effects are not observed yet).
 */
export function observingNothing(): EffectWatch {
  return { kinds: [], read: async () => ({ effect: {}, idleMs: Number.POSITIVE_INFINITY, final: true }), stop: async () => undefined };
}

/** A request's method and URL as an effect: `POST /api/orders/:id` — no origin, no query, no fragment; ids and tokens become `:id`. */
export function effectRequest(method: string, url: string): string {
  return `${method.toUpperCase()} ${effectPath(url)}`;
}

/** A URL's path with numeric, UUID and hex segments, and any of six or more characters holding two or more digits (an order number, a token; `subscribe-v2` is kept), as `:id`; no origin, query or fragment. */
export function effectPath(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url.replace(/[?#].*$/s, "");
  }
  return path
    .split("/")
    .map((seg) =>
      /^\d+$/.test(seg) ||
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(seg) ||
      /^[0-9a-f]{12,}$/i.test(seg) ||
      (seg.length >= 6 && /\d.*\d/.test(seg))
        ? ":id"
        : seg,
    )
    .join("/");
}
