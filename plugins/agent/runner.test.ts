import { describe, expect, test } from "bun:test";
import { agentEnvironment, callService, injectedEnvironment, spawnAgent } from "./runner.ts";

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

describe("a running agent service", () => {
  test("a scripted conversation POSTs each delivery in turn, after the one before was answered, under one conversation id", async () => {
    const bodies: Record<string, unknown>[] = [];
    let open = 0;
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        open += 1;
        expect(open).toBe(1);
        bodies.push((await req.json()) as Record<string, unknown>);
        await Bun.sleep(50);
        open -= 1;
        return new Response("ok");
      },
    });
    try {
      const exit = await callService(`http://127.0.0.1:${String(server.port)}/run`, {}, "Book KQ311", 10_000, ["Add a window seat"]).exited;
      expect(exit.code).toBe(0);
      expect(bodies).toEqual([
        { prompt: "Book KQ311", conversation: expect.any(String), delivery: 1, deliveries: 2 },
        { prompt: "Add a window seat", conversation: bodies[0]!["conversation"], delivery: 2, deliveries: 2 },
      ]);
      // One delivery: the body is `{"prompt"}` alone, as before.
      bodies.length = 0;
      expect((await callService(`http://127.0.0.1:${String(server.port)}/run`, {}, "Book KQ311", 10_000).exited).code).toBe(0);
      expect(bodies).toEqual([{ prompt: "Book KQ311" }]);
    } finally {
      void server.stop(true);
    }
  });

  test("every delivery is in FLOWPROOF_PROMPTS for a spawned agent, the task first", () => {
    expect(JSON.parse(injectedEnvironment("http://127.0.0.1:1", "task", ["more"])["FLOWPROOF_PROMPTS"]!)).toEqual(["task", "more"]);
    expect(JSON.parse(injectedEnvironment("http://127.0.0.1:1", "task")["FLOWPROOF_PROMPTS"]!)).toEqual(["task"]);
  });
});
