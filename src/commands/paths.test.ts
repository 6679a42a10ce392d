import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { defaultTracePath, displayPath } from "./paths.ts";

describe("defaultTracePath", () => {
  test.each([
    ["/p/calc.flow.yaml", "/p/calc.trace.jsonl"],
    ["/p/calc.flow.yml", "/p/calc.trace.jsonl"],
    ["/p/calc.yaml", "/p/calc.trace.jsonl"],
    ["/p/calc.yml", "/p/calc.trace.jsonl"],
    ["/p/Calc.Flow.YAML", "/p/Calc.trace.jsonl"],
    ["flows/sign-in.flow.yaml", "flows/sign-in.trace.jsonl"],
    ["sign.in.flow.yaml", "sign.in.trace.jsonl"],
    ["/p/notes.txt", "/p/notes.txt.trace.jsonl"],
  ])("puts the trace of %s at %s", (spec, trace) => {
    expect(defaultTracePath(spec)).toBe(trace);
  });
});

describe("displayPath", () => {
  test("shows a path inside the working directory relative to it", () => {
    expect(displayPath(join(process.cwd(), "flows", "a.flow.yaml"))).toBe(join("flows", "a.flow.yaml"));
  });

  test("keeps a path outside the working directory as it is", () => {
    expect(displayPath("/elsewhere/a.flow.yaml")).toBe("/elsewhere/a.flow.yaml");
  });
});
