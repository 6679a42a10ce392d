import { describe, expect, test } from "bun:test";
import { reportHtml } from "./html.ts";
import type { RunReport, StepReport } from "./schema.ts";

const steps: StepReport[] = [
  { id: "s0001", intent: 'Type <b>Ada</b> into the "Name" field', status: "passed", started_ms: 0, duration_ms: 120 },
  { id: "s0002", intent: "Click & go", status: "failed", detail: "expected <Saved> & saw nothing", started_ms: 120, duration_ms: 5_000 },
  { id: "s0003", intent: "page shows Done", status: "skipped", started_ms: 5_120, duration_ms: 0 },
];

const base: RunReport = {
  name: "Checkout <script>alert(1)</script>",
  trace_id: "trace-1",
  passed: false,
  steps,
  duration_ms: 5_120,
  started_at: "2025-01-02T03:04:05.678Z",
  flowproof_version: "0.1.0",
  spec_path: "checkout.flow.yaml",
  trace_path: "checkout.trace.jsonl",
};

const rows = (html: string) => [...html.matchAll(/<tr class="(\w+)"><td><span class="badge \w+">(\w+)<\/span><\/td><td class="id">([^<]*)<\/td><td>(.*?)<\/td><td class="num">(\d+) ms<\/td><\/tr>/g)];

describe("reportHtml", () => {
  test("is self-contained: no external scripts, styles, images or links", () => {
    const html = reportHtml(base);
    expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/<script\b/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).toMatch(/<style>[\s\S]+<\/style>/);
  });

  test.each<[string, Partial<RunReport>, string]>([
    ["a passing run", { passed: true, steps: steps.map((s) => ({ ...s, status: "passed" as const })) }, "PASS"],
    ["a failing run", {}, "FAIL"],
    ["a run that could not start", { steps: [], error: "no Chromium found" }, "ERROR"],
  ])("shows the verdict of %s in the title and the heading", (_what, extra, verdict) => {
    const html = reportHtml({ ...base, ...extra });
    expect(html).toMatch(new RegExp(`<title>${verdict}: `));
    expect(html).toMatch(new RegExp(`<h1><span class="verdict ${verdict}">${verdict}</span>`));
  });

  test("writes one row per step with its status, id, escaped intent and duration", () => {
    const found = rows(reportHtml(base)).map((m) => [m[1], m[2], m[3], m[4], m[5]]);
    expect(found).toEqual([
      ["passed", "PASS", "s0001", "Type &lt;b&gt;Ada&lt;/b&gt; into the &quot;Name&quot; field", "120"],
      ["failed", "FAIL", "s0002", 'Click &amp; go<div class="detail">expected &lt;Saved&gt; &amp; saw nothing</div>', "5000"],
      ["skipped", "SKIP", "s0003", "page shows Done", "0"],
    ]);
  });

  test("escapes the flow name everywhere it appears", () => {
    const html = reportHtml(base);
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html.match(/Checkout &lt;script&gt;alert\(1\)&lt;\/script&gt;/g)).toHaveLength(2);
  });

  test("shows how many steps passed", () => {
    expect(reportHtml(base)).toMatch(/<div class="meta">1\/3 steps passed · 5120 ms · /);
  });

  test("shows a run error in its own escaped box", () => {
    const html = reportHtml({ ...base, steps: [], error: "could not reach <http://x>" });
    expect(html).toContain('<div class="error">could not reach &lt;http://x&gt;</div>');
  });

  test("has no error box when the run had no error", () => {
    expect(reportHtml(base)).not.toContain('<div class="error">');
  });
});

describe("reportHtml verdict", () => {
  test("shows ERROR when a step errored even without a run-level error", () => {
    const html = reportHtml({ ...base, passed: false, steps: [{ id: "s0001", intent: "Click \"A\"", status: "errored", detail: "driver fault", started_ms: 0, duration_ms: 1 }] });
    expect(html).toMatch(/<span class="verdict ERROR">ERROR<\/span>/);
  });
});
