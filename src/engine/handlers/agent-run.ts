// `agent_run` steps (`app: agent`): one execution of the agent under test. Resolves `${…}` in the
// prompts, assertion values and agent declaration at execution (the trace keeps them raw), hands
// the execution to the surface's `runAgent`, and at record stores the cassette in the step.
import type { AgentCheck, AgentRunRequest, AgentStepRef, AgentTarget, AgentTurn, EgressRule } from "../../plugins/api.ts";
import { AGENT_PROTOCOLS, type TraceStep } from "../../trace/schema.ts";
import type { AgentRunReport, Handler, StepOutcome } from "./shared.ts";
import { errored } from "./shared.ts";
import { resolveArgs } from "./structured.ts";
import { processLifecycle } from "../../plugins/lifecycle.ts";
import { parseEgressEntry } from "../../plugins/egress.ts";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? v as Json : {});

/** Checks a cassette read from a trace: a list of `{protocol, request, response}`; the problem names the turn. */
export function cassetteProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return "the agent_run step has no `cassette` list: re-record the flow";
  for (const [i, turn] of value.entries()) {
    const t = obj(turn);
    if (!(AGENT_PROTOCOLS as readonly unknown[]).includes(t["protocol"])) return `cassette turn ${i + 1} has protocol ${JSON.stringify(t["protocol"])} (expected ${AGENT_PROTOCOLS.map((p) => JSON.stringify(p)).join(", ")})`;
    if (t["request"] === null || typeof t["request"] !== "object") return `cassette turn ${i + 1} has no request object`;
    if (t["response"] === null || typeof t["response"] !== "object") return `cassette turn ${i + 1} has no response object`;
  }
  return undefined;
}

/** Checks the recorded `mcp:` lanes: one per declared server, each `{calls, events}`. */
export function lanesProblemOf(mcp: unknown, lanes: unknown): string | undefined {
  const servers = Array.isArray(mcp) ? mcp.map((m) => String(obj(m)["name"])) : [];
  if (servers.length === 0) return undefined;
  const l = obj(lanes);
  for (const name of servers) {
    const lane = obj(l[name]);
    if (!Array.isArray(lane["calls"]) || !Array.isArray(lane["events"])) return `the MCP lane of server \`${name}\` is missing or has no \`calls\`/\`events\` lists: re-record the flow`;
    for (const [i, c] of (lane["calls"] as unknown[]).entries()) if (typeof obj(c)["method"] !== "string") return `call ${i + 1} of the MCP lane of server \`${name}\` has no method`;
  }
  return undefined;
}

