// The agent execution's pure parts: where record forwards, which key it sends, the checks masked
// as the conversation holds secrets; and an execution that cannot start says why. The whole
// execution against real agents: test/e2e/agent.test.ts.
import { describe, expect, test } from "bun:test";
import type { AgentCheck } from "../../src/plugins/api.ts";
import { keyOf, maskedChecks, runAgent, upstreamOf } from "./execution.ts";

describe("upstreamOf and keyOf", () => {
  test("FLOWPROOF_AGENT_UPSTREAM over OPENAI_BASE_URL; FLOWPROOF_AGENT_KEY over each dialect's own keys", () => {
    expect(upstreamOf({ FLOWPROOF_AGENT_UPSTREAM: "http://a", OPENAI_BASE_URL: "http://b" })).toBe("http://a");
    expect(upstreamOf({ OPENAI_BASE_URL: "http://b" })).toBe("http://b");
    expect(upstreamOf({ FLOWPROOF_AGENT_UPSTREAM: "" })).toBeUndefined();
    expect(keyOf({ FLOWPROOF_AGENT_KEY: "k", OPENAI_API_KEY: "o" })).toBe("k");
    expect(keyOf({ ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "o" })).toBe("a");
    expect(keyOf({ OPENAI_API_KEY: "o", GEMINI_API_KEY: "g" }, "gemini")).toBe("g");
    expect(keyOf({ OPENAI_API_KEY: "o" }, "gemini")).toBeUndefined();
  });
});

describe("maskedChecks", () => {
  test("writes each secret value as ${NAME}, escaped inside a regular expression, and leaves short values alone", () => {
    const checks: AgentCheck[] = [
      { kind: "reply", text: "reply contains", op: "contains", value: "token s3cret-v4lue ok" },
      {
        kind: "tool_call",
        text: "tool call",
        tool: "login",
        negate: false,
        where: [
          { path: "password", matcher: "equals", value: "s3cret-v4lue" },
          { path: "password", matcher: "matches", value: "^s3cret-v4lue$" },
          { path: "pin", matcher: "equals", value: "abc" },
          { path: "x", matcher: "exists" },
        ],
      },
      { kind: "no_egress", text: "no egress" },
    ];
    const masked = maskedChecks(
      checks,
      new Map([
        ["PASSWORD", "s3cret-v4lue"],
        ["PIN", "abc"],
      ]),
    );
    expect(masked[0]).toMatchObject({ value: "token ${PASSWORD} ok" });
    expect(masked[1]).toMatchObject({
      where: [{ value: "${PASSWORD}" }, { value: "^\\$\\{PASSWORD\\}$" }, { value: "abc" }, { path: "x", matcher: "exists" }],
    });
    expect(masked[2]).toEqual(checks[2]!);
  });
});

describe("runAgent", () => {
  test("a recording with no upstream model errors before starting anything, naming the variables to set", async () => {
    const lines: string[] = [];
    const outcome = await runAgent({
      mode: "record",
      agent: { command: "true" },
      prompt: "hello",
      checks: [],
      tools: [],
      strict: false,
      timeoutMs: 5_000,
      baseDir: process.cwd(),
      env: {},
      secrets: new Map(),
      log: (l) => lines.push(l),
    });
    expect(outcome.status).toBe("errored");
    expect(outcome.detail).toContain("set FLOWPROOF_AGENT_UPSTREAM");
    expect(lines.some((l) => l.startsWith("containment: "))).toBe(true);
  });
});
