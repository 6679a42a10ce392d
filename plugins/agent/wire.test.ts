import { describe, expect, test } from "bun:test";
import { asText, parseArgs, sse } from "./wire.ts";

describe("wire helpers", () => {
  test("arguments parse when they are JSON and stay text when not", () => {
    expect(parseArgs('{"a":1}')).toEqual({ a: 1 });
    expect(parseArgs("not json")).toBe("not json");
    expect(parseArgs(undefined)).toEqual({});
  });
  test("a declared result is told as text; an event is one SSE frame", () => {
    expect(asText({ t: 21 })).toBe('{"t":21}');
    expect(asText("held")).toBe("held");
    expect(sse("ping", { a: 1 })).toBe('event: ping\ndata: {"a":1}\n\n');
    expect(sse(undefined, "[DONE]")).toBe("data: [DONE]\n\n");
  });
});
