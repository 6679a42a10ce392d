// One execution of an agent flow: the proxy starts, the agent runs against it (record: forwarded
// to the upstream model and kept as the cassette; replay: served from the cassette), and the agent
// assertions are checked over the conversation. Loaded by the plugin's face (index.ts) only when
// an agent flow runs: a run of any other kind never loads the proxy, the dialects or the runner.
import type { AgentRunOutcome, AgentRunRequest } from "../../src/plugins/api.ts";
import type { AgentCheck, AgentToolCall, McpLane } from "../../src/plugins/api.ts";
import { conversationOf, firstFailure, partialVerdicts, unofferedToolWarnings, withLaneCalls } from "./checks.ts";
import { loadMcpFraming, startLane, type Lane } from "./mcp.ts";
import { startProxy } from "./proxy.ts";
import { asProtocol, readRequest, type Protocol } from "./dialects.ts";
import { agentLines, type CheckVerdict, type ConversationFault } from "./lines.ts";
import { containmentSupport, loopbackPortsIn, openContainment, tierOf, type Containment } from "./containment.ts";
import { agentEnvironment, callService, injectedEnvironment, spawnAgent, type RunningAgent } from "./runner.ts";
export { killAllAgents } from "./runner.ts";

/** Where record forwards: FLOWPROOF_AGENT_UPSTREAM, else OPENAI_BASE_URL. */
export function upstreamOf(env: Readonly<Record<string, string | undefined>>): string | undefined {
  return env["FLOWPROOF_AGENT_UPSTREAM"] || env["OPENAI_BASE_URL"] || undefined;
}

/**
 * The record credential: FLOWPROOF_AGENT_KEY, else ANTHROPIC_API_KEY, else OPENAI_API_KEY; for the
 * Gemini dialect FLOWPROOF_AGENT_KEY, else GEMINI_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, GOOGLE_API_KEY.
 */
