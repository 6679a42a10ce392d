// `agent_run` steps (`app: agent`): one execution of the agent under test. Resolves `${…}` in the
// prompts, assertion values and agent declaration at execution (the trace keeps them raw), hands
// the execution to the surface's `runAgent`, and at record stores the cassette in the step.
import type { AgentCheck, AgentConversation, AgentMcpServer, AgentRunRequest, AgentStepRef, AgentTarget, AgentTurn, EgressRule } from "../../plugins/api.ts";
import { AGENT_PROTOCOLS, type TraceStep } from "../../trace/schema.ts";
import { isCassetteTurn, type AgentStep } from "../../trace/agent-params.ts";
import { resolveText } from "../templates.ts";
import { redact } from "../context.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentRunReport, Handler, StepOutcome } from "./shared.ts";
import { errored } from "./shared.ts";
import { resolveArgs } from "./structured.ts";
import { parseEgressEntry } from "../../plugins/egress.ts";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

/** Checks a cassette read from a trace: a list of `{protocol, request, response}`; the problem names the turn. */
export function cassetteProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return "the agent_run step has no `cassette` list: re-record the flow";
  for (const [i, turn] of value.entries()) {
    const t = obj(turn);
    if (!(AGENT_PROTOCOLS as readonly unknown[]).includes(t["protocol"]))
      return `cassette turn ${i + 1} has protocol ${JSON.stringify(t["protocol"])} (expected ${AGENT_PROTOCOLS.map((p) => JSON.stringify(p)).join(", ")})`;
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
    if (!Array.isArray(lane["calls"]) || !Array.isArray(lane["events"]))
      return `the MCP lane of server \`${name}\` is missing or has no \`calls\`/\`events\` lists: re-record the flow`;
    for (const [i, c] of (lane["calls"] as unknown[]).entries())
      if (typeof obj(c)["method"] !== "string") return `call ${i + 1} of the MCP lane of server \`${name}\` has no method`;
  }
  return undefined;
}

/** An authored agent assertion with its `${…}` references resolved. */
function resolvedCheck(step: Exclude<AgentStep, { kind: "prompt" | "follow_up" }>, r: (text: string) => string): AgentCheck {
  switch (step.kind) {
    case "tool_call":
      return {
        kind: "tool_call",
        text: r(step.text),
        tool: r(step.tool),
        negate: step.negate,
        where: step.where.map((c) => ({ path: r(c.path), matcher: c.matcher, ...(c.value !== undefined ? { value: r(c.value) } : {}) })),
      };
    case "reply":
      return { kind: "reply", text: r(step.text), op: step.op, value: r(step.value) };
    case "no_egress":
      return { kind: "no_egress", text: r(step.text) };
  }
}

const resolvedMap = (m: Readonly<Record<string, string>>, r: (text: string) => string): Record<string, string> =>
  Object.fromEntries(Object.entries(m).map(([k, v]) => [k, r(v)]));

/** A conversation as the report shows it: turns counting from 1. */
function callsOf(c: AgentConversation): { turns: number; calls: { turn: number; name: string; arguments: unknown; result?: string }[]; reply?: string } {
  return {
    turns: c.turns,
    calls: c.calls.map((call) => ({
      turn: call.turn + 1,
      name: call.name,
      arguments: call.arguments,
      ...(call.result !== undefined ? { result: call.result } : {}),
    })),
    ...(c.reply !== undefined ? { reply: c.reply } : {}),
  };
}

/** Where an agent's output is kept, under the run bundle. */
const OUTPUT_DIR = "agent-output";

/** The agent's stdout and stderr, redacted, as `agent-output/<step>.stdout.txt` and `.stderr.txt` under the run bundle; undefined when they cannot be written. */
function keepOutput(
  dir: string,
  stepId: string,
  output: { readonly stdout: string; readonly stderr: string },
  secrets: ReadonlyMap<string, string>,
): { stdout: string; stderr: string } | undefined {
  try {
    mkdirSync(join(dir, OUTPUT_DIR), { recursive: true });
    const files = { stdout: `${OUTPUT_DIR}/${stepId}.stdout.txt`, stderr: `${OUTPUT_DIR}/${stepId}.stderr.txt` };
    writeFileSync(join(dir, files.stdout), redact(output.stdout, secrets));
    writeFileSync(join(dir, files.stderr), redact(output.stderr, secrets));
    return files;
  } catch {
    return undefined;
  }
}

