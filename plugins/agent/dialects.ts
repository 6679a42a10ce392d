// The model-boundary wire protocols: OpenAI chat-completions and Anthropic Messages. Each request
// and response is read into one neutral view (model, roles, tool names, tool calls, tool results,
// reply text), tool results named in `tools:` are substituted, and a recorded JSON response is
// turned back into the client's own SSE stream when it asked for `stream: true`. Pure.

export type Protocol = "openai" | "anthropic";

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The parsed arguments (the raw string when they are not JSON). */
  readonly arguments: unknown;
}

/** What a request says, whatever its dialect. */
export interface RequestView {
  readonly model: string;
  readonly roles: readonly string[];
  readonly tools: readonly string[];
  readonly system: string;
  /** Tool results the request carries, by the id of the call they answer. */
  readonly results: ReadonlyMap<string, string>;
  /** Request text (all message texts joined), for thread tie-breaks. */
  readonly text: string;
}

/** What a response says. */
export interface ResponseView {
  readonly text: string;
  readonly calls: readonly ToolCall[];
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? v as Json : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v));

/** Which dialect a request path speaks (routing by substring, so a doubled `/v1` still works). */
export function protocolOf(path: string): Protocol | undefined {
  if (path.includes("/chat/completions")) return "openai";
  if (path.includes("/messages")) return "anthropic";
  return undefined;
}

/** The upstream URL for a request: the upstream base plus the dialect's endpoint. */
export function upstreamUrl(base: string, protocol: Protocol): string {
  const root = base.replace(/\/+$/, "");
  const v1 = /\/v1$/.test(root) ? root : `${root}/v1`;
  return `${v1}${protocol === "openai" ? "/chat/completions" : "/messages"}`;
}

/** The request as matched and stored: without the stream flags (streaming is not part of matching). */
export function canonicalRequest(body: unknown): Json {
  const { stream: _stream, stream_options: _options, ...rest } = obj(body);
  return rest;
}