export const agentRun: Handler = async (step: TraceStep, ctx): Promise<StepOutcome> => {
  const params = step.action.params as Json;
  const s = ctx.structured;
  if (!ctx.driver.runAgent || !s) return errored("an agent_run step needs an `app: agent` surface (the agent plugin)");
  const mode = s.mode;
  let cassette: AgentTurn[] | undefined;
  if (mode === "replay") {
    const problem = cassetteProblem(params["cassette"]);
    if (problem) return errored(`bad cassette: ${problem}`);
    cassette = params["cassette"] as AgentTurn[];
    const lanesProblem = lanesProblemOf(params["mcp"], params["lanes"]);
    if (lanesProblem) return errored(`bad cassette: ${lanesProblem}`);
  }
  const steps = (Array.isArray(params["steps"]) ? params["steps"] : []).map(obj);
  const prompt = steps.filter((p) => p["kind"] === "prompt").map((p) => resolveArgs(String(p["text"]), ctx) as string).join("\n");
  // A scripted conversation: each `follow_up:` is a later delivery, resolved like the prompt.
  const followUps = steps.filter((p) => p["kind"] === "follow_up").map((p) => resolveArgs(String(p["message"]), ctx) as string);
  const checks = steps.filter((p) => p["kind"] !== "prompt" && p["kind"] !== "follow_up").map((p) => resolveArgs(p, ctx) as AgentCheck);
  // One report line per authored step, as written (`${…}` raw).
  let checkIndex = 0;
  const lines = steps.map((p): AgentStepRef => {
    if (p["kind"] === "prompt") return { kind: "prompt", intent: `prompt: ${String(p["text"])}` };
    if (p["kind"] === "follow_up") return { kind: "follow_up", intent: String(p["text"]) };
    return { kind: "check", intent: p["kind"] === "reply" ? `assert: ${String(p["text"])}` : String(p["text"]), check: checkIndex++ };
  });
  const agent = resolveArgs(obj(params["agent"]), ctx) as Json;
  // allow_egress: each entry as resolved (a `${VAR}` holds a whole destination), parsed.
  const allow: EgressRule[] = [];
  for (const [i, text] of (Array.isArray(agent["allow_egress"]) ? agent["allow_egress"] as unknown[] : []).entries()) {
    const parsed = parseEgressEntry(String(text));
    const raw = (obj(params["agent"])["allow_egress"] as unknown[] | undefined)?.[i];
    if (!parsed.ok) return errored(`agent.allow_egress entry ${JSON.stringify(raw)}${raw !== text ? " (as resolved)" : ""}: ${parsed.message}; ${parsed.hint}`);
    allow.push(parsed.entry);
  }
  const target: AgentTarget = typeof agent["command"] === "string"
    ? { command: agent["command"], ...(agent["env"] ? { env: agent["env"] as Record<string, string> } : {}), ...(allow.length > 0 ? { allow_egress: allow } : {}) }
    : { url: String(agent["url"]), proxy_port: Number(agent["proxy_port"]), ...(agent["headers"] ? { headers: agent["headers"] as Record<string, string> } : {}) };
  const request: AgentRunRequest = {
    mode,
    agent: target,
    prompt,
    ...(followUps.length > 0 ? { followUps } : {}),
    checks,
    tools: (Array.isArray(params["tools"]) ? params["tools"] : []) as AgentRunRequest["tools"],
    strict: params["strict"] === true,
    ...(cassette ? { cassette } : {}),
    timeoutMs: typeof params["timeout_ms"] === "number" ? params["timeout_ms"] : 300_000,
    baseDir: s.baseDir,
    env: ctx.env,
    secrets: ctx.secrets,
    log: s.log,
    signal: processLifecycle.signal,
    // The assert_no_secret_leak corpus of an agent: every body at the model boundary.
    observe: (label, text) => s.leaks.observe(`${label} of step ${step.id}`, text),
    ...(Array.isArray(params["mcp"]) ? { mcp: resolveArgs(params["mcp"], ctx) as NonNullable<AgentRunRequest["mcp"]> } : {}),
    ...(params["lanes"] !== undefined ? { lanes: params["lanes"] as NonNullable<AgentRunRequest["lanes"]> } : {}),
    lines,
  };
  const outcome = await ctx.driver.runAgent(request);
  if (outcome.status === "passed" && mode === "record") {
    params["cassette"] = outcome.cassette ?? [];
    if (outcome.lanes) params["lanes"] = outcome.lanes;
  }
  const c = outcome.conversation;
  const failedCheck = outcome.failedCheck ? checks[outcome.failedCheck.index] : undefined;
  const report: AgentRunReport = {
    turns: c.turns,
    model_calls: outcome.modelCalls ?? 0,
    // Turns count from 1, as the report and the failure messages name them.
    calls: c.calls.map((call) => ({ turn: call.turn + 1, name: call.name, arguments: call.arguments, ...(call.result !== undefined ? { result: call.result } : {}) })),
    ...(c.reply !== undefined ? { reply: c.reply } : {}),
    ...(outcome.containment ? { containment: outcome.containment.tier, ...(outcome.containment.enforced ? { egress_attempts: outcome.containment.attempted.map((x) => ({ ...x })) } : {}) } : {}),
    ...(failedCheck ? { failed_check: { text: failedCheck.text, ...(outcome.failedCheck?.call !== undefined ? { call: outcome.failedCheck.call } : {}) } } : {}),
  };
  return { status: outcome.status, ...(outcome.detail !== undefined ? { detail: outcome.detail } : {}), agent: report, ...(outcome.lines ? { lines: outcome.lines } : {}) };
};