export const agentRun: Handler = async (step: TraceStep, ctx): Promise<StepOutcome> => {
  if (step.action.type !== "agent_run") return errored(`the agent_run handler was given a ${step.action.type} step`);
  const params = step.action.params;
  const s = ctx.structured;
  if (!ctx.driver.runAgent || !s) return errored("an agent_run step needs an `app: agent` surface (the agent plugin)");
  const mode = s.mode;
  const r = (text: string): string => resolveText(text, ctx).value;
  let cassette: AgentTurn[] | undefined;
  if (mode === "replay") {
    const problem = cassetteProblem(params.cassette);
    if (problem) return errored(`bad cassette: ${problem}`);
    cassette = params.cassette;
    const lanesProblem = lanesProblemOf(params.mcp, params.lanes);
    if (lanesProblem) return errored(`bad cassette: ${lanesProblem}`);
  }
  const steps = params.steps;
  const prompt = steps.flatMap((p) => (p.kind === "prompt" ? [r(p.text)] : [])).join("\n");
  // A scripted conversation: each `follow_up:` is a later delivery, resolved like the prompt.
  const followUps = steps.flatMap((p) => (p.kind === "follow_up" ? [r(p.message)] : []));
  const checks = steps.flatMap((p) => (p.kind === "prompt" || p.kind === "follow_up" ? [] : [resolvedCheck(p, r)]));
  // One report line per authored step, as written (`${…}` raw).
  let checkIndex = 0;
  const lines = steps.map((p): AgentStepRef => {
    if (p.kind === "prompt") return { kind: "prompt", intent: `prompt: ${p.text}` };
    if (p.kind === "follow_up") return { kind: "follow_up", intent: p.text };
    return { kind: "check", intent: p.kind === "reply" ? `assert: ${p.text}` : p.text, check: checkIndex++ };
  });
  const agent = params.agent;
  let target: AgentTarget;
  if ("command" in agent) {
    // allow_egress: each entry as resolved (a `${VAR}` holds a whole destination), parsed.
    const allow: EgressRule[] = [];
    for (const raw of agent.allow_egress ?? []) {
      const text = r(raw);
      const parsed = parseEgressEntry(text);
      if (!parsed.ok)
        return errored(`agent.allow_egress entry ${JSON.stringify(raw)}${raw !== text ? " (as resolved)" : ""}: ${parsed.message}; ${parsed.hint}`);
      allow.push(parsed.entry);
    }
    target = { command: r(agent.command), ...(agent.env ? { env: resolvedMap(agent.env, r) } : {}), ...(allow.length > 0 ? { allow_egress: allow } : {}) };
  } else {
    target = { url: r(agent.url), proxy_port: agent.proxy_port, ...(agent.headers ? { headers: resolvedMap(agent.headers, r) } : {}) };
  }
  const mcp = params.mcp?.map(
    (m): AgentMcpServer => ({
      name: r(m.name),
      ...("command" in m ? { command: r(m.command) } : { url: r(m.url), ...(m.port !== undefined ? { port: m.port } : {}) }),
      ...(m.tools ? { tools: m.tools.map((t) => ({ name: r(t.name), ...("result" in t ? { result: resolveArgs(t.result, ctx) } : {}) })) } : {}),
    }),
  );
  const request: AgentRunRequest = {
    mode,
    agent: target,
    prompt,
    ...(followUps.length > 0 ? { followUps } : {}),
    checks,
    tools: params.tools ?? [],
    strict: params.strict === true,
    ...(params.match !== undefined
      ? {
          match:
            typeof params.match === "string"
              ? { by: params.match, ignore: [], compare: [] }
              : { by: params.match.by ?? "conversation", ignore: params.match.ignore ?? [], compare: params.match.compare ?? [] },
        }
      : {}),
    ...(cassette ? { cassette } : {}),
    // `heal`: the recorded turns, served until the first divergence; the rest is recorded live.
    ...(mode === "record" && s.prior?.get(step.id) ? { healFrom: s.prior.get(step.id)! } : {}),
    timeoutMs: params.timeout_ms,
    baseDir: s.baseDir,
    env: ctx.env,
    secrets: ctx.secrets,
    log: s.log,
    ...(ctx.stop ? { signal: ctx.stop } : {}),
    // The assert_no_secret_leak corpus of an agent: every body at the model boundary.
    observe: (label, text) => s.leaks.observe(`${label} of step ${step.id}`, text),
    ...(mcp ? { mcp } : {}),
    ...(params.lanes !== undefined ? { lanes: params.lanes } : {}),
    lines,
  };
  const outcome = await ctx.driver.runAgent(request);
  if (outcome.status === "passed" && mode === "record") {
    // The surface's turns are checked at this boundary before the trace keeps them.
    const turns = outcome.cassette ?? [];
    const kept = turns.filter(isCassetteTurn);
    if (kept.length !== turns.length)
      return errored(`the agent surface recorded a malformed cassette: ${cassetteProblem(turns) ?? "a turn's status is not an HTTP status"}`);
    params.cassette = kept;
    if (outcome.lanes)
      params.lanes = Object.fromEntries(Object.entries(outcome.lanes).map(([name, lane]) => [name, { calls: [...lane.calls], events: [...lane.events] }]));
  }
  const c = outcome.conversation;
  const output = outcome.output ? keepOutput(s.artifactDir, step.id, outcome.output, ctx.secrets) : undefined;
  const failedCheck = outcome.failedCheck ? checks[outcome.failedCheck.index] : undefined;
  const report: AgentRunReport = {
    // Turns count from 1, as the report and the failure messages name them.
    ...callsOf(c),
    model_calls: outcome.modelCalls ?? 0,
    ...(output ? { output } : {}),
    ...(outcome.healedFrom !== undefined && outcome.recordedConversation
      ? { healed: { kept_turns: outcome.healedFrom, recorded: callsOf(outcome.recordedConversation) } }
      : {}),
    ...(outcome.divergedTurn !== undefined ? { diverged_turn: outcome.divergedTurn } : {}),
    ...(outcome.notes && outcome.notes.length > 0 ? { notes: [...outcome.notes] } : {}),
    ...(outcome.containment
      ? {
          containment: outcome.containment.tier,
          ...(outcome.containment.enforced ? { egress_attempts: outcome.containment.attempted.map((x) => ({ ...x })) } : {}),
        }
      : {}),
    ...(failedCheck
      ? { failed_check: { text: failedCheck.text, ...(outcome.failedCheck?.call !== undefined ? { call: outcome.failedCheck.call } : {}) } }
      : {}),
  };
  return {
    status: outcome.status,
    ...(outcome.detail !== undefined ? { detail: outcome.detail } : {}),
    agent: report,
    ...(outcome.lines ? { lines: outcome.lines } : {}),
  };
};
