// `flowproof doctor --agent "<command>"`: whether an agent reaches the model proxy at all, with
// no key and no upstream. The agent is started with the injected environment; its first model
// request is answered with a short final reply (in its own dialect) and the agent is then let go.
import { protocolOf, type Protocol } from "./dialects.ts";
import { agentEnvironment, injectedEnvironment, spawnAgent } from "./runner.ts";

export interface DoctorReport {
  /** The agent sent at least one model request to the proxy. */
  readonly reached: boolean;
  readonly protocol?: Protocol;
  /** The path of its first request (`/v1/chat/completions`). */
  readonly path?: string;
  readonly model?: string;
  /** Requests that were not model calls (`GET /v1/models`), in order. */
  readonly other: readonly string[];
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly stderrTail: string;
  /** What to do, one line each (empty when the agent is wired). */
  readonly advice: readonly string[];
}

const REPLY = "flowproof doctor: the model proxy was reached; no model answered this request.";

function cannedReply(protocol: Protocol, model: string): unknown {
  return protocol === "openai"
    ? { id: "chatcmpl-doctor", object: "chat.completion", created: 0, model, choices: [{ index: 0, message: { role: "assistant", content: REPLY }, finish_reason: "stop" }] }
    : { id: "msg_doctor", type: "message", role: "assistant", model, content: [{ type: "text", text: REPLY }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } };
}

export async function probeAgent(command: string, cwd: string, env: Readonly<Record<string, string | undefined>>, timeoutMs: number): Promise<DoctorReport> {
  let first: { protocol: Protocol; path: string; model: string } | undefined;
  const other: string[] = [];
  let reachedFirst: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (reachedFirst = resolve));
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const protocol = req.method === "POST" ? protocolOf(path) : undefined;
      if (!protocol) {
        other.push(`${req.method} ${path}`);
        return Response.json({ error: { message: `flowproof doctor: ${req.method} ${path} is not a model call` } }, { status: 404 });
      }
      let model = "";
      try {
        model = String((JSON.parse(await req.text()) as { model?: unknown }).model ?? "");
      } catch {
        // not JSON: still a request that reached the proxy
      }
      first ??= { protocol, path, model };
      reachedFirst();
      const body = cannedReply(protocol, model);
      return Response.json(body);
    },
  });
  const origin = `http://127.0.0.1:${String(server.port)}`;
  const agent = spawnAgent(command, cwd, agentEnvironment(env, injectedEnvironment(origin, "flowproof doctor: reply with one word."), undefined), timeoutMs);
  try {
    // Reaching the proxy settles it; give the agent a moment to finish on its own after that.
    await Promise.race([agent.exited, reached.then(() => Promise.race([agent.exited, Bun.sleep(2_000)]))]);
    agent.kill();
    const exit = await agent.exited;
    const advice: string[] = [];
    if (!first) {
      if (exit.timedOut) advice.push(`the agent ran for ${Math.round(timeoutMs / 1000)} s without a model request: it may wait for input (it should read its task from FLOWPROOF_PROMPT) or call a model some other way`);
      else if (exit.code !== 0) advice.push(`the agent exited with code ${exit.code ?? "(signal)"} before any model request: fix what its stderr says first`);
      advice.push("point its model client at the variables flowproof injects: OPENAI_BASE_URL (OpenAI clients; …/v1) or ANTHROPIC_BASE_URL (Anthropic clients; no /v1), instead of a base URL set in code");
      advice.push("read the task from FLOWPROOF_PROMPT; the API key it sees is a placeholder (OPENAI_API_KEY / ANTHROPIC_API_KEY): never require a real one at start");
      if (other.length > 0) advice.push(`it did reach the proxy, but only with ${other.join(", ")}: flowproof serves POST …/chat/completions and POST …/messages`);
    }
    return {
      reached: first !== undefined,
      ...(first ? { protocol: first.protocol, path: first.path, model: first.model } : {}),
      other,
      exitCode: exit.code,
      timedOut: exit.timedOut && !first,
      stderrTail: exit.stderrTail,
      advice,
    };
  } finally {
    server.stop(true);
  }
}
