// JSON comparison for replay matching: deep equality (key order aside), the leaves that differ
// (JSON held in strings walked into), and request paths (dotted, `*` for any key or index) to
// drop or read. Pure.

/** Deep equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

export const show = (v: unknown): string => (v === undefined ? "(absent)" : typeof v === "string" ? v : JSON.stringify(v));

/** A string holding JSON (tool arguments, a tool result) is compared as the value it holds. */
function asJson(v: unknown): unknown {
  if (typeof v !== "string" || !/^\s*[[{]/.test(v)) return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** One leaf that differs: its dotted path, the recorded value and the replayed one (undefined: absent). */
export interface LeafDiff {
  readonly path: string;
  readonly recorded: unknown;
  readonly replayed: unknown;
}

/** The leaves that differ, in document order; at most `limit`. JSON held in strings is walked into. */
export function leafDiffs(recorded: unknown, replayed: unknown, limit = 5, path = ""): LeafDiff[] {
  const out: LeafDiff[] = [];
  const walk = (a: unknown, b: unknown, at: string): void => {
    if (out.length >= limit) return;
    const x = asJson(a);
    const y = asJson(b);
    if (jsonEqual(x, y)) return;
    const objects = typeof x === "object" && x !== null && typeof y === "object" && y !== null && Array.isArray(x) === Array.isArray(y);
    if (!objects) {
      out.push({ path: at, recorded: x, replayed: y });
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

/** Field-level differences, `path: recorded X, replayed Y`, in document order; at most `limit`. */
export function fieldDiff(recorded: unknown, replayed: unknown, limit = 5, path = ""): string[] {
  return leafDiffs(recorded, replayed, limit, path).map((d) => `${d.path || "(body)"}: recorded ${show(d.recorded)}, replayed ${show(d.replayed)}`);
}

const segments = (path: string): string[] => path.split(".");

/** The body without the values at `path` (`*` any key or index). */
function without(value: unknown, parts: readonly string[]): unknown {
  if (parts.length === 0 || value === null || typeof value !== "object") return value;
  const [head, ...rest] = parts as [string, ...string[]];
  if (Array.isArray(value)) {
    if (head === "*") return rest.length === 0 ? [] : value.map((v) => without(v, rest));
    const i = Number(head);
    if (!Number.isInteger(i) || i < 0 || i >= value.length) return value;
    return rest.length === 0 ? value.filter((_, j) => j !== i) : value.map((v, j) => (j === i ? without(v, rest) : v));
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (head !== "*" && head !== k) out[k] = v;
    else if (rest.length > 0) out[k] = without(v, rest);
  }
  return out;
}

/** The body with every `ignore:` path dropped. */
export function ignoring(body: unknown, ignore: readonly string[]): unknown {
  return ignore.reduce((b, p) => without(b, segments(p)), body);
}

/** The values at `path` (`*` any key or index), each with its concrete path. */
export function valuesAt(body: unknown, path: string): { path: string; value: unknown }[] {
  let at: { path: string; value: unknown }[] = [{ path: "", value: body }];
  for (const part of segments(path)) {
    at = at.flatMap(({ path: p, value }) => {
      const o = value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
      if (!o) return [{ path: p ? `${p}.${part}` : part, value: undefined }];
      const keys = part === "*" ? Object.keys(o) : [part];
      return keys.map((k) => ({ path: p ? `${p}.${k}` : k, value: o[k] }));
    });
  }
  return at;
}
