import { describe, expect, test } from "bun:test";
import { escapeXml, junitXml } from "./junit.ts";
import type { RunReport, StepReport } from "./schema.ts";

const stepReport = (n: number, status: StepReport["status"], detail?: string): StepReport => ({
  id: `s${String(n).padStart(4, "0")}`,
  intent: `Click "B${n}"`,
  status,
  started_ms: n * 100,
  duration_ms: 1_500,
  ...(detail !== undefined ? { detail } : {}),
});

const report = (steps: StepReport[], extra: Partial<RunReport> = {}): RunReport => ({
  name: "Checkout",
  trace_id: "t-1",
  passed: steps.every((s) => s.status === "passed"),
  outcome: steps.every((s) => s.status === "passed") ? "passed" : steps.some((s) => s.status === "errored") ? "errored" : "failed",
  steps,
  duration_ms: 2_345,
  started_at: "2025-01-02T03:04:05.678Z",
  flowproof_version: "0.1.0",
  spec_path: "checkout.flow.yaml",
  trace_path: "checkout.trace.jsonl",
  ...extra,
});

/** The attributes of the first element named `tag`. */
function attrs(xml: string, tag: string): Record<string, string> {
  const m = new RegExp(`<${tag}\\b([^>]*)>`).exec(xml);
  if (!m) throw new Error(`no <${tag}> in ${xml}`);
  return Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!]));
}

describe("escapeXml", () => {
  test.each([
    ['a < b & c > "d"', "a &lt; b &amp; c &gt; &quot;d&quot;"],
    ["&amp;", "&amp;amp;"],
    ["bell\u0007 and nul\u0000 and tab\t and newline\n", "bell and nul and tab\t and newline\n"],
    ["plain", "plain"],
    ["nonchars \uFFFE\uFFFF, lone \uD800 and \uDC00 halves", "nonchars , lone  and  halves"],
    ["a pair 😀, CJK 漢, private \uE000 and \uFFFD stay", "a pair 😀, CJK 漢, private \uE000 and \uFFFD stay"],
    ["esc \u001b[31m, del \u007f", "esc [31m, del \u007f"],
  ])("escapes %p", (input, output) => {
    expect(escapeXml(input)).toBe(output);
  });
});

