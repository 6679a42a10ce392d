import { describe, expect, test } from "bun:test";
import { combineRepeats, differingSteps } from "./repeat.ts";
import type { RunReport, StepReport } from "../report/schema.ts";

const step = (id: string, status: StepReport["status"], detail?: string): StepReport => ({
  id,
  intent: `step ${id}`,
  status,
  started_ms: 0,
  duration_ms: 1,
  ...(detail ? { detail } : {}),
});
const report = (outcome: RunReport["outcome"], steps: StepReport[]): RunReport => ({
  name: "F",
  trace_id: "t",
  passed: outcome === "passed",
  outcome,
  steps,
  duration_ms: 1,
  started_at: "2026-01-01T00:00:00.000Z",
  flowproof_version: "0.1.0",
  spec_path: "f.flow.yaml",
  trace_path: "f.trace.jsonl",
});
const green = () => report("passed", [step("s0001", "passed"), step("s0002", "passed")]);
const red = () => report("failed", [step("s0001", "passed"), step("s0002", "failed", "expected Saved")]);

describe("combineRepeats", () => {
  test("the same verdict every time is that verdict, with how each repeat went", () => {
    expect(combineRepeats([green(), green()], ["a", "b"])).toMatchObject({
      outcome: "passed",
      passed: true,
      repeat: { of: 2, outcomes: ["passed", "passed"], runs: ["a", "b"] },
    });
    const failed = combineRepeats([red(), red(), red()], []);
    expect(failed.outcome).toBe("failed");
    expect(failed.flaky).toBeUndefined();
  });

  test("passing in some repeats and failing in others is flaky, naming the steps that differed", () => {
    const r = combineRepeats([green(), red(), green()], []);
    expect(r).toMatchObject({ outcome: "flaky", passed: false, repeat: { outcomes: ["passed", "failed", "passed"] } });
    expect(r.steps[1]!.status).toBe("failed");
    expect(r.flaky).toEqual({
      summary: "2 of 3 repeats passed; s0002 passed/failed/passed",
      steps: [{ id: "s0002", intent: "step s0002", outcomes: ["passed", "failed", "passed"], detail: "expected Saved" }],
    });
  });

  test("an expected failure holds like a pass", () => {
    expect(combineRepeats([report("expected_failure", []), report("expected_failure", [])], []).outcome).toBe("expected_failure");
  });
});

describe("differingSteps", () => {
  test("a step missing from a repeat counts as skipped there", () => {
    expect(differingSteps([green(), report("errored", [step("s0001", "errored", "boom")])]).map((s) => [s.id, s.outcomes])).toEqual([
      ["s0001", ["passed", "errored"]],
      ["s0002", ["passed", "skipped"]],
    ]);
  });
});
