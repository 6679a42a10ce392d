// Page-side shaping scripts, injected before any page script runs (Page.addScriptToEvaluateOnNewDocument)
// by Function.toString: each function is self-contained and takes its data as arguments.

/**
 * Pins the wall clock: `Date.now()` and `new Date()` answer `atMs` on every call, `Date()` the
 * matching string; dates built from explicit parts are untouched. Timers keep running.
 */
export function installClock(atMs: number): void {
  const RealDate = Date;
  class PinnedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(atMs);
      else super(...(args as [string]));
    }
    static override now(): number {
      return atMs;
    }
  }
  // `Date()` called without `new` returns a string of the current time.
  const pinned = new Proxy(PinnedDate, { apply: () => new RealDate(atMs).toString() });
  Object.defineProperty(globalThis, "Date", { value: pinned, writable: true, configurable: true, enumerable: false });
}

/** Replaces `Math.random` with a seeded generator (mulberry32): the same seed gives the same draws on every page load. */
export function installRandom(seed: number): void {
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  Object.defineProperty(Math, "random", { value: random, writable: true, configurable: true, enumerable: false });
}

/** Seeds localStorage of the top document when it belongs to `origin` (once: the driver removes this script after the first document). */
export function seedLocalStorage(origin: string, items: Readonly<Record<string, string>>): void {
  // A local file's origin is `file://` in Chromium and `null` in Firefox: a file page is told by its protocol.
  const here = globalThis.location.protocol === "file:" ? "file://" : globalThis.location.origin;
  if (globalThis.top !== globalThis.self || here !== origin) return;
  try {
    for (const [key, value] of Object.entries(items)) globalThis.localStorage.setItem(key, value);
  } catch {
    // Storage disabled for this document (opaque origin, quota): the page then sees no seed,
    // which the flow's own assertions reveal; an init script must never break the page.
  }
}
