// The suite run as one JSON document, shared by `run <dir> --json` and the MCP run tool.
import type { SuiteResult } from "./suite.ts";

/**
 * A suite run as one JSON document: what `run <dir> --json` prints and the MCP run tool returns
 * (the same fields, so an agent reads one shape whichever door it used).
 */
export function suiteDocument(result: SuiteResult) {
  return {
    flows: result.flows.map((f) => ({
      spec: f.spec,
      ...(f.browser ? { browser: f.browser } : {}),
      outcome: f.outcome,
      report: f.report,
      report_path: f.report_path,
      attempts: f.attempts,
      exports: f.exports,
      ...(f.recorded ? { authoring: "recorded" as const } : {}),
      ...(f.reason ? { reason: f.reason } : {}),
    })),
    passed: result.passed,
    failed: result.failed,
    skipped: result.skipped,
    errored: result.errored,
    stale: result.stale,
    flaky: result.flaky,
    expected_failures: result.expected_failures,
    junit_path: result.junit_path,
    run_id: result.run_id,
    run_dir: result.run_dir,
    record_path: result.record_path,
    html_path: result.html_path,
  };
}
