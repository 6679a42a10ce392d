import { Lifecycle } from "../plugins/lifecycle.ts";
import { afterAll, describe, expect, test } from "bun:test";
import { tmpProject } from "../../test/support/tmp-project.ts";
import { captureIo } from "../../test/support/io.ts";
import { flowLines, suiteCommand } from "./suite.ts";
import { COMMAND_TABLE, UsageError, parseArgs } from "./flags.ts";
import type { SuiteFlowResult } from "../commands/suite.ts";

const p = tmpProject();
afterAll(() => p.remove());

const base: SuiteFlowResult = {
  spec: "a.flow.yaml",
  name: "A",
  outcome: "passed",
  report: {
    name: "A",
    trace_id: "t",
    passed: true,
    outcome: "passed",
    steps: [],
    duration_ms: 12,
    started_at: "2026-01-01T00:00:00Z",
    flowproof_version: "0",
    spec_path: "a",
    trace_path: "t",
  },
  report_path: null,
  attempts: 1,
  exports: [],
  position: 0,
};

describe("suite rendering", () => {
  test("flow lines: verdict, degraded, attempts, exports, skip and error", () => {
    expect(flowLines({ ...base, attempts: 2, exports: ["A", "B"], report: { ...base.report, degraded: true } })).toEqual([
      "[PASS] A (12 ms) DEGRADED (after 2 attempts)",
      "  [EXPORT] A, B",
    ]);
    expect(flowLines({ ...base, outcome: "skipped", reason: "why" })).toEqual(["[SKIP] A (why)"]);
    expect(flowLines({ ...base, outcome: "errored", reason: "boom" })).toEqual(["[ERROR] A: boom"]);
    expect(
      flowLines({
        ...base,
        outcome: "failed",
        report: {
          ...base.report,
          passed: false,
          outcome: "failed",
          steps: [{ id: "s0001", intent: "x", status: "failed", detail: "no", started_ms: 0, duration_ms: 1 }],
        },
      }),
    ).toEqual(["[FAIL] A (12 ms)", "  [FAIL] s0001 x — no"]);
  });
  test("bad flag combinations are usage errors", async () => {
    const suite = async (...argv: string[]) => suiteCommand(p.dir, parseArgs(COMMAND_TABLE.run, [p.dir, ...argv]), captureIo(), new Lifecycle());
    await expect(suite("--shard", "0/2")).rejects.toBeInstanceOf(UsageError);
    await expect(suite("--workers", "0")).rejects.toThrow('--workers must be a whole number from 1 to 64, not "0"');
    await expect(suite("--trace", "x")).rejects.toBeInstanceOf(UsageError);
    await expect(suite("--strict", "--record-missing")).rejects.toThrow("contradict");
  });
  test("a suite of skipped flows passes with a summary line", async () => {
    p.write("a.flow.yaml", 'name: A\napp: web\nurl: http://127.0.0.1:9/\nsteps:\n  - rules: Click "Go"\n');
    const io = captureIo();
    expect(await suiteCommand(p.dir, { positional: [p.dir], flags: {} }, io, new Lifecycle())).toBe(0);
    expect(io.stdout).toContain("[SKIP] A (no trace recorded");
    expect(io.stdout).toContain("PASS: 1/1 flows passed, 1 skipped -> ");
  });
});
