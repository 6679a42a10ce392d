import { expect, test } from "bun:test";
import { editDistance } from "./edit-distance.ts";

test("counts the insertions, deletions and substitutions between two strings", () => {
  expect(editDistance("kitten", "sitting")).toBe(3);
  expect(editDistance("", "abc")).toBe(3);
  expect(editDistance("abc", "")).toBe(3);
  expect(editDistance("Save", "Save")).toBe(0);
  expect(editDistance("Save", "save")).toBe(1);
});
