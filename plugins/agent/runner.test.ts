import { describe, expect, test } from "bun:test";
import { agentEnvironment, injectedEnvironment, spawnAgent } from "./runner.ts";

describe("runner", () => {
  test("reports the exit code and stderr tail", async () => {
    const exit = await spawnAgent("echo broken >&2; exit 3", "/tmp", { PATH: process.env["PATH"] ?? "" }, 10_000).exited;
    expect(exit.code).toBe(3);
    expect(exit.stderrTail).toBe("broken");
  });
  test("a bounded agent is stopped with its children", async () => {
    const started = Date.now();
    const exit = await spawnAgent("sleep 30 & sleep 30", "/tmp", { PATH: process.env["PATH"] ?? "" }, 300).exited;
    expect(exit.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
  test("agent.env is applied last; the record key never reaches the agent", () => {
    const env = agentEnvironment({ FLOWPROOF_AGENT_KEY: "k", HOME: "/h" }, injectedEnvironment("http://127.0.0.1:1", "task"), { OPENAI_BASE_URL: "mine" });
    expect(env["FLOWPROOF_AGENT_KEY"]).toBeUndefined();
    expect(env["OPENAI_BASE_URL"]).toBe("mine");
    expect(env["ANTHROPIC_BASE_URL"]).toBe("http://127.0.0.1:1");
    expect(env["FLOWPROOF_PROMPT"]).toBe("task");
  });
});
