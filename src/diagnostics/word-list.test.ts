import { expect, test } from "bun:test";
import { joinAnd, joinOr } from "./word-list.ts";

test("lists names with commas and the last joined by `or` or `and`", () => {
  expect(joinOr([])).toBe("");
  expect(joinOr(["a"])).toBe("a");
  expect(joinOr(["a", "b"])).toBe("a or b");
  expect(joinOr(["a", "b", "c"])).toBe("a, b or c");
  expect(joinAnd(["a"])).toBe("a");
  expect(joinAnd(["a", "b", "c"])).toBe("a, b and c");
});
