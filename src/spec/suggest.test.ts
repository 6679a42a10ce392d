import { describe, expect, test } from "bun:test";
import { editDistance, nearest } from "./suggest.ts";

describe("nearest", () => {
  test.each([
    ["stpes", ["name", "steps", "url"], "steps"],
    ["nmae", ["name", "steps"], "name"],
    ["zzzzzz", ["name", "steps"], undefined],
  ])("suggests %p -> %p", (word, candidates, expected) => {
    expect(nearest(word, candidates)).toBe(expected);
  });
  test("counts edits", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
  });
});
