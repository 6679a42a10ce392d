import { describe, expect, test } from "bun:test";
import { controlVerdict, flowReason, flowStatus, runRecordId, RUN_ID_PATTERN } from "./run-record.ts";
import type { RunReport } from "./schema.ts";

const report = (extra: Partial<RunReport> = {}): RunReport => ({ name: "F", trace_id: "t", passed: true, outcome: "passed", steps: [], duration_ms: 1, started_at: "2026-01-01T00:00:00Z", flowproof_version: "0", spec_path: "f", trace_path: "t", ...extra });

describe("run record rules", () => {
  test("run ids are sortable and match the pattern", () => {
    const id = runRecordId(new Date("2026-03-04T05:06:07.890Z"), "ab12");
    expect(id).toBe("2026-03-04T05-06-07Z-ab12");
    expect(RUN_ID_PATTERN.test(id)).toBe(true);
    expect(runRecordId(new Date("2026-03-04T05:06:08Z"), "0000") > id).toBe(true);
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
    const steps = [{ id: "s0001", intent: "a", status: "passed" as const, started_ms: 0, duration_ms: 1 }, { id: "s0002", intent: "b", status: "failed" as const, detail: "expected y", started_ms: 1, duration_ms: 1 }];
    expect(flowReason(report({ steps }))).toBeUndefined();
    expect(flowReason(report({ passed: false, outcome: "failed", steps }))).toBe("s0002 b: expected y");
    expect(flowReason(report({ passed: false, outcome: "errored", error: "boom", steps }))).toBe("boom");
    expect(flowReason(report({ outcome: "skipped", steps: [{ id: "s0001", intent: "flow skipped", status: "skipped", detail: "why", started_ms: 0, duration_ms: 0 }] }))).toBe("why");
  });
});
