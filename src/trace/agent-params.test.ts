import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { AgentRunParams, agentRunProblem, isCassetteTurn } from "./agent-params.ts";

const params = (extra: Record<string, unknown> = {}) => ({
  agent: { command: "node agent.js", env: { MODE: "${MODE}" }, timeout_seconds: 60, allow_egress: ["api.example.com:443"] },
  steps: [
    { kind: "prompt", text: "Book a flight to ${CITY}" },
    { kind: "follow_up", text: "follow_up: window seat", message: "window seat" },
    {
      kind: "tool_call",
      text: "assert_tool_call: book where flight.id equals KQ311",
      tool: "book",
      where: [{ path: "flight.id", matcher: "equals", value: "KQ311" }],
      negate: false,
    },
    { kind: "tool_call", text: "assert_no_tool_call: cancel", tool: "cancel", where: [], negate: true },
    { kind: "reply", text: "reply contains booked", op: "contains", value: "booked" },
    { kind: "no_egress", text: "assert_no_egress" },
  ],
  tools: [{ name: "lookup_weather", result: { temp_c: 21 } }, { name: "echo" }],
  mcp: [
    { name: "notes", command: "node notes.js", tools: [{ name: "read" }] },
    { name: "web", url: "http://127.0.0.1:9000/mcp", port: 8931 },
  ],
  timeout_ms: 60_000,
  ...extra,
});

describe("AgentRunParams", () => {
  test("accepts every agent step kind, tools and both kinds of MCP server", () => {
    expect(Value.Check(AgentRunParams, params())).toBe(true);
    expect(agentRunProblem(params())).toBeUndefined();
  });

  test("accepts a running agent service", () => {
    const service = params({ agent: { url: "http://127.0.0.1:8080/run", proxy_port: 4010, headers: { authorization: "Bearer ${TOKEN}" } } });
    expect(Value.Check(AgentRunParams, service)).toBe(true);
  });

  test.each([
    [
      "an agent step of an unknown kind",
      params({ steps: [{ kind: "shout", text: "hi" }] }),
      'agent step 1 of 1 has kind "shout"; expected "prompt", "follow_up", "tool_call", "reply", "no_egress"',
    ],
    [
      "a tool_call step without its tool",
      params({ steps: [{ kind: "tool_call", text: "assert_tool_call: x", where: [], negate: false }] }),
      "agent step 1 of 1 (tool_call) has no `tool`; a tool_call step is {kind: tool_call, text, tool, where: [{path, matcher, value?}], negate}",
    ],
    [
      "a reply step with an unknown op",
      params({ steps: [{ kind: "reply", text: "reply near x", op: "near", value: "x" }] }),
      'agent step 1 of 1 (reply) has a malformed `op` ("near")',
    ],
    ["an agent with neither command nor url", params({ agent: { env: {} } }), "the agent_run step has no `agent` {command, …} or {url, proxy_port, …}"],
  ])("refuses %s, naming the step", (_, value, message) => {
    expect(Value.Check(AgentRunParams, value)).toBe(false);
    expect(agentRunProblem(value)).toContain(message);
  });

  test("refuses an MCP server with neither command nor url", () => {
    expect(Value.Check(AgentRunParams, params({ mcp: [{ name: "notes" }] }))).toBe(false);
  });

  test("isCassetteTurn keeps a recorded turn and refuses one of an unknown dialect", () => {
    expect(isCassetteTurn({ protocol: "openai", request: {}, response: {} })).toBe(true);
    expect(isCassetteTurn({ protocol: "smoke-signals", request: {}, response: {} })).toBe(false);
  });
});
