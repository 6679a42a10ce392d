// Request ↔ recorded turn, strictly by body: each turn is consumed once, the earliest unconsumed
// turn with an equal body wins, and a request that equals none is a divergence described against
// the earliest unconsumed turn — its envelope (model, tool names, roles) first, then the first
// field-level differences (`book.flight.id: recorded KQ311, replayed KQ999`). Pure.
import { asProtocol, readRequest, type Protocol } from "./dialects.ts";

export interface RecordedTurn {
  readonly protocol: string;
  readonly request: unknown;
}

export type MatchResult = { readonly ok: true; readonly index: number } | { readonly ok: false; readonly detail: string };

/** Deep equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const show = (v: unknown): string => (v === undefined ? "(absent)" : typeof v === "string" ? v : JSON.stringify(v));

/** A string holding JSON (tool arguments, a tool result) is compared as the value it holds. */
function asJson(v: unknown): unknown {
  if (typeof v !== "string" || !/^\s*[[{]/.test(v)) return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** Field-level differences, `path: recorded X, replayed Y`, in document order; at most `limit`. */
export function fieldDiff(recorded: unknown, replayed: unknown, limit = 5, path = ""): string[] {
  const out: string[] = [];
  const walk = (a: unknown, b: unknown, at: string): void => {
    if (out.length >= limit) return;
    const x = asJson(a);
    const y = asJson(b);
    if (jsonEqual(x, y)) return;
    const objects = typeof x === "object" && x !== null && typeof y === "object" && y !== null && Array.isArray(x) === Array.isArray(y);
    if (!objects) {
      out.push(`${at || "(body)"}: recorded ${show(x)}, replayed ${show(y)}`);
      return;
    }
    const keys = Array.isArray(x)
      ? Array.from({ length: Math.max(x.length, (y as unknown[]).length) }, (_, i) => String(i))
      : [...new Set([...Object.keys(x), ...Object.keys(y)])];
    for (const k of keys) walk((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], at ? `${at}.${k}` : k);
  };
  walk(recorded, replayed, path);
  return out;
}

/** Why `replayed` is not `recorded`: the envelope when it differs, then the body's first field differences. */
export function describeDivergence(recorded: RecordedTurn, protocol: Protocol, replayed: unknown): string {
  const parts: string[] = [];
  if (recorded.protocol !== protocol) parts.push(`dialect: recorded ${recorded.protocol}, replayed ${protocol}`);
  const a = readRequest(asProtocol(recorded.protocol), recorded.request);
  const b = readRequest(protocol, replayed);
  if (a.model !== b.model) parts.push(`model: recorded ${show(a.model)}, replayed ${show(b.model)}`);
  if (a.tools.join(",") !== b.tools.join(",")) parts.push(`tool names: recorded [${a.tools.join(", ")}], replayed [${b.tools.join(", ")}]`);
  if (a.roles.join(",") !== b.roles.join(",")) parts.push(`roles: recorded [${a.roles.join(", ")}], replayed [${b.roles.join(", ")}]`);
  const diff = fieldDiff(recorded.request, replayed);
  return [...parts.map((p) => `envelope ${p}`), ...diff].join("; ");
}

/** Finds the turn a request replays: the earliest unconsumed turn with an equal body. */
export function matchTurn(turns: readonly RecordedTurn[], consumed: ReadonlySet<number>, protocol: Protocol, request: unknown, ordinal: number): MatchResult {
  let earliest: number | undefined;
  for (const [i, turn] of turns.entries()) {
    if (consumed.has(i)) continue;
    earliest ??= i;
    if (turn.protocol === protocol && jsonEqual(turn.request, request)) return { ok: true, index: i };
  }
  if (earliest === undefined) {
    return { ok: false, detail: `extra model call: request ${ordinal} has no recorded turn left (the cassette holds ${turns.length}); the agent asked the model more than it did at record` };
  }
  return { ok: false, detail: `model request ${ordinal} diverges from recorded turn ${earliest + 1}: ${describeDivergence(turns[earliest]!, protocol, request)}` };
}
