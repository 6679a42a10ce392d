import { describe, expect, test } from "bun:test";
import { geminiCodec, geminiRoute, stampCallIds } from "./dialect-gemini.ts";

const request = {
  model: "gemini-test",
  systemInstruction: { parts: [{ text: "You are a booking assistant." }] },
  contents: [
    { role: "user", parts: [{ text: "Book KQ311" }] },
    { role: "model", parts: [{ functionCall: { id: "c1", name: "book_flight", args: { flight: { id: "KQ311" } } } }] },
    { role: "user", parts: [{ functionResponse: { id: "c1", name: "book_flight", response: { name: "book_flight", content: '{"status":"confirmed"}' } } }] },
  ],
  tools: [{ functionDeclarations: [{ name: "book_flight", parameters: {} }] }],
};

describe("Gemini dialect", () => {
  test("the model and the streaming method are read from the path", () => {
    expect(geminiRoute("/v1beta/models/gemini-2.5-flash:streamGenerateContent")).toEqual({ model: "gemini-2.5-flash", stream: true, version: "v1beta" });
    expect(geminiRoute("/models/gemini-2.5-flash:generateContent")).toEqual({ model: "gemini-2.5-flash", stream: false });
    expect(geminiRoute("/v1beta/models/gemini-2.5-flash:embedContent")).toBeUndefined();
  });
  test("a request reads as its system instruction, turns, tools and tool results; a user turn of tool results is no delivery", () => {
    const view = geminiCodec.readRequest(request);
    expect(view).toMatchObject({
      model: "gemini-test",
      system: "You are a booking assistant.",
      roles: ["user", "model", "user"],
      tools: ["book_flight"],
      userTurns: 1,
    });
    expect(view.results.get("c1")).toBe('{"status":"confirmed"}');
  });
  test("a response without call ids pairs results with calls of the same name, in order", () => {
    const noIds = {
      contents: [
        { role: "model", parts: [{ functionCall: { name: "t", args: {} } }] },
        { role: "user", parts: [{ functionResponse: { name: "t", response: { ok: true } } }] },
      ],
    };
    expect(geminiCodec.readRequest(noIds).results.get("t")).toBe('{"ok":true}');
    expect(geminiCodec.readResponse({ candidates: [{ content: { parts: [{ text: "hi " }, { functionCall: { name: "t", args: { a: 1 } } }] } }] })).toEqual({
      text: "hi ",
      calls: [{ id: "t", name: "t", arguments: { a: 1 } }],
    });
  });
  test("recorded answers get an id on every call that has none, so a client's own ids never reach the next request", () => {
    const stamped = stampCallIds(
      {
        candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "t", args: {} } }, { functionCall: { id: "keep", name: "u", args: {} } }] } }],
      },
      3,
    ) as { candidates: Array<{ content: { parts: Array<{ functionCall: { id: string } }> } }> };
    expect(stamped.candidates[0]!.content.parts.map((p) => p.functionCall.id)).toEqual(["flowproof-3-1", "keep"]);
  });
  test("a declared result replaces the functionResponse the model is told; a stream is one SSE event", () => {
    const out = geminiCodec.substituteResults(request, new Map([["book_flight", { status: "held" }]]), new Map());
    const part = (out["contents"] as Array<{ parts: Array<Record<string, { response?: unknown }>> }>)[2]!.parts[0]!["functionResponse"]!;
    expect(part.response).toEqual({ status: "held" });
    expect(geminiCodec.synthesizeStream({ candidates: [] })).toBe('data: {"candidates":[]}\n\n');
  });
});
