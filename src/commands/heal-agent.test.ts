import { describe, expect, test } from "bun:test";
import { priorCassettes } from "./heal-agent.ts";
import type { Trace } from "../trace/read.ts";

describe("priorCassettes", () => {
  test("each agent run's recorded cassette by step id; other steps and runs without one are left out", () => {
    const turn = { protocol: "openai", request: { model: "m" }, response: { choices: [] } } as const;
    const agentStep = (id: string, cassette?: readonly unknown[]) => ({
      id,
      intent: "agent",
      action: { type: "agent_run", params: { agent: { command: "a" }, steps: [], timeout_ms: 1000, ...(cassette ? { cassette } : {}) } },
      selectors: [],
      sync: { pre: [], post: [] },
      artifacts: {},
    });
    const trace = {
      path: "t.trace.jsonl",
      header: {
        format: "flowproof-trace",
        version: 1,
        trace_id: "t",
        recorded_at: "2026-01-01T00:00:00Z",
        app: { name: "agent", adapter: "agent" },
        env: { os: "linux", resolution: [1, 1] },
      },
      steps: [
        agentStep("s0001", [turn, turn]),
        { id: "s0002", intent: "x", action: { type: "click", params: {} }, selectors: [], sync: { pre: [], post: [] }, artifacts: {} },
        agentStep("s0003"),
      ],
    } as unknown as Trace;
    const prior = priorCassettes(trace);
    expect([...prior.keys()]).toEqual(["s0001"]);
    expect(prior.get("s0001")).toHaveLength(2);
  });
});
