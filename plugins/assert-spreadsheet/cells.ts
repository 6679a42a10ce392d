// Canonical cell text and cell lookup (A1 references; header column + unique data row). Pure.

/** Rows of cell texts, row 0 = spreadsheet row 1; "" for an empty cell. */
export type Grid = readonly (readonly string[])[];

/** A cell value as text: 12.5 not 12.50000, dates as ISO 8601, formulas as their result, rich text joined. */
export function canonicalCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (v instanceof Date) return v.toISOString().replace(/T00:00:00\.000Z$/, "");
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (typeof v === "object") {
    const o = v as Record<string, unknown>;
    if ("result" in o) return canonicalCell(o["result"]);
    if (Array.isArray(o["richText"])) return (o["richText"] as { text?: unknown }[]).map((r) => String(r.text ?? "")).join("");
    if ("text" in o) return String(o["text"]);
    if ("error" in o) return String(o["error"]);
  }
  return String(v);
}

/** A decimal number's canonical text (`12.50` → `12.5`), or undefined when `text` is not a plain number. */
export function numericText(text: string): string | undefined {
  const t = text.trim();
  return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t) ? String(Number(t)) : undefined;
}

/** `B2` → zero-based row 1, column 1. */
export function parseA1(ref: string): { row: number; col: number } {
  const m = /^\$?([A-Za-z]+)\$?(\d+)$/.exec(ref)!;
  let col = 0;
  for (const ch of m[1]!.toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { row: Number(m[2]) - 1, col: col - 1 };
}

export const a1 = (row: number, col: number): string => {
  let s = "";
  for (let c = col + 1; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return `${s}${row + 1}`;
};

export type Found = { ok: true; text: string; where: string } | { ok: false; error: string };

export function findCell(grid: Grid, a: { at?: string; column?: string; row_contains?: string }): Found {
  if (a.at !== undefined) {
    const { row, col } = parseA1(a.at);
    const text = grid[row]?.[col] ?? "";
    return text === "" ? { ok: false, error: `cell ${a.at.toUpperCase()} is empty` } : { ok: true, text, where: a.at.toUpperCase() };
  }
  const header = grid[0] ?? [];
  const want = a.column!.trim();
  let col = header.findIndex((h) => h.trim() === want);
  if (col < 0) {
    const partial = header.flatMap((h, i) => (h.includes(want) ? [i] : []));
    if (partial.length === 1) col = partial[0]!;
    else if (partial.length > 1)
      return { ok: false, error: `column '${want}' matches ${partial.length} headers: ${partial.map((i) => `'${header[i]}'`).join(", ")}` };
    else
      return {
        ok: false,
        error: `no column '${want}' in the first row (headers: ${header
          .filter((h) => h !== "")
          .map((h) => `'${h}'`)
          .join(", ")})`,
      };
  }
  const rows = grid.flatMap((r, i) => (i > 0 && r.some((c) => c.includes(a.row_contains!)) ? [i] : []));
  if (rows.length === 0) return { ok: false, error: `no data row contains '${a.row_contains}'` };
  if (rows.length > 1)
    return { ok: false, error: `${rows.length} data rows contain '${a.row_contains}' (rows ${rows.map((r) => r + 1).join(", ")}); make row_contains unique` };
  const row = rows[0]!;
  const text = grid[row]?.[col] ?? "";
  return text === ""
    ? { ok: false, error: `cell ${a1(row, col)} (column '${header[col]}', row ${row + 1}) is empty` }
    : { ok: true, text, where: `${a1(row, col)} (column '${header[col]}')` };
}
