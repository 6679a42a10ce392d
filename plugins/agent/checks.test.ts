import { describe, expect, test } from "bun:test";
import type { AgentCheck, AgentConversation } from "../../src/plugins/api.ts";
import { clauseHolds, conversationOf, firstFailure, partialVerdicts } from "./checks.ts";

const args = { flight: { id: "KQ311" }, passengers: [{ name: "Ada" }], tags: ["x", "y"] };
const conv: AgentConversation = {
  turns: 2,
  calls: [
    { turn: 0, name: "search", arguments: {} },
    { turn: 0, name: "book", arguments: args },
  ],
  reply: "Booked KQ311",
};
const call = (tool: string, where: AgentCheck extends infer C ? (C extends { where: infer W } ? W : never) : never = [], negate = false): AgentCheck => ({
  kind: "tool_call",
  text: tool,
  tool,
  where,
  negate,
});

describe("agent checks", () => {
  test("each matcher, green and red", () => {
    expect(clauseHolds(args, { path: "flight.id", matcher: "equals", value: "KQ311" })).toBe(true);
    expect(clauseHolds(args, { path: "flight.id", matcher: "equals", value: "KQ999" })).toBe(false);
    expect(clauseHolds(args, { path: "passengers.0.name", matcher: "contains", value: "Ad" })).toBe(true);
    expect(clauseHolds(args, { path: "passengers.0.name", matcher: "contains", value: "Bo" })).toBe(false);
    expect(clauseHolds(args, { path: "tags", matcher: "contains", value: "y" })).toBe(true);
    expect(clauseHolds(args, { path: "flight.id", matcher: "matches", value: "^KQ\\d+$" })).toBe(true);
    expect(clauseHolds(args, { path: "flight.id", matcher: "matches", value: "^BA" })).toBe(false);
    expect(clauseHolds(args, { path: "passengers.0", matcher: "exists" })).toBe(true);
    expect(clauseHolds(args, { path: "passengers.1", matcher: "exists" })).toBe(false);
    expect(clauseHolds(args, { path: "seat", matcher: "absent" })).toBe(true);
    expect(clauseHolds(args, { path: "flight", matcher: "absent" })).toBe(false);
  });
  test("ordered subsequence; never; strict; reply", () => {
    expect(firstFailure([call("search"), call("book")], conv, false)).toBeUndefined();
    expect(firstFailure([call("book"), call("search")], conv, false)?.detail).toContain("no such call after call #2");
    expect(firstFailure([call("book", [], true)], conv, false)?.detail).toContain("the agent made it");
    expect(firstFailure([call("book")], conv, true)?.detail).toContain("strict: call #1 search({}) is not asserted");
    expect(firstFailure([call("book", [{ path: "flight.id", matcher: "equals", value: "KQ999" }])], conv, false)?.detail).toContain("flight.id is KQ311");
    // A miss is placed against the nearest call of the same tool; a tool never called has none.
    expect(firstFailure([call("book", [{ path: "flight.id", matcher: "equals", value: "KQ999" }])], conv, false)).toMatchObject({ index: 0, call: 1 });
    expect(firstFailure([call("refund")], conv, false)?.call).toBeUndefined();
    expect(firstFailure([{ kind: "reply", text: "", op: "contains", value: "Cancelled" }], conv, false)?.detail).toContain("the reply was");
  });
  test("the reply is the main thread's last text; a last tool call means no reply", () => {
    const turn = (system: string, response: unknown) => ({
      protocol: "openai",
      request: {
        messages: [
          { role: "system", content: system },
          { role: "user", content: "x" },
        ],
      },
      response,
    });
    const text = (t: string) => ({ choices: [{ message: { content: t } }] });
    expect(conversationOf([turn("main", text("a")), turn("main", text("final")), turn("side", text("side"))]).reply).toBe("final");
    expect(
      conversationOf([turn("main", { choices: [{ message: { tool_calls: [{ id: "c", function: { name: "t", arguments: "{}" } }] } }] })]).reply,
    ).toBeUndefined();
  });
});

describe("tools nothing intercepts", () => {
  test("a tools: result or assert_no_tool_call naming a tool never offered is a warning; MCP namespacing is understood", async () => {
    const { unofferedToolWarnings } = await import("./checks.ts");
    const turns = [
      { protocol: "openai", request: { messages: [], tools: [{ type: "function", function: { name: "mcp__travel__book_flight" } }] }, response: {} },
    ];
    const none = unofferedToolWarnings(
      turns,
      [{ name: "book_flight", result: 1 }],
      [{ kind: "tool_call", text: "", tool: "book_flight", where: [], negate: true }],
    );
    expect(none).toEqual([]);
    const warned = unofferedToolWarnings(
      turns,
      [{ name: "book_fligth", result: 1 }, { name: "declared_only" }],
      [{ kind: "tool_call", text: "", tool: "refund", where: [], negate: true }],
    );
    expect(warned).toHaveLength(2);
    expect(warned[0]).toContain("tools: names tool `book_fligth`, which the agent never offered the model (offered: book_flight)");
    expect(warned[1]).toContain("assert_no_tool_call names tool `refund`");
  });
});

describe("partialVerdicts: a conversation that diverged", () => {
  const conversation = { turns: 1, calls: [{ turn: 0, name: "book_flight", arguments: { flight: { id: "KQ311" } }, result: '{"id":"BA065"}' }] };
  const call = (tool: string, negate = false, value?: string) => ({
    kind: "tool_call" as const,
    text: tool,
    tool,
    negate,
    where: value ? [{ path: "flight.id", matcher: "equals" as const, value }] : [],
  });
  test("a call made passes, a forbidden call made fails; a call not made yet, the reply and calls after an undecided one are skipped", () => {
    const v = partialVerdicts(
      [
        call("book_flight", false, "KQ311"),
        call("book_flight", true),
        call("pay"),
        call("book_flight"),
        { kind: "reply", text: "r", op: "contains", value: "x" },
      ],
      conversation,
      false,
      2,
    );
    expect(v.get(0)).toEqual({ status: "passed", call: 0 });
    expect(v.get(1)).toMatchObject({ status: "failed", call: 0 });
    expect(v.get(1)!.detail).toContain("the agent made it before the divergence");
    expect(v.get(2)).toMatchObject({ status: "skipped" });
    expect(v.get(2)!.detail).toStartWith("not judged: the conversation diverged at turn 2, before any such call");
    expect(v.get(3)).toMatchObject({ status: "skipped" });
    expect(v.get(4)!.detail).toBe("not judged: the conversation diverged at turn 2, before the agent's final reply");
  });
  test("under strict: a pass cannot be decided", () => {
    expect(partialVerdicts([call("book_flight")], conversation, true, 2).get(0)!.status).toBe("skipped");
  });
});
