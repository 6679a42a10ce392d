import { describe, expect, test } from "bun:test";
import { responsesCodec } from "./dialect-responses.ts";

const request = {
  model: "gpt-test",
  instructions: "You are a booking assistant.",
  input: [
    { role: "user", content: [{ type: "input_text", text: "Book KQ311" }] },
    { type: "function_call", call_id: "call_1", name: "book_flight", arguments: '{"flight":{"id":"KQ311"}}', id: "fc_1" },
    { type: "function_call_output", call_id: "call_1", output: '{"status":"confirmed"}' },
  ],
  tools: [{ type: "function", name: "book_flight", parameters: {} }],
};
const response = {
  id: "resp_1",
  object: "response",
  status: "completed",
  model: "gpt-test",
  output: [
    { type: "message", id: "msg_1", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Booked KQ311.", annotations: [] }] },
    { type: "function_call", id: "fc_2", call_id: "call_2", name: "add_seat", arguments: '{"seat":"14A"}', status: "completed" },
  ],
};

describe("OpenAI Responses dialect", () => {
  test("a request reads as its model, instructions, items, tools and tool results", () => {
    const view = responsesCodec.readRequest(request);
    expect(view).toMatchObject({
      model: "gpt-test",
      system: "You are a booking assistant.",
      tools: ["book_flight"],
      roles: ["user", "function_call", "function_call_output"],
      userTurns: 1,
    });
    expect(view.results.get("call_1")).toBe('{"status":"confirmed"}');
    expect(responsesCodec.readRequest({ model: "m", input: "hi" })).toMatchObject({ roles: ["user"], text: "hi", userTurns: 1 });
  });
  test("an answer reads as its text and its function calls", () => {
    expect(responsesCodec.readResponse(response)).toEqual({ text: "Booked KQ311.", calls: [{ id: "call_2", name: "add_seat", arguments: { seat: "14A" } }] });
  });
  test("a declared result replaces a function_call_output, the call found in the request or in an earlier answer", () => {
    const out = responsesCodec.substituteResults(request, new Map([["book_flight", { status: "held" }]]), new Map());
    expect((out["input"] as Array<Record<string, unknown>>)[2]!["output"]).toBe('{"status":"held"}');
    // Chained with previous_response_id: the call is only in the earlier answer.
    const chained = { model: "m", previous_response_id: "resp_1", input: [{ type: "function_call_output", call_id: "call_2", output: "ok" }] };
    const sub = responsesCodec.substituteResults(chained, new Map([["add_seat", "held"]]), new Map([["call_2", "add_seat"]]));
    expect((sub["input"] as Array<Record<string, unknown>>)[0]!["output"]).toBe("held");
  });
  test("a recorded answer streams as response.* events, ending with response.completed holding it", () => {
    const stream = responsesCodec.synthesizeStream(response);
    const events = [...stream.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    expect(events[0]).toBe("response.created");
    expect(events).toContain("response.output_text.delta");
    expect(events).toContain("response.function_call_arguments.done");
    expect(events.at(-1)).toBe("response.completed");
    const last = JSON.parse(stream.trim().split("\n").at(-1)!.slice("data: ".length)) as { response: unknown; sequence_number: number };
    expect(last.response).toEqual(response);
    expect(last.sequence_number).toBe(events.length - 1);
  });
});
