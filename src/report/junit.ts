// junit.xml from a run report: one <testsuite> per flow, one <testcase> per step. Pure.
import type { RunReport } from "./schema.ts";

/**
 * Every character XML 1.0 forbids (outside #x9, #xA, #xD, #x20–#xD7FF, #xE000–#xFFFD and
 * #x10000–#x10FFFF): C0 controls, U+FFFE, U+FFFF and lone surrogates. Page text can hold any of them.
 */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text safe in XML (and HTML) content and double-quoted attributes: forbidden characters dropped, markup escaped. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML_CHAR, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export function junitXml(reports: readonly RunReport[]): string {
  const secs = (ms: number) => (ms / 1000).toFixed(3);
  let tests = 0,
    failures = 0,
    errors = 0,
    skipped = 0,
    time = 0;
  const suites = reports.map((r) => {
    const xfail = (s: { id: string; status: string }) => r.expected_failure?.step === s.id && s.status === "failed";
    const f = r.steps.filter((s) => s.status === "failed" && !xfail(s)).length;
    const e = r.steps.filter((s) => s.status === "errored").length;
    const s = r.steps.filter((s) => s.status === "skipped" || xfail(s)).length;
    tests += r.steps.length;
    failures += f;
    errors += e;
    skipped += s;
    time += r.duration_ms;
    const cases = r.steps.map((step) => {
      const open = `    <testcase classname="${escapeXml(r.name)}" name="${escapeXml(`${step.id} ${step.intent}`)}" time="${secs(step.duration_ms)}"`;
      const msg = escapeXml(step.detail ?? "");
      // A known failure, failing as declared, is written as pytest writes an xfail: skipped, with its reason.
      if (r.expected_failure?.step === step.id && step.status === "failed") {
        return `${open}>\n      <skipped type="xfail" message="${escapeXml(`expected failure (${r.expected_failure.reason}): ${step.detail ?? ""}`)}"/>\n    </testcase>`;
      }
      switch (step.status) {
        case "passed":
          return `${open}/>`;
        case "failed":
          return `${open}>\n      <failure message="${msg}">${msg}</failure>\n    </testcase>`;
        case "errored":
          return `${open}>\n      <error message="${msg}">${msg}</error>\n    </testcase>`;
        case "skipped":
          return `${open}>\n      <skipped message="${msg}"/>\n    </testcase>`;
      }
    });
    // A flaky flow fails whatever the steps of the repeat shown did: its verdict differed between repeats.
    const flaky = r.flaky
      ? `\n    <testcase classname="${escapeXml(r.name)}" name="flaky" time="0">\n      <failure type="flaky" message="${escapeXml(`flaky: ${r.flaky.summary}`)}">${escapeXml(`flaky: ${r.flaky.summary}`)}</failure>\n    </testcase>`
      : "";
    if (flaky) {
      tests += 1;
      failures += 1;
    }
    // An error of the run itself errors the flow whatever its steps did: a stale trace (the replay
    // is not of the flow as written), a flow that could not run, evidence that could not be written.
    const stale = r.outcome === "stale";
    const name = stale ? "stale trace" : r.steps.length === 0 ? "flow could not run" : "run error";
    // Unless a step already carries it (a flow that could not load reports it on its one step).
    const suiteError =
      r.error && (stale || !r.steps.some((st) => st.status === "errored"))
        ? `\n    <testcase classname="${escapeXml(r.name)}" name="${name}" time="0">\n      <error${stale ? ' type="stale"' : ""} message="${escapeXml(r.error)}">${escapeXml(r.error)}</error>\n    </testcase>`
        : "";
    if (suiteError) {
      tests += 1;
      errors += 1;
    }
    // Where the flow's browser ran, when on a Selenium Grid: the grid and the node.
    const ranOn = r.ran_on
      ? Object.entries({ grid: r.ran_on.grid, "grid.node": r.ran_on.node, "grid.session": r.ran_on.session }).filter(([, v]) => v !== undefined)
      : [];
    const properties =
      ranOn.length > 0
        ? `    <properties>\n${ranOn.map(([k, v]) => `      <property name="${k}" value="${escapeXml(v!)}"/>`).join("\n")}\n    </properties>\n`
        : "";
    return `  <testsuite name="${escapeXml(r.name)}" tests="${r.steps.length + (suiteError ? 1 : 0) + (flaky ? 1 : 0)}" failures="${f + (flaky ? 1 : 0)}" errors="${e + (suiteError ? 1 : 0)}" skipped="${s}" time="${secs(r.duration_ms)}" timestamp="${escapeXml(r.started_at)}">\n${properties}${cases.join("\n")}${flaky}${suiteError}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="flowproof" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${secs(time)}">\n${suites.join("\n")}\n</testsuites>\n`;
}
