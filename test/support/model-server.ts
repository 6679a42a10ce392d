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
