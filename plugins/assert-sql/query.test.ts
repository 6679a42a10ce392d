import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { firstCell, sqlitePath } from "./query.ts";

const dir = mkdtempSync(join(tmpdir(), "flowproof-sql-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("firstCell", () => {
  test("resolves sqlite: paths relative to the flow's directory", () => {
    expect(sqlitePath("sqlite:data/a.db", "/p")).toBe("/p/data/a.db");
    expect(sqlitePath("sqlite:///abs/a.db", "/p")).toBe("/abs/a.db");
    expect(sqlitePath("sqlite:/abs/a.db", "/p")).toBe("/abs/a.db");
  });

  test("reads the first column of the first row of a SQLite file", async () => {
    const db = new Database(join(dir, "a.db"));
    db.run("CREATE TABLE t (v TEXT, n INTEGER)");
    db.run("INSERT INTO t VALUES ('x', 2)");
    db.close();
    expect(await firstCell("sqlite:a.db", "SELECT v, n FROM t", dir)).toEqual({ ok: true, row: true, value: "x" });
    expect(await firstCell("sqlite:a.db", "SELECT v FROM t WHERE n = 9", dir)).toEqual({ ok: true, row: false });
    expect(await firstCell("sqlite:missing.db", "SELECT 1", dir)).toMatchObject({ ok: false, fatal: false });
  });

  test("refuses an unknown scheme for good, without echoing the connection string", async () => {
    const r = await firstCell("mysql://u:secretpw@h/db", "SELECT 1", dir);
    expect(r).toEqual({ ok: false, error: "the connection string is neither a postgres:// URL nor a sqlite: URL", fatal: true });
  });
});
