// junit.xml from a run report: one <testsuite> per flow, one <testcase> per step. Pure.
import type { RunReport } from "./schema.ts";

export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

export function junitXml(reports: readonly RunReport[]): string {
  const secs = (ms: number) => (ms / 1000).toFixed(3);
  let tests = 0, failures = 0, errors = 0, skipped = 0, time = 0;
  const suites = reports.map((r) => {
    const f = r.steps.filter((s) => s.status === "failed").length;
    const e = r.steps.filter((s) => s.status === "errored").length;
    const s = r.steps.filter((s) => s.status === "skipped").length;
    tests += r.steps.length; failures += f; errors += e; skipped += s; time += r.duration_ms;
    const cases = r.steps.map((step) => {
      const open = `    <testcase classname="${escapeXml(r.name)}" name="${escapeXml(`${step.id} ${step.intent}`)}" time="${secs(step.duration_ms)}"`;
      const msg = escapeXml(step.detail ?? "");
      switch (step.status) {
        case "passed": return `${open}/>`;
        case "failed": return `${open}>\n      <failure message="${msg}">${msg}</failure>\n    </testcase>`;
        case "errored": return `${open}>\n      <error message="${msg}">${msg}</error>\n    </testcase>`;
        case "skipped": return `${open}>\n      <skipped message="${msg}"/>\n    </testcase>`;
      }
    });
    const suiteError = r.error && r.steps.length === 0 ? `\n    <testcase classname="${escapeXml(r.name)}" name="flow could not run" time="0">\n      <error message="${escapeXml(r.error)}">${escapeXml(r.error)}</error>\n    </testcase>` : "";
    if (suiteError) { tests += 1; errors += 1; }
    return `  <testsuite name="${escapeXml(r.name)}" tests="${r.steps.length + (suiteError ? 1 : 0)}" failures="${f}" errors="${e + (suiteError ? 1 : 0)}" skipped="${s}" time="${secs(r.duration_ms)}" timestamp="${escapeXml(r.started_at)}">\n${cases.join("\n")}${suiteError}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="flowproof" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${secs(time)}">\n${suites.join("\n")}\n</testsuites>\n`;
}
