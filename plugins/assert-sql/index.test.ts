import { describe, expect, test } from "bun:test";
import type { AssertionContext } from "../../src/plugins/api.ts";
import { cellText, connectionVariable, plugin } from "./index.ts";

const ctx = (env: Record<string, string>): AssertionContext => ({
  baseDir: "/",
  log: () => undefined,
  mode: "replay",
  flowStem: "f",
  artifactDir: "/",
  env,
  observe: () => undefined,
});

describe("assert_sql", () => {
  test("names the connection's variable: upper-cased, other characters as _", () => {
    expect(connectionVariable("reporting")).toBe("FLOWPROOF_SQL_REPORTING");
    expect(connectionVariable("app-db.v2")).toBe("FLOWPROOF_SQL_APP_DB_V2");
  });

  test("spells cells as text", () => {
    expect([cellText(null), cellText(true), cellText(12.5), cellText(3n), cellText(new Date("2026-01-15T12:00:00Z"))]).toEqual([
      "NULL",
      "true",
      "12.5",
      "3",
      "2026-01-15T12:00:00.000Z",
    ]);
  });

  test("an unconfigured connection fails for good, naming the variable", async () => {
    expect(await plugin.run({ connection: "reporting", query: "SELECT 1" }, ctx({}))).toMatchObject({
      pass: false,
      retryable: false,
      actual: "connection 'reporting' is not configured: FLOWPROOF_SQL_REPORTING is not set",
    });
  });
});
