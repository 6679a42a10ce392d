// report.html: a self-contained page (inline CSS and JS, no external resources; frames referenced
// relatively from the bundle) with the verdict, a clickable step table and the step-synchronised
// frame viewer. Built from the run report only. Pure.
import type { RunOutcome, RunReport } from "./schema.ts";
import { escapeXml as esc } from "./junit.ts";
import { ROLE_LABEL, stepViews, type StepView } from "./viewer.ts";

const BADGE: Record<string, string> = { passed: "PASS", failed: "FAIL", skipped: "SKIP", errored: "ERROR" };
/** The page's verdict: a skipped flow passed (it proves nothing failed); stale and interrupted are errors. */
const VERDICT: Record<RunOutcome, "PASS" | "FAIL" | "ERROR" | "XFAIL" | "FLAKY"> = {
  passed: "PASS",
  skipped: "PASS",
  failed: "FAIL",
  errored: "ERROR",
  stale: "ERROR",
  interrupted: "ERROR",
  expected_failure: "XFAIL",
  flaky: "FLAKY",
};

/** The conversation an agent run's line belongs to: its own, or its run's (`s0001.3` reads `s0001.1`'s). */
function conversationOf(report: RunReport, step: RunReport["steps"][number]): RunReport["steps"][number]["agent"] {
  if (step.agent) return step.agent;
  const run = /^(s\d+)\.\d+$/.exec(step.id)?.[1];
  return run === undefined ? undefined : report.steps.find((s) => s.agent !== undefined && s.id.startsWith(`${run}.`))?.agent;
}

function panel(view: StepView, selected: boolean, agent: RunReport["steps"][number]["agent"]): string {
  const { step } = view;
  const figures = view.frames
    .map(
      (f) =>
        `<figure class="frame ${f.role}"><img src="${esc(f.file)}" alt="${esc(`${ROLE_LABEL[f.role]} ${step.id}`)}" loading="lazy"><figcaption>${ROLE_LABEL[f.role]} · ${f.offset_ms} ms</figcaption></figure>`,
    )
    .join("");
  // Evidence a failed assertion wrote (a screenshot's actual and diff images).
  const evidence = (step.evidence ?? [])
    .map((file) => `<figure class="frame evidence"><img src="${esc(file)}" alt="${esc(file)}" loading="lazy"><figcaption>${esc(file)}</figcaption></figure>`)
    .join("");
  const notes = [
    view.dropped
      ? `<p class="note dropped">Some frames of this step were not kept: their redaction could not be guaranteed${view.droppedWhy ? ` (${esc(view.droppedWhy)})` : ""}.</p>`
      : "",
    view.frames.length === 0 && !view.dropped
      ? `<p class="note">${step.status === "skipped" ? "Not run, so nothing was captured." : "No frames were captured for this step."}</p>`
      : "",
  ].join("");
  const body = agent ? conversation(agent) : `${notes}<div class="strip">${figures}${evidence}</div>`;
  return `<section class="step-frames" id="frames-${esc(step.id)}" data-step="${esc(step.id)}"${selected ? "" : " hidden"}><h2><span class="badge ${step.status}">${BADGE[step.status]}</span> ${esc(step.id)} ${esc(step.intent)}</h2>${step.detail ? `<div class="detail">${esc(step.detail)}</div>` : ""}${effectBlock(step.effect)}${body}</section>`;
}

type EffectView = NonNullable<RunReport["steps"][number]["effect"]>;
type EffectParts = NonNullable<EffectView["seen"]>;

/** One effect in words: `sent POST /api/orders · navigated to /orders/confirm`; `nothing`. */
export function effectWords(e: EffectParts | undefined): string {
  if (!e) return "not observed";
  const parts = [
    ...(e.requests && e.requests.length > 0 ? [`sent ${e.requests.join(", ")}`] : []),
    ...(e.navigated !== undefined ? [`navigated to ${e.navigated}`] : []),
    ...(e.dialog !== undefined ? [`opened a ${e.dialog} dialog`] : []),
    ...(e.download ? ["started a download"] : []),
    ...(e.target && e.target.length > 0 ? [`changed the target's ${e.target.join(", ")}`] : []),
    ...(e.focus ? ["moved focus"] : []),
    ...(e.dom !== undefined ? [e.dom === "near" ? "changed the page near the target" : "changed the page"] : []),
  ];
  return parts.length > 0 ? parts.join(" · ") : "nothing";
}

const CHECK_LABEL: Record<EffectView["check"], string> = {
  on: "checked",
  strict: "checked (strict)",
  off: "off: not checked (effects: off)",
  unjudged: "not judged: nothing recorded to compare",
};

