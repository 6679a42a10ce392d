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
    env: (extra = {}) => ({
      FLOWPROOF_AI_BASE_URL: url,
      FLOWPROOF_AI_MODEL: "scripted-model",
      FLOWPROOF_AI_API_KEY: "sk-test-key-123456",
      FLOWPROOF_AI_TIMEOUT_MS: "20000",
      ...extra,
    }),
    stop: () => server.stop(true),
  };
}

/** A request the agent model server received, with its dialect and the headers that carry a key. */
export interface AgentModelRequest {
  readonly protocol: "openai" | "openai-responses" | "anthropic" | "gemini";
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

type Json = Record<string, unknown>;

/**
 * A scripted model for agent tests, speaking OpenAI chat-completions, the OpenAI Responses API
 * (`previous_response_id` and `item_reference` resolved from the answers it gave), Anthropic
 * Messages and Gemini generateContent (`…/models/<model>:generateContent`, calls without ids, as
 * Gemini sends them): it counts every request and answers with `answer(turn, body)`, where `turn`
 * counts the tool results the conversation already carries (0: call a tool, 1: give the final
 * text, …) and `body` is the request (a scripted conversation's later user messages are in it).
 * Never streams.
 */
export function startAgentModel(answer: (turn: number, body: Json) => AgentModelAnswer): AgentModel {
  const requests: AgentModelRequest[] = [];
  /** Responses API: each answer's whole conversation (input items, then its output), by response id; output items by id. */
  const conversations = new Map<string, Json[]>();
  const items = new Map<string, Json>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const { pathname } = new URL(req.url);
      const model = /\/models\/([^/:]+):generateContent$/.exec(pathname)?.[1];
      const protocol = pathname.endsWith("/chat/completions")
        ? "openai"
        : pathname.endsWith("/responses")
          ? "openai-responses"
          : pathname.endsWith("/messages")
            ? "anthropic"
            : model !== undefined
              ? "gemini"
              : undefined;
      if (req.method !== "POST" || !protocol) return new Response("not found", { status: 404 });
      const body = (await req.json()) as Json;
      requests.push({
        protocol,
        body,
        authorization: req.headers.get("authorization"),
        apiKey: req.headers.get("x-api-key") ?? req.headers.get("x-goog-api-key"),
      });
      const n = requests.length;
      if (protocol === "openai-responses") {
        const input = typeof body["input"] === "string" ? [{ role: "user", content: body["input"] }] : (body["input"] as Json[]);
        const previous = typeof body["previous_response_id"] === "string" ? conversations.get(body["previous_response_id"]) : undefined;
        if (body["previous_response_id"] !== undefined && !previous)
          return Response.json({ error: { message: "previous response not found" } }, { status: 400 });
        const history = [...(previous ?? []), ...input.map((i) => (i["type"] === "item_reference" ? (items.get(String(i["id"])) ?? i) : i))];
        const a = answer(history.filter((i) => i["type"] === "function_call_output").length, body);
        const output: Json[] =
          "tool" in a
            ? [{ type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: a.tool, arguments: JSON.stringify(a.args), status: "completed" }]
            : [{ type: "message", id: `msg_${n}`, status: "completed", role: "assistant", content: [{ type: "output_text", text: a.text, annotations: [] }] }];
        for (const o of output) items.set(String(o["id"]), o);
        conversations.set(`resp_${n}`, [...history, ...output]);
        return Response.json({
          id: `resp_${n}`,
          object: "response",
          created_at: 0,
          status: "completed",
          model: body["model"],
          error: null,
          incomplete_details: null,
          output,
          usage: {
            input_tokens: 1,
            output_tokens: 1,
            total_tokens: 2,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens_details: { reasoning_tokens: 0 },
          },
        });
      }
      if (protocol === "gemini") {
        const contents = (body["contents"] as Array<{ parts?: Json[] }>) ?? [];
        const a = answer(contents.flatMap((c) => c.parts ?? []).filter((p) => p["functionResponse"] !== undefined).length, body);
        const parts = "tool" in a ? [{ functionCall: { name: a.tool, args: a.args } }] : [{ text: a.text }];
        return Response.json({
          candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
          usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
          modelVersion: model,
        });
      }
      const messages = (body["messages"] as Json[]) ?? [];
      const results = messages.filter(
        (m) => m["role"] === "tool" || (Array.isArray(m["content"]) && (m["content"] as Json[]).some((b) => b["type"] === "tool_result")),
      ).length;
      const a = answer(results, body);
      if (protocol === "openai") {
        const message =
          "tool" in a
            ? {
                role: "assistant",
                content: null,
                tool_calls: [{ id: `call_${n}`, type: "function", function: { name: a.tool, arguments: JSON.stringify(a.args) } }],
              }
            : { role: "assistant", content: a.text };
        return Response.json({
          id: `chatcmpl-${n}`,
          object: "chat.completion",
          created: 0,
          model: body["model"],
          choices: [{ index: 0, message, finish_reason: "tool" in a ? "tool_calls" : "stop" }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        });
      }
      const content = "tool" in a ? [{ type: "tool_use", id: `toolu_${n}`, name: a.tool, input: a.args }] : [{ type: "text", text: a.text }];
      return Response.json({
        id: `msg_${n}`,
        type: "message",
        role: "assistant",
        model: body["model"],
        content,
        stop_reason: "tool" in a ? "tool_use" : "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      });
    },
  });
  return { url: `http://127.0.0.1:${String(server.port)}/v1`, requests, stop: () => void server.stop(true) };
}
