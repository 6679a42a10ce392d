import { describe, expect, test } from "bun:test";
import { conversationOfRequest, schemaShape } from "./canonical.ts";

const schema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  description: "x",
  properties: { description: { type: "string", description: "the note" } },
  required: ["description"],
};

describe("the conversation a request carries", () => {
  test("chat completions: system apart, calls and results by tool name with JSON parsed, tools in name order without annotations", () => {
    const c = conversationOfRequest("openai", {
      model: "m",
      response_format: { type: "text" },
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "go" }] },
        { role: "assistant", content: null, tool_calls: [{ id: "x", type: "function", function: { name: "book", arguments: '{"id":"KQ311"}' } }] },
        { role: "tool", tool_call_id: "x", content: '{"ok":true}' },
      ],
      tools: [
        { type: "function", function: { name: "zeta", parameters: schema } },
        { type: "function", function: { name: "book", description: "Book it", parameters: {} } },
      ],
    });
    expect(c.model).toBe("m");
    expect(c.system).toBe("Be brief.");
    expect(c.entries.map(({ wire: _w, ...e }) => e)).toEqual([
      { kind: "message", role: "user", text: "go" },
      { kind: "call", name: "book", arguments: { id: "KQ311" } },
      { kind: "result", name: "book", result: { ok: true } },
    ]);
    expect(c.tools.map((t) => t.name)).toEqual(["book", "zeta"]);
    expect(c.tools[1]!.parameters).toEqual({ type: "object", properties: { description: { type: "string" } }, required: ["description"] });
    expect(c.entries[2]!.wire).toBe("messages.3.content");
  });
  test("the same conversation in Responses, Anthropic Messages and Gemini reads the same", () => {
    const strip = (c: ReturnType<typeof conversationOfRequest>) => ({
      ...c,
      entries: c.entries.map(({ wire: _w, ...e }) => e),
      tools: c.tools.map(({ wire: _w, ...t }) => t),
    });
    const responses = strip(
      conversationOfRequest("openai-responses", {
        model: "m",
        instructions: "Be brief.",
        input: [
          { role: "user", content: "go" },
          { type: "function_call", call_id: "a", name: "book", arguments: '{"id":1}' },
          { type: "function_call_output", call_id: "a", output: '{"ok":true}' },
        ],
        tools: [{ type: "function", name: "book", parameters: schema, strict: true }],
      }),
    );
    const anthropic = strip(
      conversationOfRequest("anthropic", {
        model: "m",
        system: [{ type: "text", text: "Be brief." }],
        max_tokens: 9,
        messages: [
          { role: "user", content: "go" },
          { role: "assistant", content: [{ type: "tool_use", id: "t", name: "book", input: { id: 1 } }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: '{"ok":true}' }] },
        ],
        tools: [{ name: "book", input_schema: schema }],
      }),
    );
    const gemini = strip(
      conversationOfRequest("gemini", {
        model: "m",
        systemInstruction: { parts: [{ text: "Be brief." }] },
        contents: [
          { role: "user", parts: [{ text: "go" }] },
          { role: "model", parts: [{ functionCall: { name: "book", args: { id: 1 } } }] },
          { role: "user", parts: [{ functionResponse: { name: "book", response: { output: { ok: true } } } }] },
        ],
        tools: [{ functionDeclarations: [{ name: "book", parameters: schema }] }],
      }),
    );
    expect(anthropic).toEqual(responses);
    expect(gemini).toEqual(responses);
  });
  test("schema names that look like annotations are kept", () => {
    expect(schemaShape({ properties: { title: { title: "T", type: "string" } } })).toEqual({ properties: { title: { type: "string" } } });
  });
});
