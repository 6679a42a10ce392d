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
    ["results", { kind: "count", exactly: 5 }, "path 'results' has 1 element, expected exactly 5 elements"],
    ["results", { kind: "count", atLeast: 2 }, "path 'results' has 1 element, expected at least 2 elements"],
  ] as const)("reports %s %j", (path, check, actual) => {
    expect(checkJson(doc, path, check)?.actual).toBe(actual);
  });

  test("without a path, counts the items of a top-level array", () => {
    const list = JSON.stringify([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(checkJson(list, undefined, { kind: "count", exactly: 3 })).toBeUndefined();
    expect(checkJson(list, undefined, { kind: "count", atLeast: 2 })).toBeUndefined();
    expect(checkJson(list, undefined, { kind: "count", exactly: 2 })).toEqual({
      expected: "exactly 2 elements",
      actual: "the response body has 3 elements, expected exactly 2 elements",
    });
    expect(checkJson(doc, undefined, { kind: "count", exactly: 1 })?.actual).toBe("the response body is an object, count requires an array");
    expect(checkJson("[]", undefined, { kind: "count", atLeast: 1 })?.actual).toBe("the response body has 0 elements, expected at least 1 element");
  });

  test("reports a body that is not JSON", () => {
    expect(checkJson("<html>", "a", { kind: "exists" })?.actual).toBe("response body is not valid JSON");
  });

  test("canonical text spells numbers without trailing zeros", () => {
    expect([canonical(12.5), canonical("12.50"), canonical(true)]).toEqual(["12.5", "12.50", "true"]);
  });
});
