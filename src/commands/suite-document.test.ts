import { expect, test } from "bun:test";
import { suiteDocument } from "./suite-document.ts";
import type { SuiteResult } from "./suite.ts";

test("one document for a suite run: each flow's outcome and paths, the counts (flaky included) and where the run's files are", () => {
  const flow = { spec: "a.flow.yaml", outcome: "passed", report: { passed: true }, report_path: "r/result.json", attempts: 1, exports: [] };
  const result = {
    dir: ".",
    flows: [flow, { ...flow, spec: "b.flow.yaml", outcome: "skipped", recorded: true, reason: "no trace" }],
    passed: 1,
    failed: 0,
    skipped: 1,
    errored: 0,
    stale: 0,
    expected_failures: 0,
    flaky: 0,
    junit_path: "j.xml",
    run_id: "id",
    run_dir: "runs/id",
    record_path: "runs/id/report.json",
    html_path: "runs/id/index.html",
    warnings: ["w"],
  } as unknown as SuiteResult;
  expect(suiteDocument(result) as unknown).toEqual({
    flows: [flow, { ...flow, spec: "b.flow.yaml", outcome: "skipped", authoring: "recorded", reason: "no trace" }],
    passed: 1,
    failed: 0,
    skipped: 1,
    errored: 0,
    stale: 0,
    flaky: 0,
    expected_failures: 0,
    junit_path: "j.xml",
    run_id: "id",
    run_dir: "runs/id",
    record_path: "runs/id/report.json",
    html_path: "runs/id/index.html",
  });
});
