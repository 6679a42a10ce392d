// The `agent` app kind: a surface that is an AI agent, not a UI. One execution per flow: the
// proxy starts, the agent runs against it (record: forwarded to the upstream model and kept as
// the cassette; replay: served from the cassette), and the agent assertions are checked over the
// conversation. Every UI action answers `unsupported`.
import { defineAdapter, type AgentRunOutcome, type AgentRunRequest, type AppDriver, type Attempt, type Reading } from "../../src/plugins/api.ts";
import type { AgentCheck, AgentToolCall, McpLane } from "../../src/plugins/api.ts";
import { conversationOf, firstFailure, unofferedToolWarnings, withLaneCalls } from "./checks.ts";
import { loadMcpFraming, startLane, type Lane } from "./mcp.ts";
export { relayMcpStdio } from "./mcp.ts";
import { startProxy } from "./proxy.ts";
import { containmentSupport, loopbackPortsIn, openContainment, tierOf, type Containment } from "./containment.ts";
export { probeAgent, type DoctorReport } from "./doctor.ts";
import { agentEnvironment, callService, injectedEnvironment, killAllAgents, spawnAgent, type RunningAgent } from "./runner.ts";

const NO_UI = "an `app: agent` flow has no UI to drive";
const unsupported = async (): Promise<Attempt> => ({ ok: false, failed: "unsupported", detail: NO_UI, retryable: false });

/** Where record forwards: FLOWPROOF_AGENT_UPSTREAM, else OPENAI_BASE_URL. */
export function upstreamOf(env: Readonly<Record<string, string | undefined>>): string | undefined {
  return env["FLOWPROOF_AGENT_UPSTREAM"] || env["OPENAI_BASE_URL"] || undefined;
}

/** The record credential: FLOWPROOF_AGENT_KEY → ANTHROPIC_API_KEY → OPENAI_API_KEY. */
export function keyOf(env: Readonly<Record<string, string | undefined>>): string | undefined {
  return env["FLOWPROOF_AGENT_KEY"] || env["ANTHROPIC_API_KEY"] || env["OPENAI_API_KEY"] || undefined;
}

/**
 * The checks with every secret value in their values written as `${NAME}`, as the conversation they
 * judge holds it (`matches`: the placeholder as a literal inside the expression).
 */
export function maskedChecks(checks: readonly AgentCheck[], secrets: ReadonlyMap<string, string>): AgentCheck[] {
  const mask = masker(secrets);
  const entries = [...secrets.entries()].filter(([, v]) => v.length >= 4);
  const maskRegex = (text: string): string => {
    let out = text;
    for (const [name, value] of entries) out = out.split(value).join(`\\$\\{${name}\\}`);
    return out;
  };
  return checks.map((c): AgentCheck => {
    if (c.kind === "reply") return { ...c, value: mask(c.value) };
    if (c.kind !== "tool_call") return c;
    return { ...c, where: c.where.map((w) => (w.value === undefined ? w : { ...w, value: w.matcher === "matches" ? maskRegex(w.value) : mask(w.value) })) };
  });
}

function masker(secrets: ReadonlyMap<string, string>): (text: string) => string {
  const entries = [...secrets.entries()].filter(([, v]) => v.length >= 4).sort((a, b) => b[1].length - a[1].length);
  return (text) => {
    let out = text;
    for (const [name, value] of entries) {
      out = out.split(value).join(`\${${name}}`);
      const escaped = JSON.stringify(value).slice(1, -1);
      if (escaped !== value) out = out.split(escaped).join(`\${${name}}`);
    }
    return out;
  };
}

const LIKELY_CAUSES = "likely causes: the agent's model client ignores OPENAI_BASE_URL / ANTHROPIC_BASE_URL (a hard-coded base URL, a client option set in code), it reads its task from somewhere other than FLOWPROOF_PROMPT, or it answered without calling a model";

