// JSON with a stable key order: the trace's byte-stable serialisation, shared by the writer and
// the seal (which hashes the same text the writer writes).

/** Order of well-known nested keys (the rest sorted): the reading order of the format's docs. */
const NESTED_ORDER = [
  "type",
  "params",
  "tier",
  "provenance",
  "confidence",
  "payload",
  "pre",
  "post",
  "kind",
  "name",
  "adapter",
  "url",
  "os",
  "resolution",
  "path",
  "hash",
];

/** JSON with object keys in `order` first (schema order), the rest sorted; nested objects sorted. */
export function stableJson(value: unknown, order: readonly string[] = []): string {
  return JSON.stringify(sortKeys(value, order));
}

function sortKeys(value: unknown, order: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => sortKeys(v, NESTED_ORDER));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  const rank = (k: string) => {
    const i = order.indexOf(k);
    return i === -1 ? order.length : i;
  };
  entries.sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) out[k] = sortKeys(v, NESTED_ORDER);
  return out;
}
