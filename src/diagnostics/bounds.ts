// The longest wait flowproof accepts wherever a duration is authored (`within`, `timeout_seconds`,
// FLOWPROOF_*_MS) or recorded (a trace's `timeout_ms`). A leaf: no I/O, imports nothing.

/**
 * One day. Anything longer is refused when the flow loads (a JavaScript timer cannot hold more
 * than about 24.8 days, and a longer bound would overflow to an immediate failure).
 * @see docs/authoring.md
 */
export const MAX_TIMEOUT_SECONDS = 86_400;
export const MAX_TIMEOUT_MS = MAX_TIMEOUT_SECONDS * 1000;

/** How the maximum reads in a message: `86400 s (24 h)`. */
export const MAX_TIMEOUT_TEXT = `${MAX_TIMEOUT_SECONDS} s (${MAX_TIMEOUT_SECONDS / 3600} h)`;

/** True when a bound in milliseconds is one a timer can hold: finite, not negative, at most MAX_TIMEOUT_MS. */
export const isHoldableMs = (ms: number): boolean => Number.isFinite(ms) && ms >= 0 && ms <= MAX_TIMEOUT_MS;
