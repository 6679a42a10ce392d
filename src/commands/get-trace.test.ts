import { describe, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { TraceError } from "../diagnostics/diagnostic.ts";
import { getTrace } from "./get-trace.ts";

const DEMO = resolve(import.meta.dir, "../../examples/demo/flows");

describe("getTrace", () => {
  test("reads the trace next to the flow: header and steps", () => {
    const t = getTrace({ spec: join(DEMO, "greet.flow.yaml") });
    expect(t.trace_path).toBe(join(DEMO, "greet.trace.jsonl"));
    expect(t.header.format).toBe("flowproof-trace");
    expect(t.steps.length).toBeGreaterThan(0);
    expect(t.steps[0]!.id).toBe("s0001");
  });

  test("throws a missing-trace TraceError that says how to record it", () => {
    let error: unknown;
    try {
      getTrace({ spec: join(DEMO, "greet.flow.yaml"), trace: join(DEMO, "nope.trace.jsonl") });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TraceError);
    expect((error as TraceError).code).toBe("missing-trace");
  });
});
