import { describe, expect, test } from "bun:test";
import { canonicalRequest, protocolOf, readResponse, substituteResults, synthesizeStream, upstreamUrl } from "./dialects.ts";

describe("dialects", () => {
  test("routing by path substring, a doubled /v1 included", () => {
    expect(protocolOf("/v1/v1/chat/completions")).toBe("openai");
    expect(protocolOf("/v1/messages")).toBe("anthropic");
    expect(protocolOf("/v1/models")).toBeUndefined();
    expect(protocolOf("/v1/responses")).toBe("openai-responses");
    expect(protocolOf("/v1/responses/resp_1")).toBeUndefined();
    expect(protocolOf("/v1beta/models/gemini-2.5-flash:streamGenerateContent")).toBe("gemini");
    expect(upstreamUrl("http://h/v1/", "openai")).toBe("http://h/v1/chat/completions");
    expect(upstreamUrl("http://h", "anthropic")).toBe("http://h/v1/messages");
    expect(upstreamUrl("https://api.anthropic.com/v1", "anthropic")).toBe("https://api.anthropic.com/v1/messages");
    expect(upstreamUrl("http://h/v1", "openai-responses")).toBe("http://h/v1/responses");
    // Gemini: a base that names its version keeps it; the call is always the non-streaming one.
    expect(upstreamUrl("https://generativelanguage.googleapis.com/v1beta", "gemini", "gemini-2.5-flash")).toBe(
      "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
    );
    expect(upstreamUrl("https://generativelanguage.googleapis.com", "gemini", "g")).toBe(
      "https://generativelanguage.googleapis.com/v1beta/models/g:generateContent",
    );
  });
  test("the stream flag is not part of the stored request", () => {
    expect(canonicalRequest({ model: "m", stream: true, stream_options: {} })).toEqual({ model: "m" });
    // A Gemini request keeps the model its path named (streaming is the path, not the body).
    expect(canonicalRequest({ contents: [] }, "gemini", "/v1beta/models/g-1:streamGenerateContent")).toEqual({ model: "g-1", contents: [] });
  });
  test("tool calls are read in both dialects", () => {
    expect(
      readResponse("openai", { choices: [{ message: { content: null, tool_calls: [{ id: "c", function: { name: "t", arguments: '{"a":1}' } }] } }] }).calls,
    ).toEqual([{ id: "c", name: "t", arguments: { a: 1 } }]);
    expect(
      readResponse("anthropic", {
        content: [
          { type: "text", text: "hi" },
          { type: "tool_use", id: "u", name: "t", input: { a: 1 } },
        ],
      }),
    ).toEqual({ text: "hi", calls: [{ id: "u", name: "t", arguments: { a: 1 } }] });
  });
  test("a declared result replaces what the agent's tool answered", () => {
    const body = {
      messages: [
        { role: "assistant", tool_calls: [{ id: "c", function: { name: "weather" } }] },
        { role: "tool", tool_call_id: "c", content: "real" },
      ],
    };
    const out = substituteResults("openai", body, new Map([["weather", { temp: 21 }]]));
    expect((out["messages"] as Array<{ content: unknown }>)[1]!.content).toBe('{"temp":21}');
  });
  test("a recorded response streams back in the client's dialect", () => {
    const openai = synthesizeStream("openai", { id: "x", model: "m", choices: [{ message: { content: "hello" }, finish_reason: "stop" }] });
    expect(openai).toContain('"content":"hello"');
    expect(openai.trim().endsWith("data: [DONE]")).toBe(true);
    const anthropic = synthesizeStream("anthropic", { id: "x", content: [{ type: "text", text: "hello" }] });
    expect(anthropic).toContain("event: message_start");
    expect(anthropic).toContain('"text_delta","text":"hello"');
    expect(anthropic.trim().endsWith('{"type":"message_stop"}')).toBe(true);
  });
});
