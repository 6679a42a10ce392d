import { describe, expect, test } from "bun:test";
import { canonical, checkJson } from "./json-path.ts";

const doc = JSON.stringify({ results: [{ balance: 150953, ref: "0953", ok: true, none: null }], meta: { page: 1 } });

describe("checkJson", () => {
  test.each([
    ["results.0.balance", { kind: "equals", value: 150953 }],
    ["results.0.ref", { kind: "equals", value: "0953" }],
    ["results.0.ok", { kind: "equals", value: true }],
    ["results.0.none", { kind: "exists" }],
    ["results", { kind: "count", exactly: 1 }],
    ["results", { kind: "count", atLeast: 1 }],
  ] as const)("holds for %s %j", (path, check) => {
    expect(checkJson(doc, path, check)).toBeUndefined();
  });

  test.each([
    ["results.0.ref", { kind: "equals", value: 953 }, "path 'results.0.ref' is 0953, expected 953"],
    ["results.1.balance", { kind: "exists" }, "path 'results.1.balance' stops at segment '1'"],
    ["meta.page.x", { kind: "exists" }, "path 'meta.page.x' stops at segment 'x'"],
    ["meta", { kind: "exists" }, "path resolves to a non-scalar; assert a leaf value"],
    ["meta", { kind: "count", exactly: 1 }, "path 'meta' is an object, count requires an array"],
    ["results", { kind: "count", exactly: 5 }, "path 'results' has 1 elements, expected exactly 5"],
    ["results", { kind: "count", atLeast: 2 }, "path 'results' has 1 elements, expected at least 2"],
  ] as const)("reports %s %j", (path, check, actual) => {
    expect(checkJson(doc, path, check)?.actual).toBe(actual);
  });

  test("reports a body that is not JSON", () => {
    expect(checkJson("<html>", "a", { kind: "exists" })?.actual).toBe("response body is not valid JSON");
  });

  test("canonical text spells numbers without trailing zeros", () => {
    expect([canonical(12.5), canonical("12.50"), canonical(true)]).toEqual(["12.5", "12.50", "true"]);
  });
});
