import { describe, expect, test } from "bun:test";
import { suiteHtml } from "./suite-html.ts";

describe("suiteHtml", () => {
  test("one row per flow with its badge, link and escaped detail; FAIL when any flow failed", () => {
    const html = suiteHtml("s", "r1", [
      { spec: "a.flow.yaml", name: "A", outcome: "passed", duration_ms: 5, report: "flows/a/report.html" },
      { spec: "b.flow.yaml", name: "B <x>", outcome: "errored", duration_ms: 0, reason: "bad & broken" },
    ]);
    expect(html).toContain("<title>flowproof suite s — FAIL</title>");
    expect(html).toContain('<a href="flows/a/report.html">A</a>');
    expect(html).toContain("B &lt;x&gt;");
    expect(html).toContain("bad &amp; broken");
    expect(html.match(/<tr><td>/g)?.length).toBe(2);
  });
  test("a stale or interrupted flow shows as an error; skipped flows still pass the page", () => {
    const html = suiteHtml("s", "r1", [
      { spec: "a.flow.yaml", name: "A", outcome: "stale", duration_ms: 5 },
      { spec: "b.flow.yaml", name: "B", outcome: "interrupted", duration_ms: 0 },
    ]);
    expect(html).toContain("<title>flowproof suite s — FAIL</title>");
    expect(html.match(/<span class="badge errored">ERROR<\/span>/g)?.length).toBe(2);
    const skipped = suiteHtml("s", "r1", [{ spec: "a.flow.yaml", name: "A", outcome: "skipped", duration_ms: 0 }]);
    expect(skipped).toContain("<title>flowproof suite s — PASS</title>");
    expect(skipped).toContain('<span class="badge skipped">SKIP</span>');
  });
  test("a flow that ran on a Selenium Grid names its node under its file", () => {
    const html = suiteHtml("s", "r1", [{ spec: "a.flow.yaml", name: "A", outcome: "passed", duration_ms: 5, node: "http://10.0.0.7:5555" }]);
    expect(html).toContain("<code>a.flow.yaml</code><br><small>on http://10.0.0.7:5555</small>");
  });
});
