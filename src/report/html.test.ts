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
  outcome: "failed",
  steps,
  duration_ms: 5_120,
  started_at: "2025-01-02T03:04:05.678Z",
  flowproof_version: "0.1.0",
  spec_path: "checkout.flow.yaml",
  trace_path: "checkout.trace.jsonl",
};

const rows = (html: string) => [
  ...html.matchAll(
    /<tr class="(\w+)(?: selected)?" data-step="\w+" tabindex="0"><td><span class="badge \w+">(\w+)<\/span><\/td><td class="id">([^<]*)<\/td><td>(.*?)<\/td>(?:<td class="num">\d+<\/td>)?<td class="num">(\d+) ms<\/td><\/tr>/g,
  ),
];

describe("reportHtml", () => {
  test("is self-contained: no external scripts, styles, images or links", () => {
    const html = reportHtml(base);
    expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/<script\b[^>]*\bsrc=/i);
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).toMatch(/<style>[\s\S]+<\/style>/);
  });

  test.each<[string, Partial<RunReport>, string]>([
    ["a passing run", { passed: true, outcome: "passed" as const, steps: steps.map((s) => ({ ...s, status: "passed" as const })) }, "PASS"],
    ["a failing run", {}, "FAIL"],
    ["a run that could not start", { outcome: "errored" as const, steps: [], error: "no Chromium found" }, "ERROR"],
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
    expect(html).not.toContain("<b>Ada</b>");
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
    const html = reportHtml({
      ...base,
      passed: false,
      outcome: "errored",
      steps: [{ id: "s0001", intent: 'Click "A"', status: "errored", detail: "driver fault", started_ms: 0, duration_ms: 1 }],
    });
    expect(html).toMatch(/<span class="verdict ERROR">ERROR<\/span>/);
  });
});

describe("reportHtml frame viewer", () => {
  const recorded: RunReport = {
    ...base,
    recording: {
      format: "filmstrip/1",
      dir: "recording",
      frames: [
        { offset_ms: 1, file: "recording/frame-1-aaaaaaaa.png" },
        { offset_ms: 110, file: "recording/frame-110-bbbbbbbb.png" },
        { offset_ms: 121, file: "recording/frame-121-cccccccc.png" },
        { offset_ms: 5100, file: "recording/frame-5100-dddddddd.png" },
      ],
      steps: [
        { id: "s0001", start_ms: 0, end_ms: 119 },
        { id: "s0002", start_ms: 120, end_ms: 5119 },
        { id: "s0003", start_ms: 5120, end_ms: 5120 },
      ],
      gif: "recording.gif",
    },
  };
  const panelOf = (html: string, id: string) =>
    new RegExp(`<section class="step-frames" id="frames-${id}" data-step="${id}"( hidden)?>(.*?)</section>`).exec(html);

  test("has one panel per step; only the first failing step's panel is visible at first", () => {
    const html = reportHtml(recorded);
    expect(panelOf(html, "s0001")![1]).toBe(" hidden");
    expect(panelOf(html, "s0002")![1]).toBeUndefined();
    expect(panelOf(html, "s0003")![1]).toBe(" hidden");
    expect(html).toContain('<tr class="failed selected" data-step="s0002"');
  });

  test("references each step's frames relatively, labelled, with the failure frame highlighted", () => {
    const html = reportHtml(recorded);
    const s1 = panelOf(html, "s0001")![2]!;
    expect([...s1.matchAll(/<figure class="frame (\w+)"><img src="([^"]+)"/g)].map((m) => [m[1], m[2]])).toEqual([
      ["before", "recording/frame-1-aaaaaaaa.png"],
      ["after", "recording/frame-110-bbbbbbbb.png"],
    ]);
    const s2 = panelOf(html, "s0002")![2]!;
    expect([...s2.matchAll(/<figure class="frame (\w+)"/g)].map((m) => m[1])).toEqual(["before", "failure"]);
    expect(panelOf(html, "s0003")![2]).toContain("Not run, so nothing was captured.");
  });

  test("embeds the GIF when the run has one", () => {
    expect(reportHtml(recorded)).toContain('<img src="recording.gif" alt="Recording of the whole run">');
    expect(reportHtml(base)).not.toContain("recording.gif");
  });

  test("says when frames were dropped for redaction", () => {
    const html = reportHtml({
      ...recorded,
      recording: { ...recorded.recording!, frames: [], steps: recorded.recording!.steps.map((s) => ({ ...s, frames_dropped: "redaction" as const })) },
    });
    expect(panelOf(html, "s0001")![2]).toContain("their redaction could not be guaranteed");
  });

  test("says why, escaped, when the recorder said", () => {
    const why = "a secret the screen shows: <b>Range</b> failed";
    const html = reportHtml({
      ...recorded,
      recording: {
        ...recorded.recording!,
        frames: [],
        steps: recorded.recording!.steps.map((s) => ({ ...s, frames_dropped: "redaction" as const, frames_dropped_why: why })),
      },
    });
    expect(panelOf(html, "s0001")![2]).toContain("their redaction could not be guaranteed (a secret the screen shows: &lt;b&gt;Range&lt;/b&gt; failed).");
  });
});