function parseArgs(text: unknown): unknown {
  if (typeof text !== "string") return text ?? {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function blockText(content: unknown): string {
  if (typeof content === "string") return content;
  return arr(content).map((b) => {
    const o = obj(b);
    if (o["type"] === "text") return str(o["text"]);
    if (o["type"] === "tool_result") return blockText(o["content"]);
    return "";
  }).join("");
}

export function readRequest(protocol: Protocol, body: unknown): RequestView {
  const o = obj(body);
  const messages = arr(o["messages"]).map(obj);
  const results = new Map<string, string>();
  if (protocol === "openai") {
    for (const m of messages) if (m["role"] === "tool") results.set(str(m["tool_call_id"]), blockText(m["content"]));
    return {
      model: str(o["model"]),
      roles: messages.map((m) => str(m["role"])),
      tools: arr(o["tools"]).map((t) => str(obj(obj(t)["function"])["name"] ?? obj(t)["name"])),
      system: messages.filter((m) => m["role"] === "system" || m["role"] === "developer").map((m) => blockText(m["content"])).join("\n"),
      results,
      text: messages.map((m) => blockText(m["content"])).join("\n"),
    };
  }
  for (const m of messages) {
    for (const b of arr(m["content"]).map(obj)) if (b["type"] === "tool_result") results.set(str(b["tool_use_id"]), blockText(b["content"]));
  }
  return {
    model: str(o["model"]),
    roles: messages.map((m) => str(m["role"])),
    tools: arr(o["tools"]).map((t) => str(obj(t)["name"])),
    system: blockText(o["system"]),
    results,
    text: messages.map((m) => blockText(m["content"])).join("\n"),
  };
}

export function readResponse(protocol: Protocol, body: unknown): ResponseView {
  const o = obj(body);
  if (protocol === "openai") {
    const message = obj(obj(arr(o["choices"])[0])["message"]);
    const calls = arr(message["tool_calls"]).map(obj).map((c) => ({ id: str(c["id"]), name: str(obj(c["function"])["name"]), arguments: parseArgs(obj(c["function"])["arguments"]) }));
    return { text: str(message["content"]), calls };
  }
  const blocks = arr(o["content"]).map(obj);
  return {
    text: blocks.filter((b) => b["type"] === "text").map((b) => str(b["text"])).join(""),
    calls: blocks.filter((b) => b["type"] === "tool_use").map((b) => ({ id: str(b["id"]), name: str(b["name"]), arguments: b["input"] ?? {} })),
  };
}

/**
 * The request with the answers of `tools:` entries that have a `result` put in place of what the
 * agent's own tool returned: the model is told `result`, at record and replay alike. A tool's call
 * is found by its id in the assistant turns of the same request.
 */
export function substituteResults(protocol: Protocol, body: Json, results: ReadonlyMap<string, unknown>): Json {
  if (results.size === 0) return body;
  const asText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
  const messages = arr(body["messages"]).map(obj);
  const names = new Map<string, string>();
  if (protocol === "openai") {
    for (const m of messages) for (const c of arr(m["tool_calls"]).map(obj)) names.set(str(c["id"]), str(obj(c["function"])["name"]));
    return {
      ...body,
      messages: messages.map((m) => {
        const name = m["role"] === "tool" ? names.get(str(m["tool_call_id"])) : undefined;
        return name !== undefined && results.has(name) ? { ...m, content: asText(results.get(name)) } : m;
      }),
    };
  }
  for (const m of messages) for (const b of arr(m["content"]).map(obj)) if (b["type"] === "tool_use") names.set(str(b["id"]), str(b["name"]));
  return {
    ...body,
    messages: messages.map((m) => {
      if (!Array.isArray(m["content"])) return m;
      return {
        ...m,
        content: arr(m["content"]).map(obj).map((b) => {
          const name = b["type"] === "tool_result" ? names.get(str(b["tool_use_id"])) : undefined;
          return name !== undefined && results.has(name) ? { ...b, content: asText(results.get(name)) } : b;
        }),
      };
    }),
  };
}

const sse = (event: string | undefined, data: unknown): string => `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

/** A recorded (non-streaming) response as the SSE stream the client's dialect sends for `stream: true`. */
export function synthesizeStream(protocol: Protocol, body: unknown): string {
  const o = obj(body);
  if (protocol === "openai") {
    const choice = obj(arr(o["choices"])[0]);
    const message = obj(choice["message"]);
    const base = { id: str(o["id"]) || "chatcmpl-replay", object: "chat.completion.chunk", created: typeof o["created"] === "number" ? o["created"] : 0, model: str(o["model"]) };
    const chunk = (delta: Json, finish: unknown = null) => sse(undefined, { ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
    let out = chunk({ role: "assistant", content: "" });
    if (typeof message["content"] === "string" && message["content"] !== "") out += chunk({ content: message["content"] });
    arr(message["tool_calls"]).map(obj).forEach((c, index) => {
      const f = obj(c["function"]);
      out += chunk({ tool_calls: [{ index, id: str(c["id"]), type: "function", function: { name: str(f["name"]), arguments: str(f["arguments"]) } }] });
    });
    out += chunk({}, choice["finish_reason"] ?? "stop");
    if (o["usage"] !== undefined) out += sse(undefined, { ...base, choices: [], usage: o["usage"] });
    return out + sse(undefined, "[DONE]");
  }
  const blocks = arr(o["content"]).map(obj);
  let out = sse("message_start", { type: "message_start", message: { ...o, content: [], stop_reason: null, stop_sequence: null } });
  blocks.forEach((b, index) => {
    if (b["type"] === "tool_use") {
      out += sse("content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: b["id"], name: b["name"], input: {} } });
      out += sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(b["input"] ?? {}) } });
    } else {
      out += sse("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      out += sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: str(b["text"]) } });
    }
    out += sse("content_block_stop", { type: "content_block_stop", index });
  });
  out += sse("message_delta", { type: "message_delta", delta: { stop_reason: o["stop_reason"] ?? "end_turn", stop_sequence: null }, usage: { output_tokens: obj(o["usage"])["output_tokens"] ?? 0 } });
  return out + sse("message_stop", { type: "message_stop" });
}

/** An error body in the client's dialect (what an SDK shows when the proxy refuses a request). */
export function errorBody(protocol: Protocol, message: string): Json {
  return protocol === "anthropic"
    ? { type: "error", error: { type: "invalid_request_error", message } }
    : { error: { message, type: "flowproof_replay", code: "flowproof_divergence" } };
}
