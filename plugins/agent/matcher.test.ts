import { describe, expect, test } from "bun:test";
import { DEFAULT_MATCH, fieldDiff, jsonEqual, matchTurn, type MatchRule } from "./matcher.ts";

const req = (flight: string) => ({
  model: "m",
  messages: [
    { role: "user", content: "go" },
    { role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "book", arguments: "{}" } }] },
    { role: "tool", tool_call_id: "c1", content: JSON.stringify({ book: { flight: { id: flight } } }) },
  ],
});
const strict: MatchRule = { by: "strict", ignore: [], compare: [] };

describe("matcher", () => {
  test("JSON equality ignores key order", () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: "1" })).toBe(false);
  });
  test("a field inside a JSON string is diffed by its path", () => {
    expect(fieldDiff(req("KQ311"), req("KQ999"))).toEqual(["messages.2.content.book.flight.id: recorded KQ311, replayed KQ999"]);
  });
  test("earliest unconsumed matching turn wins; each turn once; an extra call fails", () => {
    const turns = [
      { protocol: "openai", request: req("A") },
      { protocol: "openai", request: req("A") },
    ];
    expect(matchTurn(turns, new Set(), "openai", req("A"), 1)).toEqual({ ok: true, index: 0, notes: [] });
    expect(matchTurn(turns, new Set([0]), "openai", req("A"), 2)).toEqual({ ok: true, index: 1, notes: [] });
    const extra = matchTurn(turns, new Set([0, 1]), "openai", req("A"), 3);
    expect(extra.ok).toBe(false);
    expect(!extra.ok && extra.detail).toContain("extra model call");
  });
  test("by default a field outside the conversation is a note, not a divergence; strict compares it", () => {
    const upgraded = { ...req("A"), response_format: { type: "text" }, store: false };
    const m = matchTurn([{ protocol: "openai", request: req("A") }], new Set(), "openai", upgraded, 1);
    expect(m).toEqual({
      ok: true,
      index: 0,
      notes: [
        'turn 1: request fields that differ from the recording, not compared (match: conversation): response_format: recorded (absent), replayed {"type":"text"}; store: recorded (absent), replayed false',
      ],
    });
    const s = matchTurn([{ protocol: "openai", request: req("A") }], new Set(), "openai", upgraded, 1, strict);
    expect(!s.ok && s.detail).toBe(
      'turn 1: the request differs outside the conversation (`match: strict` compares every field)\n  model request 1 (wire): response_format: recorded (absent), replayed {"type":"text"}; store: recorded (absent), replayed false',
    );
    // `ignore:` drops a path from both sides, under strict too.
    expect(
      matchTurn([{ protocol: "openai", request: req("A") }], new Set(), "openai", upgraded, 1, {
        by: "strict",
        ignore: ["response_format", "store"],
        compare: [],
      }).ok,
    ).toBe(true);
    // `compare:` adds a field to the conversation.
    const c = matchTurn([{ protocol: "openai", request: { ...req("A"), temperature: 0 } }], new Set(), "openai", { ...req("A"), temperature: 1 }, 1, {
      by: "conversation",
      ignore: [],
      compare: ["temperature"],
    });
    expect(!c.ok && c.detail).toStartWith("turn 1: temperature 1 (recorded 0) (a field `match.compare` names)");
  });
  test("a changed tool result is said in the flow's words, the wire path as a detail line", () => {
    const m = matchTurn([{ protocol: "openai", request: req("KQ311") }], new Set(), "openai", req("BA065"), 3);
    expect(!m.ok && m.detail).toBe(
      "turn 1: book returned book.flight.id BA065 (recorded KQ311)\n  model request 3 (wire): messages.2.content.book.flight.id: recorded KQ311, replayed BA065",
    );
    const model = matchTurn([{ protocol: "openai", request: req("A") }], new Set(), "openai", { ...req("A"), model: "other" }, 1, DEFAULT_MATCH);
    expect(!model.ok && model.detail).toStartWith("turn 1: the agent asked model other (recorded m)");
  });
});
