// report.html: a self-contained page (inline CSS, no external resources) showing the verdict
// and the step table of one run. Built from the run report only. Pure.
import type { RunReport } from "./schema.ts";
import { escapeXml as esc } from "./junit.ts";

const BADGE: Record<string, string> = { passed: "PASS", failed: "FAIL", skipped: "SKIP", errored: "ERROR" };

export function reportHtml(report: RunReport): string {
  const verdict = report.passed ? "PASS" : report.error !== undefined || report.steps.some((s) => s.status === "errored") ? "ERROR" : "FAIL";
  const rows = report.steps.map((s) => `<tr class="${s.status}"><td><span class="badge ${s.status}">${BADGE[s.status]}</span></td><td class="id">${esc(s.id)}</td><td>${esc(s.intent)}${s.detail ? `<div class="detail">${esc(s.detail)}</div>` : ""}</td><td class="num">${s.duration_ms} ms</td></tr>`).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${verdict}: ${esc(report.name)} — flowproof</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem;color:#1d2330;background:#fafbfc}
h1{font-size:1.4rem;margin:0 0 .25rem} .meta{color:#5b6575;margin-bottom:1.25rem}
.verdict{display:inline-block;padding:.2rem .6rem;border-radius:4px;color:#fff;font-weight:700;margin-right:.5rem}
.verdict.PASS{background:#1a7f37}.verdict.FAIL{background:#cf222e}.verdict.ERROR{background:#bf8700}
table{border-collapse:collapse;width:100%;background:#fff;box-shadow:0 1px 2px #0001}
td,th{padding:.45rem .6rem;border-bottom:1px solid #e6e8eb;text-align:left;vertical-align:top}
th{background:#f3f4f6;font-weight:600} .num{text-align:right;white-space:nowrap;color:#5b6575} .id{font-family:ui-monospace,monospace;color:#5b6575}
.badge{font:600 11px ui-monospace,monospace;padding:.1rem .4rem;border-radius:3px;color:#fff}
.badge.passed{background:#1a7f37}.badge.failed{background:#cf222e}.badge.skipped{background:#8c959f}.badge.errored{background:#bf8700}
tr.failed td{background:#fff5f5} .detail{margin-top:.25rem;color:#cf222e;font-family:ui-monospace,monospace;font-size:12px;white-space:pre-wrap}
.error{padding:.75rem;background:#fff8c5;border:1px solid #d4a72c;border-radius:4px;margin-bottom:1rem}
</style></head>
<body>
<h1><span class="verdict ${verdict}">${verdict}</span>${esc(report.name)}</h1>
<div class="meta">${report.steps.filter((s) => s.status === "passed").length}/${report.steps.length} steps passed · ${report.duration_ms} ms · ${esc(report.started_at)} · trace ${esc(report.trace_id)} · flowproof ${esc(report.flowproof_version)}</div>
${report.error ? `<div class="error">${esc(report.error)}</div>` : ""}
<table><thead><tr><th>Status</th><th>Step</th><th>Intent</th><th class="num">Duration</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>
`;
}
