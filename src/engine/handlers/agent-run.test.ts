import { describe, expect, test } from "bun:test";
import { cassetteProblem } from "./agent-run.ts";

describe("agent_run cassette check", () => {
  test("a hand-edited cassette is refused naming the turn", () => {
    expect(cassetteProblem(undefined)).toContain("no `cassette` list");
    expect(
      cassetteProblem([
        { protocol: "openai", request: {}, response: {} },
        { protocol: "cohere", request: {}, response: {} },
      ]),
    ).toContain('cassette turn 2 has protocol "cohere"');
    expect(
      cassetteProblem([
        { protocol: "gemini", request: {}, response: {} },
        { protocol: "openai-responses", request: {}, response: {} },
      ]),
    ).toBeUndefined();
    expect(cassetteProblem([{ protocol: "openai", request: "x", response: {} }])).toContain("cassette turn 1 has no request object");
    expect(cassetteProblem([{ protocol: "anthropic", request: {}, response: {} }])).toBeUndefined();
  });
});