describe("junitXml", () => {
  test("holds only characters XML 1.0 allows, whatever the page text held", () => {
    const hostile = "Invoice \uFFFE\uFFFF \uD83D tail \u0000\u001b]0;pwned\u0007";
    const xml = junitXml([report([{ ...stepReport(1, "failed", `page shows ${hostile}`), intent: hostile }], { name: hostile, error: hostile })]);
    expect(xml).not.toMatch(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u);
    expect(xml).toContain("page shows Invoice   tail ]0;pwned");
  });

  test("opens with an XML declaration and one testsuites root", () => {
    const xml = junitXml([report([stepReport(1, "passed")])]);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    expect(xml.trimEnd().endsWith("</testsuites>")).toBe(true);
  });

  test("writes one self-closing testcase per passed step, named by id and intent", () => {
    const xml = junitXml([report([stepReport(1, "passed")])]);
    expect(xml).toContain('<testcase classname="Checkout" name="s0001 Click &quot;B1&quot;" time="1.500"/>');
  });

  test.each([
    ["failed", "failure"],
    ["errored", "error"],
  ] as const)("gives a %s step a <%s> element carrying the detail", (status, element) => {
    const xml = junitXml([report([stepReport(1, status, 'expected "Saved" <but> saw & nothing')])]);
    expect(xml).toContain(
      `<${element} message="expected &quot;Saved&quot; &lt;but&gt; saw &amp; nothing">expected &quot;Saved&quot; &lt;but&gt; saw &amp; nothing</${element}>`,
    );
  });

  test("gives a skipped step a <skipped> element", () => {
    const xml = junitXml([report([stepReport(1, "skipped", "an earlier step failed")])]);
    expect(xml).toContain('<skipped message="an earlier step failed"/>');
  });

  test("counts tests, failures, errors, skipped and time on the suite and on testsuites", () => {
    const steps = [stepReport(1, "passed"), stepReport(2, "failed", "x"), stepReport(3, "errored", "y"), stepReport(4, "skipped"), stepReport(5, "skipped")];
    const xml = junitXml([report(steps)]);
    expect(attrs(xml, "testsuites")).toEqual({ name: "flowproof", tests: "5", failures: "1", errors: "1", skipped: "2", time: "2.345" });
    expect(attrs(xml, "testsuite")).toMatchObject({
      name: "Checkout",
      tests: "5",
      failures: "1",
      errors: "1",
      skipped: "2",
      time: "2.345",
      timestamp: "2025-01-02T03:04:05.678Z",
    });
    expect(xml.match(/<testcase /g)).toHaveLength(5);
  });

  test("sums totals over several flows", () => {
    const xml = junitXml([
      report([stepReport(1, "passed"), stepReport(2, "failed", "x")]),
      report([stepReport(1, "passed")], { name: "Other", duration_ms: 1_000 }),
    ]);
    expect(attrs(xml, "testsuites")).toMatchObject({ tests: "3", failures: "1", errors: "0", time: "3.345" });
    expect(xml.match(/<testsuite /g)).toHaveLength(2);
  });

  test("gives a flow that could not run an error testcase", () => {
    const xml = junitXml([report([], { passed: false, outcome: "errored", error: "no Chromium found; set FLOWPROOF_CHROME" })]);
    expect(xml).toContain('<testcase classname="Checkout" name="flow could not run" time="0">');
    expect(xml).toContain('<error message="no Chromium found; set FLOWPROOF_CHROME">');
    expect(attrs(xml, "testsuite")).toMatchObject({ tests: "1", errors: "1" });
    expect(attrs(xml, "testsuites")).toMatchObject({ tests: "1", errors: "1" });
  });

  test("a stale flow gets a stale error testcase whatever its steps did", () => {
    const error = "checkout.flow.yaml changed since checkout.trace.jsonl was recorded: the trace is stale";
    const xml = junitXml([
      report([stepReport(1, "passed")], { passed: false, outcome: "stale", error, stale: { trace_hash: "sha256:a", flow_hash: "sha256:b" } }),
    ]);
    expect(xml).toContain('<testcase classname="Checkout" name="stale trace" time="0">');
    expect(xml).toContain(`<error type="stale" message="${error}">`);
    expect(attrs(xml, "testsuite")).toMatchObject({ tests: "2", failures: "0", errors: "1" });
  });

  test("an error of the run whose steps all passed (its evidence could not be written) is an error testcase, never 0 failures and 0 errors", () => {
    const error = "the run's evidence could not be written whole: cannot write recording.gif: the disk is full (ENOSPC)";
    const xml = junitXml([report([stepReport(1, "passed")], { passed: false, outcome: "errored", error })]);
    expect(xml).toContain('<testcase classname="Checkout" name="run error" time="0">');
    expect(attrs(xml, "testsuites")).toMatchObject({ tests: "2", failures: "0", errors: "1" });
  });

  test("escapes the flow name in attributes", () => {
    const xml = junitXml([report([stepReport(1, "passed")], { name: 'A & "B" <c>' })]);
    expect(attrs(xml, "testsuite")["name"]).toBe("A &amp; &quot;B&quot; &lt;c&gt;");
  });

  test("writes an empty testsuites element for no reports", () => {
    expect(attrs(junitXml([]), "testsuites")).toMatchObject({ tests: "0", failures: "0", errors: "0", skipped: "0", time: "0.000" });
  });

  test("a flow that ran on a Selenium Grid names the grid, the node and the session as properties of its testsuite", () => {
    const xml = junitXml([report([stepReport(1, "passed")], { ran_on: { grid: "http://***@hub:4444", node: "http://10.0.0.7:5555", session: "abc" } })]);
    expect(xml).toContain(
      '<properties>\n      <property name="grid" value="http://***@hub:4444"/>\n      <property name="grid.node" value="http://10.0.0.7:5555"/>\n      <property name="grid.session" value="abc"/>\n    </properties>',
    );
    expect(junitXml([report([stepReport(1, "passed")])])).not.toContain("<properties>");
  });
});
