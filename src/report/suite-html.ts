// The suite run's report.html: one row per flow with its verdict, linking each flow's own
// report.html. Self-contained (inline CSS), built from structured results only. Pure.
import { escapeXml as esc } from "./junit.ts";
import type { RunOutcome } from "./schema.ts";

export interface SuiteHtmlRow {
  readonly spec: string;
  readonly name: string;
  readonly outcome: RunOutcome;
  readonly duration_ms: number;
  readonly reason?: string;
  /** The flow's report.html relative to this page. */
  readonly report?: string;
  /** The Selenium Grid node its browser ran on. */
  readonly node?: string;
}

/** Badge text and colour class of each outcome: a stale or interrupted flow shows as an error. */
const BADGE: Record<RunOutcome, { readonly text: string; readonly css: string }> = {
  passed: { text: "PASS", css: "passed" },
  failed: { text: "FAIL", css: "failed" },
  skipped: { text: "SKIP", css: "skipped" },
  errored: { text: "ERROR", css: "errored" },
  stale: { text: "ERROR", css: "errored" },
  interrupted: { text: "ERROR", css: "errored" },
  expected_failure: { text: "XFAIL", css: "skipped" },
  flaky: { text: "FLAKY", css: "failed" },
};

export function suiteHtml(suite: string, runId: string, rows: readonly SuiteHtmlRow[]): string {
  const bad = rows.some((r) => r.outcome !== "passed" && r.outcome !== "skipped");
  const body = rows
    .map(
      (r) =>
        `<tr><td><span class="badge ${BADGE[r.outcome].css}">${BADGE[r.outcome].text}</span></td><td>${r.report ? `<a href="${esc(r.report)}">${esc(r.name)}</a>` : esc(r.name)}</td><td><code>${esc(r.spec)}</code>${r.node ? `<br><small>on ${esc(r.node)}</small>` : ""}</td><td>${r.duration_ms} ms</td><td>${esc(r.reason ?? "")}</td></tr>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>flowproof suite ${esc(suite)} — ${bad ? "FAIL" : "PASS"}</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}.badge{font-weight:600;padding:.1rem .4rem;border-radius:3px;color:#fff}.passed{background:#2a7d2a}.failed{background:#b22}.skipped{background:#777}.errored{background:#c80}</style>
</head><body>
<h1>${bad ? "FAIL" : "PASS"}: suite ${esc(suite)}</h1>
<p>Run <code>${esc(runId)}</code> · ${rows.length} flows</p>
<table><thead><tr><th>Verdict</th><th>Flow</th><th>File</th><th>Time</th><th>Detail</th></tr></thead><tbody>
${body}
</tbody></table>
</body></html>
`;
}
