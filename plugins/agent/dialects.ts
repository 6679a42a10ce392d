// The model-boundary wire protocols: OpenAI chat-completions and Anthropic Messages. Each request
// and response is read into one neutral view (model, roles, tool names, tool calls, tool results,
// reply text), tool results named in `tools:` are substituted, and a recorded JSON response is
// turned back into the client's own SSE stream when it asked for `stream: true`. Pure.

// The model-boundary wire protocols: OpenAI chat-completions, the OpenAI Responses API, Anthropic
// Messages and Google Gemini generateContent. Each request and response is read into one neutral
// view (model, roles, tool names, tool calls, tool results, reply text), tool results named in
// `tools:` are substituted, and a recorded JSON response is turned back into the client's own SSE
// stream when it asked for one. Pure.
import { geminiCodec, geminiRoute } from "./dialect-gemini.ts";
import { responsesCodec } from "./dialect-responses.ts";
import { arr, asText, obj, parseArgs, sse, str, type Codec, type Json, type RequestView, type ResponseView } from "./wire.ts";
export type { RequestView, ResponseView, ToolCall } from "./wire.ts";

/** The dialects, as a cassette turn names them. */
export const PROTOCOLS = ["openai", "openai-responses", "anthropic", "gemini"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** How each dialect is named to a person. */
export const PROTOCOL_NAMES: Readonly<Record<Protocol, string>> = {
  openai: "OpenAI chat-completions",
  "openai-responses": "OpenAI Responses",
  anthropic: "Anthropic Messages",
  gemini: "Google Gemini generateContent",
};

/** The endpoints the proxy serves, as error messages name them. */
export const SERVED_ENDPOINTS =
  "POST …/chat/completions, POST …/responses, POST …/messages and POST …/models/<model>:generateContent (or :streamGenerateContent)";

/** Which dialect a request path speaks (routing by substring, so a doubled `/v1` still works). */
export function protocolOf(path: string): Protocol | undefined {
  if (path.includes("/chat/completions")) return "openai";
  if (/\/responses$/.test(path)) return "openai-responses";
  if (geminiRoute(path)) return "gemini";
  if (path.includes("/messages")) return "anthropic";
  return undefined;
}

/** Whether a request on `path` (with its query) asks for a streamed answer, whatever its body says. */
export function streamedByPath(path: string): boolean {
  return geminiRoute(path)?.stream === true;
}

/**
 * The upstream URL for a request: the upstream base plus the dialect's endpoint. OpenAI and
 * Anthropic bases get `/v1` unless they end in it; a Gemini base keeps a version it ends in
 * (`…/v1beta`), else gets the version the request used (default `v1beta`), and the call is always
 * the non-streaming `generateContent` of the model the request named.
 */
export function upstreamUrl(base: string, protocol: Protocol, model = ""): string {
  const root = base.replace(/\/+$/, "");
  if (protocol === "gemini") {
    const versioned = /\/v\d+\w*$/.test(root) ? root : `${root}/v1beta`;
    return `${versioned}/models/${encodeURIComponent(model)}:generateContent`;
  }
  const v1 = /\/v1$/.test(root) ? root : `${root}/v1`;
  return `${v1}${protocol === "openai" ? "/chat/completions" : protocol === "openai-responses" ? "/responses" : "/messages"}`;
}

/**
 * The request as matched and stored: without the stream flags (streaming is not part of matching);
 * a Gemini request with the model its path named as `model`.
 */
export function canonicalRequest(body: unknown, protocol: Protocol = "openai", path = ""): Json {
  const { stream: _stream, stream_options: _options, ...rest } = obj(body);
  if (protocol !== "gemini") return rest;
  return { model: geminiRoute(path)?.model ?? "", ...obj(body) };
}

/** The body sent upstream: a Gemini request without the `model` the cassette adds (the path names it). */
export function upstreamBody(protocol: Protocol, request: Json): Json {
  if (protocol !== "gemini") return request;
  const { model: _model, ...rest } = request;
  return rest;
}

function blockText(content: unknown): string {
  if (typeof content === "string") return content;
  return arr(content)
    .map((b) => {
      const o = obj(b);
      if (o["type"] === "text") return str(o["text"]);
      if (o["type"] === "tool_result") return blockText(o["content"]);
      return "";
    })
    .join("");
}

function chatRequest(body: unknown): RequestView {
  const o = obj(body);
  const messages = arr(o["messages"]).map(obj);
  const results = new Map<string, string>();
  for (const m of messages) if (m["role"] === "tool") results.set(str(m["tool_call_id"]), blockText(m["content"]));
  return {
    model: str(o["model"]),
    roles: messages.map((m) => str(m["role"])),
    tools: arr(o["tools"]).map((t) => str(obj(obj(t)["function"])["name"] ?? obj(t)["name"])),
    system: messages
      .filter((m) => m["role"] === "system" || m["role"] === "developer")
      .map((m) => blockText(m["content"]))
      .join("\n"),
    results,
    text: messages.map((m) => blockText(m["content"])).join("\n"),
    userTurns: messages.filter((m) => m["role"] === "user").length,
  };
}

function messagesRequest(body: unknown): RequestView {
  const o = obj(body);
  const messages = arr(o["messages"]).map(obj);
  const results = new Map<string, string>();
  for (const m of messages) {
    for (const b of arr(m["content"]).map(obj)) if (b["type"] === "tool_result") results.set(str(b["tool_use_id"]), blockText(b["content"]));
  }
  // A user message made only of tool results is not a delivery.
  const delivered = (m: Json) => m["role"] === "user" && (typeof m["content"] === "string" || arr(m["content"]).some((b) => obj(b)["type"] !== "tool_result"));
  return {
    model: str(o["model"]),
    roles: messages.map((m) => str(m["role"])),
    tools: arr(o["tools"]).map((t) => str(obj(t)["name"])),
    system: blockText(o["system"]),
    results,
    text: messages.map((m) => blockText(m["content"])).join("\n"),
    userTurns: messages.filter(delivered).length,
  };
}

function chatResponse(body: unknown): ResponseView {
  const message = obj(obj(arr(obj(body)["choices"])[0])["message"]);
  const calls = arr(message["tool_calls"])
    .map(obj)
    .map((c) => ({ id: str(c["id"]), name: str(obj(c["function"])["name"]), arguments: parseArgs(obj(c["function"])["arguments"]) }));
  return { text: str(message["content"]), calls };
}

function messagesResponse(body: unknown): ResponseView {
  const blocks = arr(obj(body)["content"]).map(obj);
  return {
    text: blocks
      .filter((b) => b["type"] === "text")
      .map((b) => str(b["text"]))
      .join(""),
    calls: blocks.filter((b) => b["type"] === "tool_use").map((b) => ({ id: str(b["id"]), name: str(b["name"]), arguments: b["input"] ?? {} })),
  };
}

function chatSubstitute(body: Json, results: ReadonlyMap<string, unknown>, known: ReadonlyMap<string, string>): Json {
  const messages = arr(body["messages"]).map(obj);
  const names = new Map(known);
  for (const m of messages) for (const c of arr(m["tool_calls"]).map(obj)) names.set(str(c["id"]), str(obj(c["function"])["name"]));
  return {
    ...body,
    messages: messages.map((m) => {
      const name = m["role"] === "tool" ? names.get(str(m["tool_call_id"])) : undefined;
      return name !== undefined && results.has(name) ? { ...m, content: asText(results.get(name)) } : m;
    }),
  };
}

function messagesSubstitute(body: Json, results: ReadonlyMap<string, unknown>, known: ReadonlyMap<string, string>): Json {
  const messages = arr(body["messages"]).map(obj);
  const names = new Map(known);
  for (const m of messages) for (const b of arr(m["content"]).map(obj)) if (b["type"] === "tool_use") names.set(str(b["id"]), str(b["name"]));
  return {
    ...body,
    messages: messages.map((m) => {
      if (!Array.isArray(m["content"])) return m;
      return {
        ...m,
        content: arr(m["content"])
          .map(obj)
          .map((b) => {
            const name = b["type"] === "tool_result" ? names.get(str(b["tool_use_id"])) : undefined;
            return name !== undefined && results.has(name) ? { ...b, content: asText(results.get(name)) } : b;
          }),
      };
    }),
  };
}

function chatStream(body: unknown): string {
  const o = obj(body);
  const choice = obj(arr(o["choices"])[0]);
  const message = obj(choice["message"]);
  const base = {
    id: str(o["id"]) || "chatcmpl-replay",
    object: "chat.completion.chunk",
    created: typeof o["created"] === "number" ? o["created"] : 0,
    model: str(o["model"]),
  };
  const chunk = (delta: Json, finish: unknown = null) => sse(undefined, { ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  let out = chunk({ role: "assistant", content: "" });
  if (typeof message["content"] === "string" && message["content"] !== "") out += chunk({ content: message["content"] });
  arr(message["tool_calls"])
    .map(obj)
    .forEach((c, index) => {
      const f = obj(c["function"]);
      out += chunk({ tool_calls: [{ index, id: str(c["id"]), type: "function", function: { name: str(f["name"]), arguments: str(f["arguments"]) } }] });
    });
  out += chunk({}, choice["finish_reason"] ?? "stop");
  if (o["usage"] !== undefined) out += sse(undefined, { ...base, choices: [], usage: o["usage"] });
  return out + sse(undefined, "[DONE]");
}

function messagesStream(body: unknown): string {
  const o = obj(body);
  const blocks = arr(o["content"]).map(obj);
  let out = sse("message_start", { type: "message_start", message: { ...o, content: [], stop_reason: null, stop_sequence: null } });
  blocks.forEach((b, index) => {
    if (b["type"] === "tool_use") {
      out += sse("content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: b["id"], name: b["name"], input: {} } });
      out += sse("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(b["input"] ?? {}) },
      });
    } else {
      out += sse("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      out += sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: str(b["text"]) } });
    }
    out += sse("content_block_stop", { type: "content_block_stop", index });
  });
  out += sse("message_delta", {
    type: "message_delta",
    delta: { stop_reason: o["stop_reason"] ?? "end_turn", stop_sequence: null },
    usage: { output_tokens: obj(o["usage"])["output_tokens"] ?? 0 },
  });
  return out + sse("message_stop", { type: "message_stop" });
}

const CODECS: Readonly<Record<Protocol, Codec>> = {
  openai: {
    readRequest: chatRequest,
    readResponse: chatResponse,
    substituteResults: chatSubstitute,
    synthesizeStream: chatStream,
    errorBody: (message) => ({ error: { message, type: "flowproof_replay", code: "flowproof_divergence" } }),
  },
  "openai-responses": responsesCodec,
  anthropic: {
    readRequest: messagesRequest,
    readResponse: messagesResponse,
    substituteResults: messagesSubstitute,
    synthesizeStream: messagesStream,
    errorBody: (message) => ({ type: "error", error: { type: "invalid_request_error", message } }),
  },
  gemini: geminiCodec,
};

/** A cassette turn's protocol as a dialect (anything unknown reads as chat-completions). */
export const asProtocol = (p: string): Protocol => ((PROTOCOLS as readonly string[]).includes(p) ? (p as Protocol) : "openai");

export const readRequest = (protocol: Protocol, body: unknown): RequestView => CODECS[protocol].readRequest(body);
export const readResponse = (protocol: Protocol, body: unknown): ResponseView => CODECS[protocol].readResponse(body);

/**
 * The request with the answers of `tools:` entries that have a `result` put in place of what the
 * agent's own tool returned: the model is told `result`, at record and replay alike. A tool's call
 * is found by its id in the same request, or in `known` (call ids of earlier answers → tool names).
 */
export function substituteResults(protocol: Protocol, body: Json, results: ReadonlyMap<string, unknown>, known: ReadonlyMap<string, string> = new Map()): Json {
  return results.size === 0 ? body : CODECS[protocol].substituteResults(body, results, known);
}

/** A recorded (non-streaming) response as the SSE stream the client's dialect sends when it asks for a stream. */
export const synthesizeStream = (protocol: Protocol, body: unknown): string => CODECS[protocol].synthesizeStream(body);

/** An error body in the client's dialect (what an SDK shows when the proxy refuses a request). */
export const errorBody = (protocol: Protocol, message: string): Json => CODECS[protocol].errorBody(message);
