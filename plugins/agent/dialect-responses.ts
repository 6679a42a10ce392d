// The OpenAI Responses API (`POST …/responses`): `input` as a string or a list of items (messages,
// `function_call`, `function_call_output`, `item_reference`, reasoning), `instructions`, tools as
// `{type: "function", name}`, and an `output` list in the answer. A recorded answer streams back
// as the `response.*` events the Responses API sends. Pure.
import { arr, asText, obj, parseArgs, sse, str, type Codec, type Json, type RequestView, type ResponseView } from "./wire.ts";

/** The items of `input` (a bare string is one user message). */
function items(body: Json): Json[] {
  const input = body["input"];
  if (typeof input === "string") return [{ role: "user", content: input }];
  return arr(input).map(obj);
}

/** The text of a message item's content: a string, or `input_text` / `output_text` parts. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return arr(content)
    .map((p) => {
      const o = obj(p);
      return o["type"] === "input_text" || o["type"] === "output_text" || o["type"] === "text" ? str(o["text"]) : "";
    })
    .join("");
}

/** A function_call_output's `output`: a string, or content parts. */
const outputText = (output: unknown): string => (typeof output === "string" ? output : Array.isArray(output) ? contentText(output) : str(output));

const isMessage = (item: Json): boolean => typeof item["role"] === "string" && (item["type"] === undefined || item["type"] === "message");

function readRequest(body: unknown): RequestView {
  const o = obj(body);
  const list = items(o);
  const results = new Map<string, string>();
  for (const i of list) if (i["type"] === "function_call_output") results.set(str(i["call_id"]), outputText(i["output"]));
  const messages = list.filter(isMessage);
  const system = [str(o["instructions"]), ...messages.filter((m) => m["role"] === "system" || m["role"] === "developer").map((m) => contentText(m["content"]))]
    .filter((t) => t !== "")
    .join("\n");
  return {
    model: str(o["model"]),
    roles: list.map((i) => (isMessage(i) ? str(i["role"]) : str(i["type"]))),
    tools: arr(o["tools"]).map((t) => str(obj(t)["name"] ?? obj(t)["type"])),
    system,
    results,
    text: messages.map((m) => contentText(m["content"])).join("\n"),
    userTurns: messages.filter((m) => m["role"] === "user").length,
  };
}

function readResponse(body: unknown): ResponseView {
  const output = arr(obj(body)["output"]).map(obj);
  return {
    text: output
      .filter((i) => i["type"] === "message")
      .map((i) => contentText(i["content"]))
      .join(""),
    calls: output
      .filter((i) => i["type"] === "function_call")
      .map((i) => ({ id: str(i["call_id"]), name: str(i["name"]), arguments: parseArgs(i["arguments"]) })),
  };
}

function substituteResults(body: Json, results: ReadonlyMap<string, unknown>, known: ReadonlyMap<string, string>): Json {
  if (results.size === 0 || typeof body["input"] === "string") return body;
  // A call is found in this request's items, or (a client chaining with `previous_response_id`) in an earlier answer.
  const names = new Map(known);
  for (const i of items(body)) if (i["type"] === "function_call") names.set(str(i["call_id"]), str(i["name"]));
  return {
    ...body,
    input: items(body).map((i) => {
      const name = i["type"] === "function_call_output" ? names.get(str(i["call_id"])) : undefined;
      return name !== undefined && results.has(name) ? { ...i, output: asText(results.get(name)) } : i;
    }),
  };
}

/** The `response.*` events of a streamed answer: created, each output item with its deltas, completed. */
function synthesizeStream(body: unknown): string {
  const o = obj(body);
  let sequence = 0;
  const event = (type: string, data: Json) => sse(type, { type, sequence_number: sequence++, ...data });
  const skeleton = { ...o, status: "in_progress", output: [] };
  let out = event("response.created", { response: skeleton }) + event("response.in_progress", { response: skeleton });
  arr(o["output"])
    .map(obj)
    .forEach((item, index) => {
      const at = { item_id: str(item["id"]), output_index: index };
      if (item["type"] === "message") {
        out += event("response.output_item.added", { output_index: index, item: { ...item, status: "in_progress", content: [] } });
        arr(item["content"])
          .map(obj)
          .forEach((part, content_index) => {
            const text = part["type"] === "output_text" ? str(part["text"]) : undefined;
            out += event("response.content_part.added", { ...at, content_index, part: text !== undefined ? { ...part, text: "" } : part });
            if (text !== undefined) {
              out += event("response.output_text.delta", { ...at, content_index, delta: text, logprobs: [] });
              out += event("response.output_text.done", { ...at, content_index, text, logprobs: [] });
            }
            out += event("response.content_part.done", { ...at, content_index, part });
          });
      } else if (item["type"] === "function_call") {
        out += event("response.output_item.added", { output_index: index, item: { ...item, status: "in_progress", arguments: "" } });
        out += event("response.function_call_arguments.delta", { ...at, delta: str(item["arguments"]) });
        out += event("response.function_call_arguments.done", { ...at, name: str(item["name"]), arguments: str(item["arguments"]) });
      } else {
        out += event("response.output_item.added", { output_index: index, item });
      }
      out += event("response.output_item.done", { output_index: index, item });
    });
  return (
    out + event(o["status"] === "incomplete" ? "response.incomplete" : o["status"] === "failed" ? "response.failed" : "response.completed", { response: o })
  );
}

export const responsesCodec: Codec = {
  readRequest,
  readResponse,
  substituteResults,
  synthesizeStream,
  errorBody: (message) => ({ error: { message, type: "flowproof_replay", code: "flowproof_divergence", param: null } }),
};