describe("reportHtml, an agent run", () => {
  const agentStep: StepReport = {
    id: "s0001",
    intent: "prompt: Book KQ311",
    status: "failed",
    detail: "assert_no_tool_call `book_flight`: the agent made it",
    started_ms: 0,
    duration_ms: 900,
    agent: {
      turns: 2,
      model_calls: 0,
      calls: [
        { turn: 1, name: "search", arguments: { to: "NBO" }, result: '["KQ311"]' },
        { turn: 2, name: "book_flight", arguments: { flight: { id: "KQ311" } }, result: "<ok>" },
      ],
      reply: "Booked <KQ311>",
      failed_check: { text: "assert_no_tool_call: book_flight", call: 1 },
    },
  };
  test("shows each call with arguments and result, the reply, and the failed assertion on the call it matched", () => {
    const html = reportHtml({ ...base, passed: false, steps: [agentStep] });
    expect(html).toContain("turn 1 · call #1 <b>search</b>");
    expect(html).toContain("&quot;to&quot;: &quot;NBO&quot;");
    expect(html).toContain('<pre class="result">&lt;ok&gt;</pre>');
    expect(html).toContain("<pre>Booked &lt;KQ311&gt;</pre>");
    expect(html).toMatch(
      /<li class="call flagged"><div class="call-head">turn 2 · call #2 <b>book_flight<\/b> <span class="badge failed">assert_no_tool_call: book_flight<\/span>/,
    );
    expect(html.match(/class="call flagged"/g)).toHaveLength(1);
  });
  test("every line of a run shows the run's conversation; a run without frames counts model calls, not frames", () => {
    const lines: StepReport[] = [
      { ...agentStep, id: "s0001.1" },
      { id: "s0001.2", intent: "assert_no_tool_call: book_flight", status: "failed", started_ms: 0, duration_ms: 0 },
    ];
    const html = reportHtml({
      ...base,
      passed: false,
      model_calls: 0,
      steps: lines,
      recording: { format: "filmstrip/1", dir: "recording", frames: [], steps: [] },
    });
    expect(/<section class="step-frames" id="frames-s0001\.2"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1]).toContain("turn 2 · call #2 <b>book_flight</b>");
    expect(html).toContain(" · 0 model calls</div>");
    expect(html).not.toContain("frames (filmstrip/1)");
    expect(html).not.toContain('<th class="num">Frames</th>');
  });
  test("a missed assertion (no call to point at) is shown above the calls; no reply says so", () => {
    const { reply: _reply, ...noReply } = agentStep.agent!;
    const html = reportHtml({ ...base, passed: false, steps: [{ ...agentStep, agent: { ...noReply, failed_check: { text: "assert_tool_call: refund" } } }] });
    expect(html).toContain('<p class="failed-check"><span class="badge failed">FAILED</span> assert_tool_call: refund</p>');
    expect(html).toContain("none: the last turn was a tool call");
    expect(html).not.toContain('class="call flagged"');
  });

  test("shows each step's effect recorded and seen, whether it was checked, and a warning", () => {
    const html = reportHtml({
      ...base,
      steps: [
        {
          ...steps[0]!,
          effect: {
            check: "on",
            recorded: { requests: ["POST /api/orders"], navigated: "/orders/confirm" },
            seen: { dom: "page" },
            warning: "Click: at record it moved focus; at replay it did not",
          },
        },
        { ...steps[1]!, effect: { check: "off" } },
      ],
    });
    expect(html).toContain("<th>Effect recorded</th><td>sent POST /api/orders · navigated to /orders/confirm</td>");
    expect(html).toContain("<th>Effect seen</th><td>changed the page</td>");
    expect(html).toContain("Warning: Click: at record it moved focus; at replay it did not");
    expect(html).toContain("off: not checked (effects: off)");
  });

  test("a step on a surface that observes nothing says so instead of showing an empty effect", () => {
    const html = reportHtml({ ...base, steps: [{ ...steps[0]!, effect: { check: "unjudged", observes: [], recorded: {} } }] });
    expect(html).toContain("not judged: this surface observes no effects");
    expect(html).not.toContain("<th>Effect recorded</th>");
  });
});
