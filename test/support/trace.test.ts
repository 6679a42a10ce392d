import { expect, test } from "bun:test";
import { parseTrace } from "./trace.ts";

test("the first line is the header, every further non-empty line a step", () => {
  const t = parseTrace<{ version: number }, { id: string }>('{"version":1}\n{"id":"s0001"}\n\n{"id":"s0002"}\n');
  expect(t.header.version).toBe(1);
  expect(t.steps.map((s) => s.id)).toEqual(["s0001", "s0002"]);
});

test("an empty trace is an error, not an empty header", () => {
  expect(() => parseTrace("\n")).toThrow("an empty trace");
});
