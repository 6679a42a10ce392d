import { describe, expect, test } from "bun:test";
import { checkArgs } from "./index.ts";

describe("assert_spreadsheet arguments", () => {
  test("needs the cell", () => {
    expect(checkArgs({ path: "a.xlsx" })).toEqual([
      { path: [], message: "`assert_spreadsheet` needs the cell: `at: B2`, or `column:` with `row_contains:`", hint: "add `at: B2`" },
    ]);
  });

  test.each([
    [{ path: "a.xlsx", at: "B2", column: "X", row_contains: "y" }, ["column"]],
    [{ path: "a.xlsx", column: "X" }, ["column"]],
    [{ path: "a.xlsx", row_contains: "y" }, ["row_contains"]],
    [{ path: "a.xlsx", at: "B2", equals: 1, contains: "1" }, ["contains"]],
  ])("refuses %j at %j", (args, path) => {
    expect(checkArgs(args).map((p) => p.path)).toContainEqual(path);
  });

  test("accepts at, or column with row_contains", () => {
    expect(checkArgs({ path: "a.csv", at: "B2", equals: "x" })).toEqual([]);
    expect(checkArgs({ path: "a.csv", column: "Net", row_contains: "100", contains: "1" })).toEqual([]);
  });
});