/** The step's effect: recorded and seen, whether it was checked, and a warning. */
function effectBlock(effect: EffectView | undefined): string {
  if (!effect) return "";
  if (effect.check === "unjudged" && effect.observes?.length === 0) {
    return `<table class="effect"><tr><th>Effect check</th><td>not judged: this surface observes no effects</td></tr></table>`;
  }
  const rows = [
    `<tr><th>Effect check</th><td>${esc(CHECK_LABEL[effect.check])}</td></tr>`,
    ...(effect.check !== "off"
      ? [`<tr><th>Effect recorded</th><td>${esc(effectWords(effect.recorded ?? (effect.observes ? effect.seen : undefined)))}</td></tr>`]
      : []),
    ...(effect.check !== "off" && !effect.observes ? [`<tr><th>Effect seen</th><td>${esc(effectWords(effect.seen))}</td></tr>`] : []),
  ].join("");
  return `<table class="effect">${rows}</table>${effect.warning ? `<p class="note effect-warning">Warning: ${esc(effect.warning)}</p>` : ""}`;
}

/** An agent run: each tool call with its arguments and result, in turn order, the final reply, and the failed assertion against the call it matched or missed. */
function conversation(agent: NonNullable<RunReport["steps"][number]["agent"]>): string {
  const failed = agent.failed_check;
  const json = (v: unknown) => esc(typeof v === "string" ? v : JSON.stringify(v, null, 2));
  const diverged = agent.diverged_turn;
  // A replay that diverged: the calls are as they happened at replay, and the diverging turn is marked where it came.
  const mark =
    diverged !== undefined
      ? `<li class="call flagged diverged"><div class="call-head">turn ${diverged} · <span class="badge failed">diverged</span> the agent's request no longer matches the recording; nothing after it was replayed</div></li>`
      : "";
  const calls =
    agent.calls
      .map((c, i) => {
        const flagged = failed?.call === i;
        const atReplay = diverged !== undefined && c.result !== undefined ? "result at replay" : "result";
        return `<li class="call${flagged ? " flagged" : ""}"><div class="call-head">turn ${c.turn} · call #${i + 1} <b>${esc(c.name)}</b>${flagged ? ` <span class="badge failed">${esc(failed.text)}</span>` : ""}</div><pre class="args">${json(c.arguments)}</pre>${c.result !== undefined ? `<div class="result-label">${atReplay}</div><pre class="result">${json(c.result)}</pre>` : ""}</li>`;
      })
      .join("") + mark;
  const notes =
    (agent.notes ?? []).map((n) => `<p class="note">${esc(n)}</p>`).join("") +
    (agent.output
      ? `<p class="note">the agent's output: <a href="${esc(agent.output.stdout)}">stdout</a> · <a href="${esc(agent.output.stderr)}">stderr</a></p>`
      : "");
  const unplaced = failed && failed.call === undefined ? `<p class="failed-check"><span class="badge failed">FAILED</span> ${esc(failed.text)}</p>` : "";
  return `<div class="conversation"><p class="note">${agent.turns} model turn${agent.turns === 1 ? "" : "s"} · ${agent.calls.length} tool call${agent.calls.length === 1 ? "" : "s"} · ${agent.model_calls} model call${agent.model_calls === 1 ? "" : "s"} made${agent.model_calls === 0 ? " (served from the cassette)" : ""}</p>${notes}${unplaced}<ol class="calls">${calls}</ol><div class="reply"><div class="result-label">final reply</div>${agent.reply !== undefined ? `<pre>${esc(agent.reply)}</pre>` : `<p class="note">none: the last turn was a tool call, or the model was never reached</p>`}</div></div>`;
}

/** Row clicks and arrow keys switch the visible step panel; nothing is fetched. */
const SCRIPT = `(() => {
  const rows = Array.from(document.querySelectorAll("tr[data-step]"));
  const show = (row) => {
    for (const r of rows) r.classList.toggle("selected", r === row);
    for (const p of document.querySelectorAll("section.step-frames")) p.hidden = p.dataset.step !== row.dataset.step;
  };
  for (const row of rows) {
    row.addEventListener("click", () => show(row));
    row.addEventListener("keydown", (e) => {
      const i = rows.indexOf(row);
      const next = e.key === "ArrowDown" ? rows[i + 1] : e.key === "ArrowUp" ? rows[i - 1] : e.key === "Enter" ? row : undefined;
      if (next) { e.preventDefault(); show(next); next.focus(); }
    });
  }
})();`;

