// `flowproof heal` of a flow with agent runs: re-records each run from its first diverging turn —
// the recorded turns are served while the agent's requests still match them, every request from
// the first that does not goes to the live upstream model — into `<stem>.proposed.jsonl`, and
// writes `<stem>.heal.html`, turn by turn, recorded beside new. The trace is replaced only with
// `apply`. A run whose every turn still matches is healthy: no proposal is left.
import { renameSync, rmSync } from "node:fs";
import type { Trace } from "../trace/read.ts";
import type { AgentTurn } from "../plugins/api.ts";
import { agentHealHtml, type AgentHealRun } from "../report/agent-heal-html.ts";
import { writeFileAtomic } from "../diagnostics/atomic-write.ts";
import { displayPath } from "./paths.ts";
import { recordInSuite, type RoutingEntry } from "./record.ts";
import type { RunContext } from "./project-plugins.ts";
import type { FlowSuite } from "./suite-context.ts";

/** An agent run whose conversation changed, as the heal report lists it. */
export interface AgentRunChange {
  readonly id: string;
  readonly intent: string;
  readonly kept_turns: number;
  readonly recorded_turns: number;
  readonly turns: number;
}

/** What heal answers for an agent flow (a HealResult: no UI step changes, the changed agent runs instead). */
export type AgentHealResult =
  | {
      readonly ok: true;
      readonly name: string;
      readonly trace_path: string;
      readonly applied: boolean;
      readonly report: {
        readonly changed: boolean;
        readonly steps_changed: readonly never[];
        readonly steps_added: number;
        readonly steps_removed: number;
        readonly effect_changes: readonly never[];
        readonly routing: readonly RoutingEntry[];
        readonly agent_runs?: readonly AgentRunChange[];
        readonly proposed_path?: string;
        readonly diff_html?: string;
      };
    }
  | { readonly ok: false; readonly name: string; readonly trace_path: string; readonly error: string };

/** Each agent run's recorded cassette, by step id. */
export function priorCassettes(trace: Trace): Map<string, readonly AgentTurn[]> {
  const out = new Map<string, readonly AgentTurn[]>();
  for (const step of trace.steps) if (step.action.type === "agent_run" && step.action.params.cassette) out.set(step.id, step.action.params.cassette);
  return out;
}

export interface AgentHealPaths {
  readonly tracePath: string;
  readonly proposedPath: string;
  readonly htmlPath: string;
}

export async function healAgentFlow(
  options: { readonly spec: string; readonly apply?: boolean },
  suite: FlowSuite,
  log: (line: string) => void,
  name: string,
  old: Trace,
  paths: AgentHealPaths,
  context: RunContext,
): Promise<AgentHealResult> {
  const { tracePath, proposedPath, htmlPath } = paths;
  const prior = priorCassettes(old);
  log(
    `heal: re-recording the agent run${prior.size === 1 ? "" : "s"} of ${displayPath(options.spec)} from the first turn that no longer matches the recording`,
  );
  const rec = await recordInSuite({ spec: options.spec, out: proposedPath, log, env: suite.env, prior, lifecycle: context.lifecycle }, suite, context);
  if (!rec.ok || !rec.trace_path)
    return { ok: false, name, trace_path: tracePath, error: `the flow could not be re-recorded: ${rec.error ?? "unknown error"}` };
  const runs: AgentHealRun[] = [];
  for (const r of rec.step_results) {
    const healed = r.agent?.healed;
    if (!r.agent || !healed) continue;
    // An agent run's report lines are `<step>.<n>`: the conversation is on its first line.
    const id = r.id.replace(/\.\d+$/, "");
    const recorded = prior.get(id)?.length ?? 0;
    if (healed.kept_turns === recorded && r.agent.turns === recorded) continue;
    runs.push({
      id,
      intent: r.intent,
      kept: healed.kept_turns,
      recorded: {
        turns: healed.recorded.turns,
        calls: healed.recorded.calls,
        ...(healed.recorded.reply !== undefined ? { reply: healed.recorded.reply } : {}),
      },
      now: { turns: r.agent.turns, calls: r.agent.calls, ...(r.agent.reply !== undefined ? { reply: r.agent.reply } : {}) },
    });
  }
  const base = { steps_changed: [] as never[], steps_added: 0, steps_removed: 0, effect_changes: [] as never[], routing: rec.routing };
  if (runs.length === 0) {
    rmSync(proposedPath, { force: true });
    if (rec.recording_dir) rmSync(rec.recording_dir, { recursive: true, force: true });
    rmSync(htmlPath, { force: true });
    return { ok: true, name, trace_path: tracePath, applied: false, report: { ...base, changed: false } };
  }
  writeFileAtomic(htmlPath, agentHealHtml({ name, tracePath: displayPath(tracePath), proposedPath: displayPath(proposedPath), runs }));
  const agent_runs = runs.map(
    (r): AgentRunChange => ({ id: r.id, intent: r.intent, kept_turns: r.kept, recorded_turns: r.recorded.turns, turns: r.now.turns }),
  );
  if (options.apply) {
    renameSync(proposedPath, tracePath);
    return { ok: true, name, trace_path: tracePath, applied: true, report: { ...base, changed: true, agent_runs, diff_html: htmlPath } };
  }
  return {
    ok: true,
    name,
    trace_path: tracePath,
    applied: false,
    report: { ...base, changed: true, agent_runs, proposed_path: proposedPath, diff_html: htmlPath },
  };
}
