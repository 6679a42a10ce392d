import { describe, expect, test } from "bun:test";
import type { AgentStepRef } from "../../src/plugins/api.ts";
import { agentLines, deliveryCount } from "./lines.ts";

const refs: AgentStepRef[] = [
  { kind: "prompt", intent: "prompt: Book KQ311" },
  { kind: "check", intent: "assert_tool_call: book_flight", check: 0 },
  { kind: "follow_up", intent: "follow_up: Add a window seat" },
  { kind: "check", intent: "assert: reply contains 14A", check: 1 },
];

describe("agent report lines", () => {
  test("a passing execution: every delivery and assertion passed, one line each, in authored order", () => {
    expect(deliveryCount(refs)).toBe(2);
    const lines = agentLines(
      refs,
      undefined,
      new Map([
        [0, { status: "passed" }],
        [1, { status: "passed" }],
      ]),
    );
    expect(lines.map((l) => [l.intent, l.status])).toEqual([
      ["prompt: Book KQ311", "passed"],
      ["assert_tool_call: book_flight", "passed"],
      ["follow_up: Add a window seat", "passed"],
      ["assert: reply contains 14A", "passed"],
    ]);
  });

  test("a divergence is the line of the delivery it happened in; later deliveries were not made, no assertion was judged", () => {
    const lines = agentLines(refs, { status: "failed", detail: "model request 3 diverges from recorded turn 3", delivery: 2 }, new Map());
    expect(lines.map((l) => l.status)).toEqual(["passed", "skipped", "failed", "skipped"]);
    expect(lines[2]!.detail).toBe("model request 3 diverges from recorded turn 3");
    expect(lines[3]!.detail).toBe("not judged: the conversation did not complete");
    const early = agentLines(refs, { status: "errored", detail: "the upstream model failed", delivery: 1 }, new Map());
    expect(early.map((l) => l.status)).toEqual(["errored", "skipped", "skipped", "skipped"]);
    expect(early[2]!.detail).toBe("not delivered: the conversation failed before it");
  });

  test("a failed assertion is its own line; the ones after it were not judged", () => {
    const lines = agentLines(refs, undefined, new Map([[0, { status: "failed", detail: "no such call" }]]));
    expect(lines.map((l) => l.status)).toEqual(["passed", "failed", "passed", "skipped"]);
    expect(lines[3]!.detail).toBe("not judged: an earlier assertion failed");
  });

  test("several prompt: lines are one task: a failure of it is reported once", () => {
    const two: AgentStepRef[] = [
      { kind: "prompt", intent: "prompt: a" },
      { kind: "prompt", intent: "prompt: b" },
    ];
    expect(agentLines(two, { status: "failed", detail: "x", delivery: 1 }, new Map()).map((l) => l.status)).toEqual(["failed", "skipped"]);
  });
});
