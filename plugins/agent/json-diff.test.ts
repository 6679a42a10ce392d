import { describe, expect, test } from "bun:test";
import { fieldDiff, ignoring, jsonEqual, leafDiffs, valuesAt } from "./json-diff.ts";

describe("JSON comparison", () => {
  test("equality ignores key order, not types", () => {
    expect(jsonEqual({ a: [1, { b: 2 }], c: null }, { c: null, a: [1, { b: 2 }] })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
  });
  test("the leaves that differ, JSON held in strings walked into, at most `limit`", () => {
    expect(leafDiffs({ r: '{"id":"A","n":1}' }, { r: '{"id":"B","n":1}' })).toEqual([{ path: "r.id", recorded: "A", replayed: "B" }]);
    expect(fieldDiff({ a: 1, b: 2, c: 3 }, {}, 2)).toEqual(["a: recorded 1, replayed (absent)", "b: recorded 2, replayed (absent)"]);
  });
  test("paths with `*` drop or read every key or index", () => {
    const body = {
      store: true,
      messages: [
        { role: "user", content: "x", name: "n" },
        { role: "tool", content: "y" },
      ],
    };
    expect(ignoring(body, ["store", "messages.*.content"])).toEqual({ messages: [{ role: "user", name: "n" }, { role: "tool" }] });
    expect(ignoring(body, ["messages.0"])).toEqual({ store: true, messages: [{ role: "tool", content: "y" }] });
    expect(valuesAt(body, "messages.*.role")).toEqual([
      { path: "messages.0.role", value: "user" },
      { path: "messages.1.role", value: "tool" },
    ]);
    expect(valuesAt(body, "temperature")).toEqual([{ path: "temperature", value: undefined }]);
  });
});