/** One execution of the agent through the proxy; see AgentRunRequest. */
async function runOnce(request: AgentRunRequest, scope: ContainScope): Promise<AgentRunOutcome> {
  const record = request.mode === "record";
  const empty = { turns: 0, calls: [] };
  const upstream = upstreamOf(request.env);
  if (record && !upstream) {
    return { status: "errored", conversation: empty, detail: "recording an agent flow needs the upstream model: set FLOWPROOF_AGENT_UPSTREAM (e.g. https://api.openai.com/v1) and FLOWPROOF_AGENT_KEY" };
  }
  let agent: RunningAgent | undefined;
  let stopAgent = false;
  const key = record ? keyOf(request.env) : undefined;
  const proxy = startProxy({
    mode: request.mode,
    ...(upstream && record ? { upstream } : {}),
    ...(key ? { key } : {}),
    ...(request.cassette ? { cassette: request.cassette } : {}),
    results: new Map(request.tools.filter((t) => "result" in t).map((t) => [t.name, t.result])),
    mask: masker(request.secrets),
    ...("url" in request.agent ? { port: request.agent.proxy_port } : {}),
    ...(request.observe ? { observe: request.observe } : {}),
    // First divergence: the agent is stopped at once.
    onFailure: () => {
      stopAgent = true;
      agent?.kill();
    },
  });
  const laneCalls: AgentToolCall[] = [];
  const lanes: Lane[] = [];
  const onAbort = () => agent?.kill();
  request.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const serverEnv = agentEnvironment(request.env, {}, undefined);
    if ((request.mcp ?? []).length > 0) await loadMcpFraming();
    for (const server of request.mcp ?? []) {
      lanes.push(startLane({
        mode: request.mode,
        server,
        ...(request.lanes?.[server.name] ? { recorded: request.lanes[server.name] } : {}),
        mask: masker(request.secrets),
        ...(request.observe ? { observe: request.observe } : {}),
        modelTurns: () => proxy.turns.length,
        toolCalls: laneCalls,
        onFailure: () => {
          stopAgent = true;
          agent?.kill();
        },
        cwd: request.baseDir,
        env: serverEnv,
      }));
    }
    const wiring = Object.fromEntries(lanes.map((l) => [l.envName, l.envValue]));
    if ("command" in request.agent) {
      const env = agentEnvironment(request.env, { ...injectedEnvironment(proxy.origin, request.prompt, request.followUps), ...wiring }, request.agent.env);
      // Contained: flowproof's loopback services named in the variables it sets are reachable inside.
      const ours = loopbackPortsIn(Object.entries(env).filter(([k, v]) => request.env[k] !== v).map(([, v]) => v));
      scope.opened = await openContainment(request.agent, scope.support, ours);
      agent = spawnAgent(request.agent.command, request.baseDir, env, request.timeoutMs, scope.opened.enforced ? scope.opened.launch(request.agent.command) : undefined);
    } else {
      agent = callService(request.agent.url, request.agent.headers ?? {}, request.prompt, request.timeoutMs, request.followUps);
    }
    if (stopAgent) agent.kill();
    const exit = await agent.exited;
    const turns = proxy.turns.slice();
    const conversation = withLaneCalls(conversationOf(turns), laneCalls);
    const who = "command" in request.agent ? "the agent" : "the agent service";
    const failure = proxy.failure() ?? lanes.map((l) => l.failure()).find((f) => f !== undefined);
    if (failure) return { status: "failed", detail: failure, conversation };
    if (request.signal?.aborted) return { status: "errored", detail: "interrupted: the run was stopped while the agent ran", conversation };
    if (exit.timedOut) return { status: "failed", detail: `${who} did not finish within ${Math.round(request.timeoutMs / 1000)} s (the flow's bound; \`agent.timeout_seconds\` sets it) and was stopped${exit.stderrTail ? `; stderr tail:\n${exit.stderrTail}` : ""}`, conversation };
    if (proxy.requests() === 0) {
      if (exit.code !== 0) return { status: "errored", detail: `${who} exited with code ${exit.code ?? "(signal)"} before reaching the model proxy${exit.stderrTail ? `; stderr tail:\n${exit.stderrTail}` : ""}`, conversation };
      return { status: "errored", detail: `${who} made zero model requests, so there is nothing to ${record ? "record" : "replay"}; ${LIKELY_CAUSES}`, conversation };
    }
    if (exit.code !== 0) return { status: "failed", detail: `${who} exited with code ${exit.code ?? "(signal)"}${exit.stderrTail ? `; stderr tail:\n${exit.stderrTail}` : ""}`, conversation };
    if (!record) {
      const left = (request.cassette?.length ?? 0) - turns.length;
      if (left > 0) return { status: "failed", detail: `the agent finished after ${turns.length} model requests, but the cassette holds ${request.cassette?.length}: ${left} recorded turn(s) were never asked for`, conversation };
    }
    for (const lane of lanes) {
      if (lane.received() === 0 && (record || lane.unasked() > 0)) {
        return { status: "failed", detail: `${who} never contacted the declared MCP server \`${lane.server.name}\`: wire it to ${lane.envName} (${lane.server.command !== undefined ? "the command line to spawn as its stdio server" : "the streamable-HTTP URL to use"})`, conversation };
      }
      if (!record && lane.unasked() > 0) return { status: "failed", detail: `the agent finished with ${lane.unasked()} recorded call(s) to MCP server \`${lane.server.name}\` never asked for`, conversation };
    }
    for (const w of unofferedToolWarnings(turns, request.tools, request.checks)) request.log(w);
    // The conversation holds each resolved `${VAR}` value as `${NAME}`: the checks' values are judged the same way.
    const miss = firstFailure(maskedChecks(request.checks, request.secrets), conversation, request.strict);
    if (miss) {
      return { status: "failed", detail: miss.detail, conversation, failedCheck: { index: miss.index, ...(miss.call !== undefined ? { call: miss.call } : {}) }, ...(record ? {} : {}) };
    }
    const recorded: Record<string, McpLane> = Object.fromEntries(lanes.map((l) => [l.server.name, l.lane]));
    return { status: "passed", conversation, ...(record ? { cassette: turns, ...(lanes.length > 0 ? { lanes: recorded } : {}) } : {}) };
  } finally {
    request.signal?.removeEventListener("abort", onAbort);
    agent?.kill();
    proxy.stop();
    for (const lane of lanes) lane.stop();
  }
}

