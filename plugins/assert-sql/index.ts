// `assert_sql`: one query per attempt against the connection named by `FLOWPROOF_SQL_<NAME>`
// (PostgreSQL URLs through `postgres`, `sqlite:` URLs through bun:sqlite). `equals` compares the
// first column of the first row as text; without it a row must exist. Always polled.
import { defineAssertion, type Verdict } from "../../src/plugins/api.ts";
// The query module (bun:sqlite, postgres) is loaded by the first `assert_sql` step, not by every run.
import type { Cell } from "./query.ts";

export interface SqlArgs {
  readonly connection: string;
  readonly query: string;
  readonly equals?: string | number | boolean;
  readonly timeout_seconds?: number;
}

export const schema = {
  type: "object",
  required: ["connection", "query"],
  additionalProperties: false,
  properties: {
    connection: { type: "string", pattern: "^[A-Za-z][A-Za-z0-9_-]*$", description: "resolved from FLOWPROOF_SQL_<NAME>" },
    query: { type: "string", minLength: 1 },
    equals: { type: ["string", "number", "boolean"] },
    timeout_seconds: { type: "number", minimum: 0 },
  },
} as const;

/** `reporting` → `FLOWPROOF_SQL_REPORTING` (upper-cased; every non-alphanumeric becomes `_`). */
export const connectionVariable = (name: string) => `FLOWPROOF_SQL_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;

/** A cell as text: NULL, true/false, numbers without trailing zeros, dates in ISO 8601. */
export function cellText(v: Cell): string {
  if (v === null || v === undefined) return "NULL";
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return `\\x${Buffer.from(v).toString("hex")}`;
  return typeof v === "string" ? v : String(v);
}

const fail = (expected: string, actual: string, extra: { hint?: string; retryable?: boolean } = {}): Verdict => ({ pass: false, expected, actual, ...extra });

export const plugin = defineAssertion<SqlArgs>({
  key: "assert_sql",
  schema,
  async run(a, ctx) {
    const variable = connectionVariable(a.connection);
    const url = ctx.env[variable];
    if (url === undefined || url.trim() === "") {
      return fail(`a connection string in ${variable}`, `connection '${a.connection}' is not configured: ${variable} is not set`, {
        hint: `set ${variable} to a PostgreSQL URL (postgres://user:pass@host:5432/db) or a SQLite file (sqlite:path/to.db)`,
        retryable: false,
      });
    }
    const { firstCell } = await import("./query.ts");
    const answer = await firstCell(url, a.query, ctx.baseDir);
    if (!answer.ok) return fail("the query to run", `query on '${a.connection}' failed: ${answer.error}`, answer.fatal ? { retryable: false } : {});
    if (!answer.row) return fail(a.equals === undefined ? "at least one row" : `'${String(a.equals)}'`, "query returned no rows");
    if (a.equals === undefined) return { pass: true };
    const got = cellText(answer.value);
    const want = String(a.equals);
    return got === want ? { pass: true } : fail(`'${want}'`, `query returned '${got}', expected '${want}'`);
  },
});
