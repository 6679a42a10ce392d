// A model request read as the conversation it carries, whatever its dialect: the model, the
// instructions (system prompt), the messages by role and text, the tool calls (name, arguments
// parsed from JSON), the tool results (the tool's name, the result parsed from JSON) and the tool
// definitions (name, parameter schema without its annotations, in name order). Call ids, tool and
// parameter descriptions, stream flags and every other request field are left out: they are what
// an SDK upgrade changes without changing what the model is asked. Each entry keeps the wire path
// it came from, for the detail line of a divergence. Pure.
import type { Protocol } from "./dialects.ts";
import { arr, obj, str, type Json } from "./wire.ts";

/** How a replayed request is matched to a recorded one: the flow's `match:`. */
export interface MatchRule {
  readonly by: "conversation" | "strict";
  /** Request paths (dotted, `*` for any key or index) dropped from both bodies before comparing. */
  readonly ignore: readonly string[];
  /** `conversation` only: request paths compared as well as the conversation. */
  readonly compare: readonly string[];
}

export type Entry =
  | { readonly kind: "message"; readonly role: string; readonly text: string; readonly parts?: readonly unknown[]; readonly wire: string }
  | { readonly kind: "call"; readonly name: string; readonly arguments: unknown; readonly wire: string }
  | { readonly kind: "result"; readonly name: string; readonly result: unknown; readonly wire: string }
  /** A Responses `item_reference` (an earlier answer's item, by id) or `previous_response_id`. */
  | { readonly kind: "reference"; readonly id: string; readonly wire: string };

export interface ToolDefinition {
  readonly name: string;
  readonly parameters: unknown;
  readonly wire: string;
}

export interface Conversation {
  readonly model: string;
  readonly system: string;
  readonly entries: readonly Entry[];
  /** In name order: the order a client lists its tools in is not part of the conversation. */
  readonly tools: readonly ToolDefinition[];
}

