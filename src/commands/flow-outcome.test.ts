import { describe, expect, test } from "bun:test";
import { erroredReport, resolveExports, skippedReport } from "./flow-outcome.ts";

const step = { id: "s0001", intent: "x", status: "passed" as const, started_ms: 0, duration_ms: 1 };

describe("flow outcomes", () => {
  test("skipped and errored reports carry one step with the reason", () => {
    expect(skippedReport("F", "f.flow.yaml", "f.trace.jsonl", "why")).toMatchObject({
      trace_id: "skipped",
      passed: true,
      outcome: "skipped",
      steps: [{ status: "skipped", detail: "why" }],
    });
    expect(erroredReport("F", "f.flow.yaml", "f.trace.jsonl", "boom")).toMatchObject({
      trace_id: "errored",
      passed: false,
      outcome: "errored",
      error: "boom",
      steps: [{ status: "errored" }],
    });
  });
  test("exports resolve from captures and env; an unresolvable one fails the last step and exports nothing", () => {
    const ctx = { env: { PREFIX: "ORD" }, captures: new Map([["order", "42"]]), secrets: new Map<string, string>() };
    expect(resolveExports({ ORDER_NO: "${PREFIX}-${captured.order}" }, ctx, [step]).values).toEqual({ ORDER_NO: "ORD-42" });
    const bad = resolveExports({ A: "${captured.order}", B: "${captured.nope}" }, ctx, [step]);
    expect(bad.values).toBeUndefined();
    expect(bad.results[0]).toMatchObject({ status: "failed" });
    expect(bad.results[0]!.detail).toContain("export B could not be resolved: ${captured.nope} was never remembered");
  });
});