export function reportHtml(report: RunReport): string {
  const verdict = VERDICT[report.outcome];
  const views = stepViews(report);
  const initial = report.steps.find((s) => s.status === "failed" || s.status === "errored") ?? report.steps[0];
  const rec = report.recording;
  // A run without a single frame (an agent or API flow) has no frames to count.
  const framed = (rec?.frames.length ?? 0) > 0;
  const rows = report.steps
    .map((s, i) => {
      const frames = views[i]!.frames.filter((f) => f.role !== "earlier").length;
      return `<tr class="${s.status}${s === initial ? " selected" : ""}" data-step="${esc(s.id)}" tabindex="0"><td><span class="badge ${s.status}">${BADGE[s.status]}</span></td><td class="id">${esc(s.id)}</td><td>${esc(s.intent)}${s.detail ? `<div class="detail">${esc(s.detail)}</div>` : ""}</td>${framed ? `<td class="num">${frames}</td>` : ""}<td class="num">${s.duration_ms} ms</td></tr>`;
    })
    .join("\n");
  const panels = views.map((v) => panel(v, v.step === initial, conversationOf(report, v.step))).join("\n");
  const gif = rec?.gif
    ? `<details class="gif"><summary>Whole run as an animation</summary><img src="${esc(rec.gif)}" alt="Recording of the whole run"></details>`
    : "";
  const recordingMeta = rec && framed ? ` · ${rec.frames.length} frames (${esc(rec.format)})` : "";
  const modelMeta = report.model_calls !== undefined ? ` · ${report.model_calls} model call${report.model_calls === 1 ? "" : "s"}` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${verdict}: ${esc(report.name)} — flowproof</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem;color:#1d2330;background:#fafbfc}
h1{font-size:1.4rem;margin:0 0 .25rem} h2{font-size:1.05rem;margin:0 0 .5rem} .meta{color:#5b6575;margin-bottom:1.25rem}
.verdict{display:inline-block;padding:.2rem .6rem;border-radius:4px;color:#fff;font-weight:700;margin-right:.5rem}
.verdict.PASS{background:#1a7f37}.verdict.FAIL{background:#cf222e}.verdict.ERROR{background:#bf8700}
.layout{display:grid;grid-template-columns:minmax(320px,5fr) 7fr;gap:1.25rem;align-items:start}
@media (max-width:1000px){.layout{grid-template-columns:1fr}}
table{border-collapse:collapse;width:100%;background:#fff;box-shadow:0 1px 2px #0001}
td,th{padding:.45rem .6rem;border-bottom:1px solid #e6e8eb;text-align:left;vertical-align:top}
th{background:#f3f4f6;font-weight:600} .num{text-align:right;white-space:nowrap;color:#5b6575} .id{font-family:ui-monospace,monospace;color:#5b6575}
tr[data-step]{cursor:pointer} tr[data-step]:hover td{background:#f0f6ff} tr.selected td{background:#ddf4ff!important;box-shadow:inset 0 0 0 0 #0969da} tr.selected td:first-child{border-left:3px solid #0969da}
.badge{font:600 11px ui-monospace,monospace;padding:.1rem .4rem;border-radius:3px;color:#fff}
.badge.passed{background:#1a7f37}.badge.failed{background:#cf222e}.badge.skipped{background:#8c959f}.badge.errored{background:#bf8700}
tr.failed td{background:#fff5f5} tr.errored td{background:#fff8e1} .detail{margin-top:.25rem;color:#cf222e;font-family:ui-monospace,monospace;font-size:12px;white-space:pre-wrap} table.effect{margin:.5rem 0;font-size:12px} table.effect th{text-align:left;padding-right:1rem;color:#57606a;font-weight:normal} .effect-warning{color:#9a6700}
.error{padding:.75rem;background:#fff8c5;border:1px solid #d4a72c;border-radius:4px;margin-bottom:1rem}
.viewer{position:sticky;top:1rem;background:#fff;box-shadow:0 1px 2px #0001;padding:1rem;border-radius:4px}
.strip{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:.75rem;margin-top:.75rem}
.frame{margin:0;border:2px solid #d0d7de;border-radius:4px;overflow:hidden;background:#f6f8fa}
.frame img{display:block;width:100%;height:auto} .frame figcaption{padding:.25rem .5rem;font-size:12px;color:#5b6575}
.frame.failure{border-color:#cf222e;box-shadow:0 0 0 3px #cf222e55} .frame.failure figcaption{color:#cf222e;font-weight:700}
.frame.pointer{border-color:#bf3989} .frame.earlier{opacity:.75;border-style:dashed}
.note{color:#5b6575;margin:.5rem 0} .note.dropped{color:#9a6700;background:#fff8c5;padding:.4rem .6rem;border-radius:4px}
.calls{padding-left:1.25rem} .call{margin:.5rem 0;padding:.5rem;border:1px solid #d0d7de;border-radius:4px;background:#f6f8fa} .call.flagged{border-color:#cf222e;box-shadow:0 0 0 3px #cf222e55}
.conversation pre{margin:.25rem 0;padding:.4rem;background:#fff;border:1px solid #e6e8eb;white-space:pre-wrap;font-size:12px} .result-label{font-size:11px;color:#5b6575;text-transform:uppercase}
.gif{margin-top:1.25rem} .gif img{max-width:100%;border:1px solid #d0d7de;margin-top:.5rem}
</style></head>
<body>
<h1><span class="verdict ${verdict}">${verdict}</span>${esc(report.name)}</h1>
<div class="meta">${report.steps.filter((s) => s.status === "passed").length}/${report.steps.length} steps passed · ${report.duration_ms} ms · ${esc(report.started_at)} · trace ${esc(report.trace_id)} · flowproof ${esc(report.flowproof_version)}${recordingMeta}${modelMeta}</div>
${report.error ? `<div class="error">${esc(report.error)}</div>` : ""}
<div class="layout">
<table><thead><tr><th>Status</th><th>Step</th><th>Intent</th>${framed ? `<th class="num">Frames</th>` : ""}<th class="num">Duration</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<div class="viewer">
${panels}
</div>
</div>
${gif}
<script>${SCRIPT}</script>
</body></html>
`;
}
