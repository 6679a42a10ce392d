// A scripted OpenAI-compatible model for authoring tests: a real local HTTP server (127.0.0.1,
// port 0) answering POST /v1/chat/completions with canned replies keyed by the step (the prompt's
// `STEP:` line), recording every request body. Test support only.

export interface ModelRequest {
  /** The step the request is about (from the first user message's `STEP:` line). */
  readonly step: string;
  /** The parsed request body (model, messages, …). */
  readonly body: { model: string; messages: Array<{ role: string; content: string }> };
  /** The raw request body text, for leak checks. */
  readonly raw: string;
}

/** A canned reply: the assistant's text, a function of the request, or an HTTP error. */
export type ScriptedReply = string | ((req: ModelRequest) => string) | { readonly status: number; readonly body: string };

export interface ScriptedModel {
  /** Base URL for FLOWPROOF_AI_BASE_URL, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
  readonly requests: ModelRequest[];
  /** Replies for `step`, consumed one per request in order; the last one repeats. */
  script(step: string, ...replies: ScriptedReply[]): void;
  /** Environment for the CLI pointing at this server. */
  env(extra?: Record<string, string>): Record<string, string>;
  stop(): void;
}

export async function startScriptedModel(): Promise<ScriptedModel> {
  const requests: ModelRequest[] = [];
  const scripts = new Map<string, ScriptedReply[]>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const { pathname } = new URL(req.url);
      if (req.method !== "POST" || !pathname.endsWith("/chat/completions")) return new Response("not found", { status: 404 });
      const raw = await req.text();
      const body = JSON.parse(raw) as ModelRequest["body"];
      const first = body.messages.find((m) => m.role === "user")?.content ?? "";
      const step = /^STEP: (.*)$/m.exec(first)?.[1] ?? "";
      const request: ModelRequest = { step, body, raw };
      requests.push(request);
      const queue = scripts.get(step);
      if (!queue || queue.length === 0) return Response.json({ error: { message: `no scripted reply for step ${JSON.stringify(step)}` } }, { status: 500 });
      const reply = queue.length > 1 ? queue.shift()! : queue[0]!;
      if (typeof reply === "object") return new Response(reply.body, { status: reply.status, headers: { "content-type": "application/json" } });
      const content = typeof reply === "function" ? reply(request) : reply;
      return Response.json({
        id: `chatcmpl-${requests.length}`,
        object: "chat.completion",
        created: 0,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      });
    },
  });
  const url = `http://127.0.0.1:${String(server.port)}/v1`;
  return {
    url,
    requests,
    script(step, ...replies) {
      scripts.set(step, replies);
    },
    env: (extra = {}) => ({ FLOWPROOF_AI_BASE_URL: url, FLOWPROOF_AI_MODEL: "scripted-model", FLOWPROOF_AI_API_KEY: "sk-test-key-123456", FLOWPROOF_AI_TIMEOUT_MS: "20000", ...extra }),
    stop: () => server.stop(true),
  };
}

/** A request the agent model server received, with its dialect and the headers that carry a key. */
export interface AgentModelRequest {
  readonly protocol: "openai" | "anthropic";
  readonly body: Record<string, unknown>;
  readonly authorization: string | null;
  readonly apiKey: string | null;
}

/** One scripted answer: a tool call (name + arguments) or a final text. */
export type AgentModelAnswer = { readonly tool: string; readonly args: unknown } | { readonly text: string };

export interface AgentModel {
  /** Base URL for FLOWPROOF_AGENT_UPSTREAM, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
  readonly requests: AgentModelRequest[];
  stop(): void;
}

/**
 * A scripted model for agent tests, speaking OpenAI chat-completions and Anthropic Messages: it
 * counts every request and answers with `answer(turn, body)`, where `turn` counts the tool results
 * the request already carries (0: call a tool, 1: give the final text, …) and `body` is the request
 * (a scripted conversation's later user messages are in it). Never streams.
 */
export function startAgentModel(answer: (turn: number, body: Record<string, unknown>) => AgentModelAnswer): AgentModel {
  const requests: AgentModelRequest[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const { pathname } = new URL(req.url);
      const protocol = pathname.endsWith("/chat/completions") ? "openai" : pathname.endsWith("/messages") ? "anthropic" : undefined;
      if (req.method !== "POST" || !protocol) return new Response("not found", { status: 404 });
      const body = await req.json() as Record<string, unknown>;
      requests.push({ protocol, body, authorization: req.headers.get("authorization"), apiKey: req.headers.get("x-api-key") });
      const messages = (body["messages"] as Array<Record<string, unknown>>) ?? [];
      const results = messages.filter((m) => m["role"] === "tool" || (Array.isArray(m["content"]) && (m["content"] as Array<Record<string, unknown>>).some((b) => b["type"] === "tool_result"))).length;
      const a = answer(results, body);
      const n = requests.length;
      if (protocol === "openai") {
        const message = "tool" in a
          ? { role: "assistant", content: null, tool_calls: [{ id: `call_${n}`, type: "function", function: { name: a.tool, arguments: JSON.stringify(a.args) } }] }
          : { role: "assistant", content: a.text };
        return Response.json({ id: `chatcmpl-${n}`, object: "chat.completion", created: 0, model: body["model"], choices: [{ index: 0, message, finish_reason: "tool" in a ? "tool_calls" : "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
      }
      const content = "tool" in a ? [{ type: "tool_use", id: `toolu_${n}`, name: a.tool, input: a.args }] : [{ type: "text", text: a.text }];
      return Response.json({ id: `msg_${n}`, type: "message", role: "assistant", model: body["model"], content, stop_reason: "tool" in a ? "tool_use" : "end_turn", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } });
    },
  });
  return { url: `http://127.0.0.1:${String(server.port)}/v1`, requests, stop: () => void server.stop(true) };
}
