import { describe, expect, test } from "bun:test";
import Ajv from "ajv";
import { controlRecord, controlVerdict, flowReason, flowStatus, RunRecord } from "./run-record.ts";
import type { RunReport } from "./schema.ts";

const report = (extra: Partial<RunReport> = {}): RunReport => ({
  name: "F",
  trace_id: "t",
  passed: true,
  outcome: "passed",
  steps: [],
  duration_ms: 1,
  started_at: "2026-01-01T00:00:00Z",
  flowproof_version: "0",
  spec_path: "f",
  trace_path: "t",
  ...extra,
});

describe("run record rules", () => {
  test("a record's run id is a run id, of the one format or as records written before carry it", () => {
    const valid = new Ajv({ strict: false, validateFormats: false }).compile(RunRecord);
    const record = (run_id: string) => ({
      run_id,
      started_at: "2026-03-04T05:06:07.890Z",
      flowproof_version: "0",
      env: { os: "linux" },
      suite: ".",
      flows: [],
    });
    for (const id of ["20260304T050607.890Z", "20260304T050607.890Z-2", "2026-03-04T05-06-07Z-ab12"]) expect(valid(record(id))).toBe(true);
    for (const id of ["2026-03-04", "20260304T050607Z-ab12"]) expect(valid(record(id))).toBe(false);
  });
  test.each([
    ["pass", undefined, "pass"],
    ["degraded", undefined, "pass"],
    ["fail", "s0002 x: expected y", "fail"],
    ["fail", "egress not contained on this platform", "capability-error"],
    ["skipped", "no trace recorded at a.trace.jsonl", "capability-error"],
    ["errored", "before_each hook failed", "capability-error"],
    ["stale", "a.flow.yaml changed since a.trace.jsonl was recorded", "capability-error"],
  ] as const)("status %s (%s) → %s", (status, reason, verdict) => {
    expect(controlVerdict(status, reason).verdict).toBe(verdict);
  });
  test("flow status follows the outcome and degradation", () => {
    expect(flowStatus(report({ degraded: true }))).toBe("degraded");
    expect(flowStatus(report())).toBe("pass");
    expect(flowStatus(report({ passed: false, outcome: "failed" }))).toBe("fail");
    expect(flowStatus(report({ outcome: "skipped" }))).toBe("skipped");
    expect(flowStatus(report({ passed: false, outcome: "errored" }))).toBe("errored");
    expect(flowStatus(report({ passed: false, outcome: "interrupted", interrupted: "SIGINT" }))).toBe("errored");
    expect(flowStatus(report({ passed: false, outcome: "stale", stale: { trace_hash: "sha256:a", flow_hash: "sha256:b" } }))).toBe("stale");
  });
  test("the reason is the run's error, the skip reason, or the first step that did not pass", () => {
    const steps = [
      { id: "s0001", intent: "a", status: "passed" as const, started_ms: 0, duration_ms: 1 },
      { id: "s0002", intent: "b", status: "failed" as const, detail: "expected y", started_ms: 1, duration_ms: 1 },
    ];
    expect(flowReason(report({ steps }))).toBeUndefined();
    expect(flowReason(report({ passed: false, outcome: "failed", steps }))).toBe("s0002 b: expected y");
    expect(flowReason(report({ passed: false, outcome: "errored", error: "boom", steps }))).toBe("boom");
    expect(
      flowReason(
        report({ outcome: "skipped", steps: [{ id: "s0001", intent: "flow skipped", status: "skipped", detail: "why", started_ms: 0, duration_ms: 0 }] }),
      ),
    ).toBe("why");
  });
});

describe("control lanes and containment", () => {
  const agentStep = (intent: string, agent: Record<string, unknown>) => ({
    id: "s0001",
    intent,
    status: "passed" as const,
    started_ms: 0,
    duration_ms: 1,
    agent: { turns: 1, model_calls: 0, calls: [], ...agent },
  });
  test("a contained agent run: the egress lane, the tier, and what was refused as evidence", () => {
    const r = report({
      steps: [
        agentStep("prompt: go\nassert_no_egress", {
          containment: "enforced (linux user+network namespace)",
          egress_attempts: [{ destination: "tcp 10.0.0.9:443", at_ms: 5 }],
        }),
        { id: "s0002", intent: "assert_no_secret_leak: ${K}", status: "passed", started_ms: 0, duration_ms: 1 },
      ],
    });
    expect(controlRecord({ id: "c1" }, "fail", "assert_no_egress: …", r, "f.trace.jsonl")).toEqual({
      id: "c1",
      verdict: "fail",
      reason: "assert_no_egress: …",
      lanes: ["egress", "secret_leak"],
      containment: "enforced (linux user+network namespace)",
      evidence: { trace: "f.trace.jsonl", blocked: ["tcp 10.0.0.9:443"] },
    });
  });
  test("an agent run reported line by line: its assert_no_egress line names the egress lane", () => {
    const r = report({
      steps: [
        agentStep("prompt: go", { containment: "enforced (linux user+network namespace)" }),
        { id: "s0001.2", intent: "assert_no_egress", status: "passed", started_ms: 0, duration_ms: 0 },
      ],
    });
    expect(controlRecord({ id: "c1" }, "pass", undefined, r, "t")).toMatchObject({ lanes: ["egress"], containment: "enforced (linux user+network namespace)" });
  });
  test("an uncontained run carries its tier and no blocked evidence; a flow without agent steps carries neither", () => {
    const r = report({ steps: [agentStep("prompt: go\nassert_no_egress", { containment: "not contained (FLOWPROOF_CONTAINMENT=off)" })] });
    expect(controlRecord({ id: "c1" }, "errored", "not contained", r, "t")).toMatchObject({
      verdict: "capability-error",
      lanes: ["egress"],
      containment: "not contained (FLOWPROOF_CONTAINMENT=off)",
      evidence: { trace: "t" },
    });
    expect(controlRecord({ id: "c2" }, "pass", undefined, report(), "t")).toEqual({ id: "c2", verdict: "pass", evidence: { trace: "t" } });
  });
});
