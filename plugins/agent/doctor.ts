// `flowproof doctor --agent "<command>"`: whether an agent reaches the model proxy at all, with
// no key and no upstream. The agent is started with the injected environment; its first model
// request is answered with a short final reply (in its own dialect, streamed when it asked for a
// stream) and the agent is then let go.
import { canonicalRequest, PROTOCOL_NAMES, protocolOf, SERVED_ENDPOINTS, streamedByPath, synthesizeStream, type Protocol } from "./dialects.ts";
import { agentEnvironment, injectedEnvironment, spawnAgent } from "./runner.ts";

export interface DoctorReport {
  /** The agent sent at least one model request to the proxy. */
  readonly reached: boolean;
  readonly protocol?: Protocol;
  /** The dialect as a person reads it (`OpenAI Responses`). */
  readonly dialect?: string;
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

/** A short final answer in the dialect of the request. */
export function cannedReply(protocol: Protocol, model: string): unknown {
  switch (protocol) {
    case "openai":
      return {
        id: "chatcmpl-doctor",
        object: "chat.completion",
        created: 0,
        model,
        choices: [{ index: 0, message: { role: "assistant", content: REPLY }, finish_reason: "stop" }],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      };
    case "openai-responses":
      return {
        id: "resp_doctor",
        object: "response",
        created_at: 0,
        status: "completed",
        model,
        error: null,
        incomplete_details: null,
        output: [
          { type: "message", id: "msg_doctor", status: "completed", role: "assistant", content: [{ type: "output_text", text: REPLY, annotations: [] }] },
        ],
        usage: {
          input_tokens: 0,
          output_tokens: 0,
          total_tokens: 0,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens_details: { reasoning_tokens: 0 },
        },
      };
    case "anthropic":
      return {
        id: "msg_doctor",
        type: "message",
        role: "assistant",
        model,
        content: [{ type: "text", text: REPLY }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 0, output_tokens: 0 },
      };
    case "gemini":
      return {
        candidates: [{ content: { role: "model", parts: [{ text: REPLY }] }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: 0, candidatesTokenCount: 0, totalTokenCount: 0 },
        modelVersion: model,
      };
  }
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
      let parsed: unknown;
      try {
        parsed = JSON.parse(await req.text()) as unknown;
      } catch {
        // not JSON: still a request that reached the proxy
      }
      const model = String((canonicalRequest(parsed, protocol, path) as { model?: unknown }).model ?? "");
      first ??= { protocol, path, model };
      reachedFirst();
      const body = cannedReply(protocol, model);
      const stream = (parsed as { stream?: unknown } | undefined)?.stream === true || streamedByPath(path);
      if (!stream) return Response.json(body);
      if (protocol === "gemini" && new URL(req.url).searchParams.get("alt") !== "sse") return Response.json([body]);
      return new Response(synthesizeStream(protocol, body), { headers: { "content-type": "text/event-stream" } });
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
      if (exit.timedOut)
        advice.push(
          `the agent ran for ${Math.round(timeoutMs / 1000)} s without a model request: it may wait for input (it should read its task from FLOWPROOF_PROMPT) or call a model some other way`,
        );
      else if (exit.code !== 0) advice.push(`the agent exited with code ${exit.code ?? "(signal)"} before any model request: fix what its stderr says first`);
      advice.push(
        "point its model client at the variables flowproof injects: OPENAI_BASE_URL (OpenAI clients; …/v1), ANTHROPIC_BASE_URL (Anthropic clients; no /v1) or GOOGLE_GEMINI_BASE_URL (Gemini clients; no version), instead of a base URL set in code",
      );
      advice.push(
        "read the task from FLOWPROOF_PROMPT; the API key it sees is a placeholder (OPENAI_API_KEY / ANTHROPIC_API_KEY / GEMINI_API_KEY …): never require a real one at start",
      );
      if (other.length > 0) advice.push(`it did reach the proxy, but only with ${other.join(", ")}: flowproof serves ${SERVED_ENDPOINTS}`);
    }
    return {
      reached: first !== undefined,
      ...(first
        ? {
            protocol: first.protocol,
            dialect: first.protocol === "gemini" && streamedByPath(first.path) ? "Google Gemini streamGenerateContent" : PROTOCOL_NAMES[first.protocol],
            path: first.path,
            model: first.model,
          }
        : {}),
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
