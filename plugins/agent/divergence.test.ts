import { describe, expect, test } from "bun:test";
import { describeDivergence } from "./divergence.ts";
import { DEFAULT_MATCH } from "./matcher.ts";

const gemini = (confirmation: string, flight: string, extra: object = {}) => ({
  model: "gemini-test",
  contents: [
    { role: "user", parts: [{ text: "Book the cheapest flight" }] },
    { role: "model", parts: [{ functionCall: { name: "book_flight", args: { flight_id: "KQ311" } } }] },
    { role: "user", parts: [{ functionResponse: { name: "book_flight", response: { output: { confirmation, flight_id: flight } } } }] },
  ],
  ...extra,
});

describe("a divergence in the flow's words", () => {
  test("a tool result: the tool, each changed field with the recorded value, then the wire path", () => {
    const d = describeDivergence({
      turn: 3,
      ordinal: 3,
      recorded: { protocol: "gemini", request: gemini("CONF-311", "KQ311") },
      protocol: "gemini",
      replayed: gemini("CONF-065", "BA065"),
      rule: DEFAULT_MATCH,
    });
    expect(d).toBe(
      [
        "turn 3: book_flight returned confirmation CONF-065 (recorded CONF-311), flight_id BA065 (recorded KQ311)",
        "  model request 3 (wire): contents.2.parts.0.functionResponse.response.output.confirmation: recorded CONF-311, replayed CONF-065; contents.2.parts.0.functionResponse.response.output.flight_id: recorded KQ311, replayed BA065",
      ].join("\n"),
    );
  });
  test("a changed task, instructions, tool list and dialect are each named", () => {
    const base = {
      model: "m",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Book KQ311" },
      ],
      tools: [{ type: "function", function: { name: "book", parameters: {} } }],
    };
    const say = (replayed: object, protocol: "openai" | "anthropic" = "openai") =>
      describeDivergence({ turn: 1, ordinal: 1, recorded: { protocol: "openai", request: base }, protocol, replayed, rule: DEFAULT_MATCH }).split("\n")[0];
    expect(say({ ...base, messages: [base.messages[0], { role: "user", content: "Book BA065" }] })).toBe(
      'turn 1: the user message reads "Book BA065" (recorded "Book KQ311")',
    );
    expect(say({ ...base, messages: [{ role: "system", content: "Be long." }, base.messages[1]] })).toBe(
      'turn 1: the instructions read "Be long." (recorded "Be brief.")',
    );
    expect(say({ ...base, tools: [...base.tools, { type: "function", function: { name: "cancel", parameters: {} } }] })).toBe(
      "turn 1: the agent offered the tools [book, cancel] (recorded [book])",
    );
    expect(say({ ...base, messages: [...base.messages, { role: "user", content: "and a seat" }] })).toBe(
      'turn 1: the request carries a user message "and a seat" the recording does not',
    );
    expect(say(base, "anthropic")).toBe("turn 1: the agent spoke Anthropic Messages (recorded OpenAI chat-completions)");
  });
});
