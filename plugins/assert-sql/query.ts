// Runs one query and reads the first column of the first row: PostgreSQL through `postgres`
// (one short-lived connection per attempt), SQLite files through bun:sqlite (read-only).
import { Database } from "bun:sqlite";
import { isAbsolute, resolve } from "node:path";
import { existsSync } from "node:fs";

export type Cell = string | number | bigint | boolean | Date | Uint8Array | null | undefined;

export type CellAnswer =
  | { readonly ok: true; readonly row: false }
  | { readonly ok: true; readonly row: true; readonly value: Cell }
  /** `fatal`: waiting cannot help (an unknown URL scheme). Never includes the connection string. */
  | { readonly ok: false; readonly error: string; readonly fatal: boolean };

/** `sqlite:data/app.db`, `sqlite:/abs/app.db`, `sqlite:///abs/app.db` → a file path (relative to `baseDir`). */
export function sqlitePath(url: string, baseDir: string): string {
  const rest = url.replace(/^sqlite:(\/\/)?/i, "");
  return isAbsolute(rest) ? rest : resolve(baseDir, rest);
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export async function firstCell(url: string, query: string, baseDir: string): Promise<CellAnswer> {
  if (/^sqlite:/i.test(url)) {
    const path = sqlitePath(url, baseDir);
    if (!existsSync(path)) return { ok: false, error: `no SQLite file at ${path}`, fatal: false };
    let db: Database | undefined;
    try {
      db = new Database(path, { readonly: true });
      const row = db.query(query).values()[0];
      return row ? { ok: true, row: true, value: row[0] as Cell } : { ok: true, row: false };
    } catch (e) {
      return { ok: false, error: message(e), fatal: false };
    } finally {
      db?.close();
    }
  }
  if (!/^postgres(ql)?:\/\//i.test(url)) {
    return { ok: false, error: "the connection string is neither a postgres:// URL nor a sqlite: URL", fatal: true };
  }
  const { default: postgres } = await import("postgres");
  const sql = postgres(url, { max: 1, connect_timeout: 5, idle_timeout: 1, onnotice: () => undefined });
  try {
    const rows = await sql.unsafe(query);
    const first = rows[0] as Record<string, unknown> | undefined;
    if (!first) return { ok: true, row: false };
    return { ok: true, row: true, value: Object.values(first)[0] as Cell };
  } catch (e) {
    return { ok: false, error: message(e), fatal: false };
  } finally {
    await sql.end({ timeout: 1 }).catch(() => undefined);
  }
}