interface ContainScope {
  readonly support: ReturnType<typeof containmentSupport>;
  opened?: Containment;
}

/**
 * One execution of the agent through the proxy (see AgentRunRequest), its network contained where
 * the machine allows (see containment.ts): the tier is printed and returned, `assert_no_egress`
 * is judged over what the contained agent attempted, and is a capability error when it was not
 * contained.
 */
export async function runAgent(request: AgentRunRequest): Promise<AgentRunOutcome> {
  const scope: ContainScope = { support: containmentSupport(request.env) };
  const tier = tierOf(request.agent, scope.support);
  request.log(`containment: ${tier}`);
  const egressAt = request.checks.findIndex((c) => c.kind === "no_egress");
  const allows = "command" in request.agent && (request.agent.allow_egress?.length ?? 0) > 0;
  if (allows && egressAt < 0 && !tier.startsWith("enforced")) {
    request.log(`WARNING: agent.allow_egress is declared but this run is ${tier}: nothing limits the agent's network, and without \`assert_no_egress\` the flow still passes`);
  }
  const others = request.checks.filter((c) => c.kind !== "no_egress");
  let outcome: AgentRunOutcome;
  try {
    outcome = await runOnce({ ...request, checks: others }, scope);
  } catch (error) {
    scope.opened?.stop();
    return { status: "errored", detail: error instanceof Error ? error.message : String(error), conversation: { turns: 0, calls: [] }, containment: { tier, enforced: false, attempted: [] } };
  }
  const finished = scope.opened?.finish();
  scope.opened?.stop();
  const containment = finished?.containment ?? { tier, enforced: false, attempted: [] };
  // The failed check's index is into the flow's checks (assert_no_egress included).
  const failedCheck = outcome.failedCheck ? { ...outcome.failedCheck, index: request.checks.indexOf(others[outcome.failedCheck.index]!) } : undefined;
  const base: AgentRunOutcome = { ...outcome, ...(failedCheck ? { failedCheck } : {}), containment };
  if (finished?.setupError) return { ...base, status: "errored", detail: `the agent's network containment could not be set up: ${finished.setupError}${outcome.status !== "passed" && outcome.detail ? ` (${outcome.detail})` : ""}` };
  if (egressAt < 0) return base;
  if (!containment.enforced) {
    return { ...base, status: "errored", detail: `assert_no_egress cannot certify anything: the agent was ${tier}, so nothing it sent was stopped or seen`, failedCheck: { index: egressAt } };
  }
  if (containment.attempted.length > 0) {
    const named = containment.attempted.map((a) => `${a.destination} (at ${a.at_ms} ms)`).join(", ");
    const also = outcome.status !== "passed" && outcome.detail ? `; the run also failed: ${outcome.detail}` : "";
    return { ...base, status: "failed", detail: `assert_no_egress: the agent attempted ${containment.attempted.length} destination(s) outside agent.allow_egress, each refused: ${named}${also}`, failedCheck: { index: egressAt } };
  }
  return base;
}

/** The driver of an agent flow: `runAgent` is the execution; every UI action is unsupported. */
export function createAgentDriver(): AppDriver {
  return {
    capabilities: new Set(),
    navigate: async () => ({ ok: true, value: undefined }),
    reload: unsupported,
    click: unsupported,
    hover: unsupported,
    fill: unsupported,
    typeFocused: unsupported,
    pressKey: unsupported,
    select: unsupported,
    setChecked: unsupported,
    readText: async () => ({ ok: false, failed: "unsupported", detail: NO_UI, retryable: false }),
    count: async () => 0,
    check: async (): Promise<Reading> => ({ pass: false, actual: NO_UI, retryable: false }),
    runAgent,
    environment: async () => ({ os: process.platform, resolution: [0, 0] }),
    close: async () => undefined,
  };
}

export const plugin = defineAdapter({
  kind: "agent",
  capabilities: [],
  open: async () => ({ launch: async () => createAgentDriver(), close: async () => killAllAgents() }),
});