/** A text that holds JSON (arguments, a tool result) as the value it holds; any other value as it is. */
export function jsonValue(v: unknown): unknown {
  if (typeof v !== "string" || !/^\s*[[{"]/.test(v)) return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

const ANNOTATIONS = new Set(["$schema", "description", "title", "examples", "$comment"]);

/** A JSON Schema without its annotations (descriptions, titles, examples, `$schema`), at every schema position. */
export function schemaShape(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(schemaShape);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema as Json)) {
    if (ANNOTATIONS.has(k)) continue;
    // Maps of named schemas: the names stay, each schema is shaped.
    if ((k === "properties" || k === "$defs" || k === "definitions" || k === "patternProperties") && v !== null && typeof v === "object" && !Array.isArray(v)) {
      out[k] = Object.fromEntries(Object.entries(v as Json).map(([name, s]) => [name, schemaShape(s)]));
    } else out[k] = typeof v === "object" ? schemaShape(v) : v;
  }
  return out;
}

const byName = (tools: ToolDefinition[]): ToolDefinition[] => tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** Text parts of a content value (a string, or a list of parts); the other parts, as they are, without ids. */
function content(value: unknown, textTypes: readonly string[]): { text: string; parts: unknown[] } {
  if (typeof value === "string") return { text: value, parts: [] };
  const texts: string[] = [];
  const parts: unknown[] = [];
  for (const p of arr(value)) {
    const o = obj(p);
    if (textTypes.includes(str(o["type"])) && typeof o["text"] === "string") texts.push(o["text"]);
    else if (p !== null && typeof p === "object") {
      const { id: _id, cache_control: _cache, ...rest } = o;
      parts.push(rest);
    }
  }
  return { text: texts.join(""), parts };
}

const message = (role: string, c: { text: string; parts: unknown[] }, wire: string): Entry[] =>
  c.text === "" && c.parts.length === 0 ? [] : [{ kind: "message", role, text: c.text, ...(c.parts.length > 0 ? { parts: c.parts } : {}), wire }];

function chat(o: Json): Conversation {
  const names = new Map<string, string>();
  const system: string[] = [];
  const entries: Entry[] = [];
  arr(o["messages"])
    .map(obj)
    .forEach((m, i) => {
      const role = str(m["role"]);
      const at = `messages.${i}`;
      const c = content(m["content"], ["text"]);
      if (role === "system" || role === "developer") {
        system.push(c.text);
        return;
      }
      if (role === "tool" || role === "function") {
        const name = role === "function" ? str(m["name"]) : (names.get(str(m["tool_call_id"])) ?? "");
        entries.push({ kind: "result", name, result: jsonValue(typeof m["content"] === "string" ? m["content"] : c.text), wire: `${at}.content` });
        return;
      }
      entries.push(...message(role, c, `${at}.content`));
      arr(m["tool_calls"])
        .map(obj)
        .forEach((call, j) => {
          const f = obj(call["function"]);
          names.set(str(call["id"]), str(f["name"]));
          entries.push({ kind: "call", name: str(f["name"]), arguments: jsonValue(f["arguments"]), wire: `${at}.tool_calls.${j}.function.arguments` });
        });
    });
  const tools = arr(o["tools"])
    .map(obj)
    .map((t, i): ToolDefinition => {
      const f = obj(t["function"] ?? t);
      return { name: str(f["name"]), parameters: schemaShape(f["parameters"] ?? {}), wire: `tools.${i}` };
    });
  return { model: str(o["model"]), system: system.join("\n"), entries, tools: byName(tools) };
}

function messages(o: Json): Conversation {
  const names = new Map<string, string>();
  const entries: Entry[] = [];
  arr(o["messages"])
    .map(obj)
    .forEach((m, i) => {
      const role = str(m["role"]);
      const at = `messages.${i}.content`;
      if (typeof m["content"] === "string") {
        entries.push(...message(role, { text: m["content"], parts: [] }, at));
        return;
      }
      const texts: string[] = [];
      arr(m["content"])
        .map(obj)
        .forEach((b, j) => {
          if (b["type"] === "text") texts.push(str(b["text"]));
          else if (b["type"] === "tool_use") {
            names.set(str(b["id"]), str(b["name"]));
            entries.push({ kind: "call", name: str(b["name"]), arguments: b["input"] ?? {}, wire: `${at}.${j}.input` });
          } else if (b["type"] === "tool_result") {
            const c = content(b["content"], ["text"]);
            entries.push({ kind: "result", name: names.get(str(b["tool_use_id"])) ?? "", result: jsonValue(c.text), wire: `${at}.${j}.content` });
          }
        });
      if (texts.length > 0) entries.push(...message(role, { text: texts.join(""), parts: [] }, at));
    });
  const system = content(o["system"], ["text"]).text;
  const tools = arr(o["tools"])
    .map(obj)
    .map((t, i): ToolDefinition => ({ name: str(t["name"]), parameters: schemaShape(t["input_schema"] ?? {}), wire: `tools.${i}` }));
  return { model: str(o["model"]), system, entries, tools: byName(tools) };
}

function responses(o: Json): Conversation {
  const names = new Map<string, string>();
  const system: string[] = typeof o["instructions"] === "string" && o["instructions"] !== "" ? [o["instructions"]] : [];
  const entries: Entry[] = [];
  if (typeof o["previous_response_id"] === "string") entries.push({ kind: "reference", id: o["previous_response_id"], wire: "previous_response_id" });
  const input = typeof o["input"] === "string" ? [{ role: "user", content: o["input"] }] : arr(o["input"]).map(obj);
  input.forEach((item, i) => {
    const at = typeof o["input"] === "string" ? "input" : `input.${i}`;
    const type = str(item["type"]);
    if (typeof item["role"] === "string" && (type === "" || type === "message")) {
      const c = content(item["content"], ["input_text", "output_text", "text"]);
      if (item["role"] === "system" || item["role"] === "developer") system.push(c.text);
      else entries.push(...message(item["role"], c, typeof o["input"] === "string" ? at : `${at}.content`));
    } else if (type === "function_call") {
      names.set(str(item["call_id"]), str(item["name"]));
      entries.push({ kind: "call", name: str(item["name"]), arguments: jsonValue(item["arguments"]), wire: `${at}.arguments` });
    } else if (type === "function_call_output") {
      const output = item["output"];
      const text = typeof output === "string" ? output : content(output, ["input_text", "output_text", "text"]).text;
      entries.push({ kind: "result", name: names.get(str(item["call_id"])) ?? "", result: jsonValue(text), wire: `${at}.output` });
    } else if (type === "item_reference") {
      entries.push({ kind: "reference", id: str(item["id"]), wire: `${at}.id` });
    }
    // Reasoning items and other state the client carries are not the conversation.
  });
  const tools = arr(o["tools"])
    .map(obj)
    .map((t, i): ToolDefinition => ({ name: str(t["name"] ?? t["type"]), parameters: schemaShape(t["parameters"] ?? {}), wire: `tools.${i}` }));
  return { model: str(o["model"]), system: system.join("\n"), entries, tools: byName(tools) };
}

/** What a Gemini `functionResponse.response` says: its one `output`/`content`/`result` unwrapped, text holding JSON parsed. */
function geminiResult(response: unknown): { result: unknown; key?: string } {
  const r = obj(response);
  const keys = Object.keys(r).filter((k) => k !== "name");
  if (keys.length === 1 && ["output", "content", "result"].includes(keys[0]!)) return { result: jsonValue(r[keys[0]!]), key: keys[0]! };
  return { result: response ?? {} };
}

function gemini(o: Json): Conversation {
  const entries: Entry[] = [];
  arr(o["contents"])
    .map(obj)
    .forEach((c, i) => {
      const role = str(c["role"]) === "model" ? "assistant" : str(c["role"]) || "user";
      const texts: string[] = [];
      arr(c["parts"])
        .map(obj)
        .forEach((p, j) => {
          const at = `contents.${i}.parts.${j}`;
          if (typeof p["text"] === "string" && p["thought"] !== true) texts.push(p["text"]);
          else if (p["functionCall"] !== undefined) {
            const call = obj(p["functionCall"]);
            entries.push({ kind: "call", name: str(call["name"]), arguments: call["args"] ?? {}, wire: `${at}.functionCall.args` });
          } else if (p["functionResponse"] !== undefined) {
            const fr = obj(p["functionResponse"]);
            const { result, key } = geminiResult(fr["response"]);
            entries.push({ kind: "result", name: str(fr["name"]), result, wire: `${at}.functionResponse.response${key ? `.${key}` : ""}` });
          }
        });
      if (texts.length > 0) entries.push(...message(role, { text: texts.join(""), parts: [] }, `contents.${i}.parts`));
    });
  const declarations = arr(o["tools"]).flatMap((t, i) =>
    arr(obj(t)["functionDeclarations"] ?? obj(t)["function_declarations"]).map((d, j) => ({ d: obj(d), wire: `tools.${i}.functionDeclarations.${j}` })),
  );
  const tools = declarations.map(
    ({ d, wire }): ToolDefinition => ({ name: str(d["name"]), parameters: schemaShape(d["parameters"] ?? d["parametersJsonSchema"] ?? {}), wire }),
  );
  const system = arr(obj(o["systemInstruction"] ?? o["system_instruction"])["parts"])
    .map((p) => str(obj(p)["text"]))
    .join("");
  return { model: str(o["model"]), system, entries, tools: byName(tools) };
}

/** The conversation a request body carries, in `protocol`. */
export function conversationOfRequest(protocol: Protocol, body: unknown): Conversation {
  const o = obj(body);
  switch (protocol) {
    case "openai":
      return chat(o);
    case "openai-responses":
      return responses(o);
    case "anthropic":
      return messages(o);
    case "gemini":
      return gemini(o);
  }
}