export function keyOf(env: Readonly<Record<string, string | undefined>>, protocol: Protocol = "openai"): string | undefined {
  const names = protocol === "gemini" ? ["GEMINI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "GOOGLE_API_KEY"] : ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"];
  for (const name of ["FLOWPROOF_AGENT_KEY", ...names]) if (env[name]) return env[name];
  return undefined;
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

const LIKELY_CAUSES =
  "likely causes: the agent's model client ignores OPENAI_BASE_URL / ANTHROPIC_BASE_URL (a hard-coded base URL, a client option set in code), it reads its task from somewhere other than FLOWPROOF_PROMPT, or it answered without calling a model";

/** One execution of the agent through the proxy; see AgentRunRequest. */
/** One execution's outcome, with what its report lines need: the conversation's own failure, and each check's verdict. */
interface Execution extends AgentRunOutcome {
  readonly fault?: ConversationFault;
  readonly verdicts?: ReadonlyMap<number, CheckVerdict & { readonly call?: number }>;
}

async function runOnce(request: AgentRunRequest, scope: ContainScope): Promise<Execution> {
  const record = request.mode === "record";
  const empty = { turns: 0, calls: [] };
  const upstream = upstreamOf(request.env);
  if (record && !upstream) {
    const detail = "recording an agent flow needs the upstream model: set FLOWPROOF_AGENT_UPSTREAM (e.g. https://api.openai.com/v1) and FLOWPROOF_AGENT_KEY";
    return { status: "errored", conversation: empty, detail, fault: { status: "errored", detail, delivery: 1 } };
  }
  let agent: RunningAgent | undefined;
  let stopAgent = false;
  const proxy = startProxy({
    mode: request.mode,
    ...(upstream && record ? { upstream, key: (protocol: Protocol) => keyOf(request.env, protocol) } : {}),
    ...(request.cassette ? { cassette: request.cassette } : {}),
    ...(request.match ? { match: request.match } : {}),
    ...(record && request.healFrom ? { healFrom: request.healFrom } : {}),
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
      lanes.push(
        startLane({
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
        }),
      );
    }
    const wiring = Object.fromEntries(lanes.map((l) => [l.envName, l.envValue]));
    if ("command" in request.agent) {
      const env = agentEnvironment(request.env, { ...injectedEnvironment(proxy.origin, request.prompt, request.followUps), ...wiring }, request.agent.env);
      // Contained: flowproof's loopback services named in the variables it sets are reachable inside.
      const ours = loopbackPortsIn(
        Object.entries(env)
          .filter(([k, v]) => request.env[k] !== v)
          .map(([, v]) => v),
      );
      scope.opened = await openContainment(request.agent, scope.support, ours);
      agent = spawnAgent(
        request.agent.command,
        request.baseDir,
        env,
        request.timeoutMs,
        scope.opened.enforced ? scope.opened.launch(request.agent.command) : undefined,
      );
    } else {
      agent = callService(request.agent.url, request.agent.headers ?? {}, request.prompt, request.timeoutMs, request.followUps);
    }
    if (stopAgent) agent.kill();
    const exit = await agent.exited;
    if (exit.output) scope.output = exit.output;
    const turns = proxy.turns.slice();
    const conversation = withLaneCalls(conversationOf(turns), laneCalls);
    const modelCalls = proxy.modelCalls();
    const who = "command" in request.agent ? "the agent" : "the agent service";
    const deliveries = 1 + (request.followUps?.length ?? 0);
    /** The delivery a request body belongs to: how many user messages it carries (1 when it cannot tell). */
    const deliveryOf = (protocol: string, body: unknown) => Math.min(Math.max(readRequest(asProtocol(protocol), body).userTurns, 1), deliveries);
    const lastDelivery = () => (turns.length > 0 ? deliveryOf(turns[turns.length - 1]!.protocol, turns[turns.length - 1]!.request) : 1);
    /** A failure of the conversation itself, at the delivery it happened in. */
    const notes = proxy.notes.length > 0 ? { notes: [...proxy.notes] } : {};
    const fault = (status: "failed" | "errored", detail: string, delivery = lastDelivery()): Execution => ({
      status,
      detail,
      conversation,
      modelCalls,
      ...notes,
      fault: { status, detail, delivery },
    });
    for (const note of proxy.notes) request.log(`note: ${note}`);
    const info = proxy.failureInfo();
    if (info?.kind === "divergence" && info.body !== undefined && info.protocol) {
      // The calls and results as they happened at replay, up to the request that diverged: the assertions that can be decided from them are judged.
      const atReplay = withLaneCalls(conversationOf([...turns, { protocol: info.protocol, request: info.body, response: {} }]), laneCalls);
      const { reply: _reply, ...partial } = { ...atReplay, turns: turns.length };
      const verdicts = partialVerdicts(maskedChecks(request.checks, request.secrets), partial, request.strict, turns.length + 1);
      const failed = [...verdicts].find(([, v]) => v.status === "failed");
      return {
        status: "failed",
        detail: info.detail,
        conversation: partial,
        modelCalls,
        verdicts,
        divergedTurn: turns.length + 1,
        ...notes,
        fault: { status: "failed", detail: info.detail, delivery: deliveryOf(info.protocol, info.body) },
        ...(failed ? { failedCheck: { index: failed[0], ...(failed[1].call !== undefined ? { call: failed[1].call } : {}) } } : {}),
      };
    }
    if (info)
      return fault(
        info.kind === "divergence" ? "failed" : "errored",
        info.detail,
        info.body !== undefined && info.protocol ? deliveryOf(info.protocol, info.body) : lastDelivery(),
      );
    const laneFailure = lanes.map((l) => l.failure()).find((f) => f !== undefined);
    if (laneFailure) return fault("failed", laneFailure);
    if (request.signal?.aborted) return fault("errored", "interrupted: the run was stopped while the agent ran");
    if (exit.timedOut)
      return fault(
        "failed",
        `${who} did not finish within ${Math.round(request.timeoutMs / 1000)} s (the flow's bound; \`agent.timeout_seconds\` sets it) and was stopped${exit.stderrTail ? `; stderr tail:\n${exit.stderrTail}` : ""}`,
      );
    if (proxy.requests() === 0) {
      if (exit.code !== 0)
        return fault(
          "errored",
          `${who} exited with code ${exit.code ?? "(signal)"} before reaching the model proxy${exit.stderrTail ? `; stderr tail:\n${exit.stderrTail}` : ""}`,
          1,
        );
      return fault("errored", `${who} made zero model requests, so there is nothing to ${record ? "record" : "replay"}; ${LIKELY_CAUSES}`, 1);
    }
    if (exit.code !== 0)
      return fault("failed", `${who} exited with code ${exit.code ?? "(signal)"}${exit.stderrTail ? `; stderr tail:\n${exit.stderrTail}` : ""}`);
    if (!record) {
      const cassette = request.cassette ?? [];
      const left = cassette.length - turns.length;
      // The delivery of the first recorded turn never asked for: the one the agent did not make.
      const unasked = cassette.find((t) => !turns.includes(t));
      if (left > 0)
        return fault(
          "failed",
          `the agent finished after ${turns.length} model requests, but the cassette holds ${cassette.length}: ${left} recorded turn(s) were never asked for`,
          unasked ? deliveryOf(unasked.protocol, unasked.request) : lastDelivery(),
        );
    }
    for (const lane of lanes) {
      if (lane.received() === 0 && (record || lane.unasked() > 0)) {
        return fault(
          "failed",
          `${who} never contacted the declared MCP server \`${lane.server.name}\`: wire it to ${lane.envName} (${lane.server.command !== undefined ? "the command line to spawn as its stdio server" : "the streamable-HTTP URL to use"})`,
        );
      }
      if (!record && lane.unasked() > 0)
        return fault("failed", `the agent finished with ${lane.unasked()} recorded call(s) to MCP server \`${lane.server.name}\` never asked for`);
    }
    for (const w of unofferedToolWarnings(turns, request.tools, request.checks)) request.log(w);
    // The conversation holds each resolved `${VAR}` value as `${NAME}`: the checks' values are judged the same way.
    const miss = firstFailure(maskedChecks(request.checks, request.secrets), conversation, request.strict);
    // Every check before the first that failed held; the ones after it were not judged.
    const verdicts = new Map<number, CheckVerdict>();
    for (let i = 0; i < (miss ? miss.index : request.checks.length); i++) verdicts.set(i, { status: "passed" });
    if (miss) {
      verdicts.set(miss.index, { status: "failed", detail: miss.detail });
      return {
        status: "failed",
        detail: miss.detail,
        conversation,
        modelCalls,
        verdicts,
        ...notes,
        failedCheck: { index: miss.index, ...(miss.call !== undefined ? { call: miss.call } : {}) },
      };
    }
    const recorded: Record<string, McpLane> = Object.fromEntries(lanes.map((l) => [l.server.name, l.lane]));
    const healed = record && request.healFrom ? { healedFrom: proxy.kept(), recordedConversation: conversationOf(request.healFrom) } : {};
    return {
      status: "passed",
      conversation,
      modelCalls,
      verdicts,
      ...notes,
      ...healed,
      ...(record ? { cassette: turns, ...(lanes.length > 0 ? { lanes: recorded } : {}) } : {}),
    };
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
  /** What the spawned agent printed. */
  output?: { readonly stdout: string; readonly stderr: string };
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
    request.log(
      `WARNING: agent.allow_egress is declared but this run is ${tier}: nothing limits the agent's network, and without \`assert_no_egress\` the flow still passes`,
    );
  }
  const others = request.checks.filter((c) => c.kind !== "no_egress");
  let outcome: Execution;
  try {
    outcome = await runOnce({ ...request, checks: others }, scope);
  } catch (error) {
    scope.opened?.stop();
    const detail = error instanceof Error ? error.message : String(error);
    const failed: AgentRunOutcome = { status: "errored", detail, conversation: { turns: 0, calls: [] }, containment: { tier, enforced: false, attempted: [] } };
    return request.lines ? { ...failed, lines: agentLines(request.lines, { status: "errored", detail, delivery: 1 }, new Map()) } : failed;
  }
  const finished = scope.opened?.finish();
  scope.opened?.stop();
  const containment = finished?.containment ?? { tier, enforced: false, attempted: [] };
  // Check indexes from here on are into the flow's checks (assert_no_egress included).
  const full = (i: number) => request.checks.indexOf(others[i]!);
  const verdicts = new Map([...(outcome.verdicts ?? new Map<number, CheckVerdict>())].map(([i, v]) => [full(i), v] as const));
  const { fault: runFault, verdicts: _verdicts, ...plain } = outcome;
  let fault = runFault;
  let result: AgentRunOutcome = {
    ...plain,
    ...(scope.output ? { output: scope.output } : {}),
    ...(outcome.failedCheck ? { failedCheck: { ...outcome.failedCheck, index: full(outcome.failedCheck.index) } } : {}),
    containment,
  };
  if (finished?.setupError) {
    const detail = `the agent's network containment could not be set up: ${finished.setupError}${outcome.status !== "passed" && outcome.detail ? ` (${outcome.detail})` : ""}`;
    result = { ...result, status: "errored", detail };
    fault = { status: "errored", detail, delivery: 1 };
  } else if (egressAt >= 0) {
    if (!containment.enforced) {
      const detail = `assert_no_egress cannot certify anything: the agent was ${tier}, so nothing it sent was stopped or seen`;
      verdicts.set(egressAt, { status: "errored", detail });
      result = { ...result, status: "errored", detail, failedCheck: { index: egressAt } };
    } else if (containment.attempted.length > 0) {
      const named = containment.attempted.map((a) => `${a.destination} (at ${a.at_ms} ms)`).join(", ");
      const detail = `assert_no_egress: the agent attempted ${containment.attempted.length} destination(s) outside agent.allow_egress, each refused: ${named}`;
      verdicts.set(egressAt, { status: "failed", detail });
      const also = outcome.status !== "passed" && outcome.detail ? `; the run also failed: ${outcome.detail}` : "";
      result = { ...result, status: "failed", detail: `${detail}${also}`, failedCheck: { index: egressAt } };
    } else {
      verdicts.set(egressAt, { status: "passed" });
    }
  }
  return request.lines ? { ...result, lines: agentLines(request.lines, fault, verdicts) } : result;
}
