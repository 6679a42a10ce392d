import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { doctor } from "./doctor.ts";

const AGENT = join(import.meta.dir, "..", "..", "test", "fixtures", "agents", "anthropic-agent.mjs");

describe("doctor", () => {
  test("an Anthropic-dialect agent is seen reaching the proxy", async () => {
    const r = await doctor({ agent: `${process.execPath} ${AGENT}`, env: { PATH: process.env["PATH"] ?? "" }, timeoutSeconds: 30 });
    expect(r).toMatchObject({ reached: true, protocol: "anthropic", path: "/v1/messages", model: "claude-test" });
  });
  test("an agent that waits forever is stopped at the bound and told where to read its task", async () => {
    const r = await doctor({ agent: "sleep 30", env: { PATH: process.env["PATH"] ?? "" }, timeoutSeconds: 1 });
    expect(r.reached).toBe(false);
    expect(r.timedOut).toBe(true);
    expect(r.advice[0]).toContain("without a model request");
  });
});
