import { describe, expect, test } from "bun:test";
import { fieldDiff, jsonEqual, matchTurn } from "./matcher.ts";

const req = (flight: string) => ({ model: "m", messages: [{ role: "user", content: "go" }, { role: "tool", tool_call_id: "c1", content: JSON.stringify({ book: { flight: { id: flight } } }) }] });

describe("matcher", () => {
  test("JSON equality ignores key order", () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: "1" })).toBe(false);
  });
  test("a field inside a JSON string is diffed by its path", () => {
    expect(fieldDiff(req("KQ311"), req("KQ999"))).toEqual(["messages.1.content.book.flight.id: recorded KQ311, replayed KQ999"]);
  });
  test("earliest unconsumed equal turn wins; each turn once; an extra call fails", () => {
    const turns = [{ protocol: "openai", request: req("A") }, { protocol: "openai", request: req("A") }];
    expect(matchTurn(turns, new Set(), "openai", req("A"), 1)).toEqual({ ok: true, index: 0 });
    expect(matchTurn(turns, new Set([0]), "openai", req("A"), 2)).toEqual({ ok: true, index: 1 });
    const extra = matchTurn(turns, new Set([0, 1]), "openai", req("A"), 3);
    expect(extra.ok).toBe(false);
    expect(!extra.ok && extra.detail).toContain("extra model call");
  });
  test("the envelope is reported before the body diff", () => {
    const m = matchTurn([{ protocol: "openai", request: req("A") }], new Set(), "openai", { ...req("A"), model: "other" }, 1);
    expect(!m.ok && m.detail).toMatch(/envelope model: recorded m, replayed other; model: recorded m, replayed other/);
  });
});
