// The heal.html of an agent flow: for each agent run whose conversation changed, turn by turn, the
// recorded turn beside the new one — the tool calls it made (arguments, and the result the model
// was then told) and its reply — the turns served from the recording marked as kept, the first
// re-recorded turn marked. Built from the runs' conversations only. Pure.
import { escapeXml as esc } from "./junit.ts";

export interface HealCall {
  readonly turn: number;
  readonly name: string;
  readonly arguments: unknown;
  readonly result?: string;
}

export interface HealConversation {
  readonly turns: number;
  readonly calls: readonly HealCall[];
  readonly reply?: string;
}

export interface AgentHealRun {
  readonly id: string;
  readonly intent: string;
  /** Turns served from the recording before the first divergence. */
  readonly kept: number;
  readonly recorded: HealConversation;
  readonly now: HealConversation;
}

export interface AgentHealPage {
  readonly name: string;
  readonly tracePath: string;
  readonly proposedPath: string;
  readonly runs: readonly AgentHealRun[];
}

const text = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));

/** What one turn of a conversation did: its calls, or its reply when it was the last. */
function turnCell(c: HealConversation, turn: number): string {
  if (turn > c.turns) return `<p class="none">no such turn</p>`;
  const calls = c.calls.filter((x) => x.turn === turn);
  const items = calls
    .map(
      (x) =>
        `<li><b>${esc(x.name)}</b> <code>${esc(text(x.arguments))}</code>${x.result !== undefined ? `<div class="result">returned <code>${esc(x.result)}</code></div>` : ""}</li>`,
    )
    .join("");
  const reply = turn === c.turns && c.reply !== undefined ? `<p class="reply">reply: ${esc(c.reply)}</p>` : "";
  return `${items ? `<ul>${items}</ul>` : ""}${reply}` || `<p class="none">no tool call</p>`;
}

function runSection(r: AgentHealRun): string {
  const n = Math.max(r.recorded.turns, r.now.turns);
  const rows = Array.from({ length: n }, (_, i) => {
    const turn = i + 1;
    const state = turn <= r.kept ? "kept" : turn === r.kept + 1 ? "diverged" : "new";
    const label = state === "kept" ? "kept (served from the recording)" : state === "diverged" ? "first re-recorded turn" : "re-recorded";
    return `<tr class="${state}"><th>turn ${turn}<div class="state">${label}</div></th><td class="old">${turnCell(r.recorded, turn)}</td><td class="new">${turnCell(r.now, turn)}</td></tr>`;
  }).join("");
  return `<section class="changed" data-step="${esc(r.id)}">
<h2>${esc(r.id)} ${esc(r.intent)}</h2>
<p class="summary">${r.kept} of ${r.recorded.turns} recorded turn${r.recorded.turns === 1 ? "" : "s"} kept; from turn ${r.kept + 1} on re-recorded against the live model (${r.now.turns} turn${r.now.turns === 1 ? "" : "s"} now).</p>
<table><thead><tr><th>Turn</th><th>Recorded (current trace)</th><th>Proposed (live model now)</th></tr></thead><tbody>${rows}</tbody></table>
</section>`;
}

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222}h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #ddd;padding:6px 8px;vertical-align:top;text-align:left}
tr.kept{color:#666}tr.diverged th{background:#fdecea}tr.new th{background:#fff7e0}.state{font-weight:normal;font-size:12px}
td.old{background:#fafafa}code{white-space:pre-wrap;word-break:break-all}.none{color:#999;margin:0}ul{margin:0;padding-left:18px}.reply{margin:4px 0 0}`;

/** The review page of an agent flow's heal proposal. */
export function agentHealHtml(page: AgentHealPage): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>heal: ${esc(page.name)}</title><style>${STYLE}</style></head>
<body><h1>heal: ${esc(page.name)}</h1>
<p>Current trace <code>${esc(page.tracePath)}</code> · proposal <code>${esc(page.proposedPath)}</code>. Apply with <code>flowproof heal --apply</code> once reviewed.</p>
${page.runs.map(runSection).join("\n")}
</body></html>
`;
}
