import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { probeAgent } from "./doctor.ts";

const AGENT = join(import.meta.dir, "..", "..", "test", "fixtures", "agents", "openai-agent.mjs");
const env = { PATH: process.env["PATH"] ?? "" };

describe("doctor probe", () => {
  test("a wired agent reaches the proxy: dialect, path and model are reported, no advice", async () => {
    const r = await probeAgent(`${process.execPath} ${AGENT}`, "/tmp", env, 30_000);
    expect(r).toMatchObject({ reached: true, protocol: "openai", path: "/v1/chat/completions", model: "gpt-test", advice: [] });
  });
  test("an agent with a base URL of its own never reaches it: the advice says what to wire", async () => {
    const r = await probeAgent(`OPENAI_BASE_URL=http://127.0.0.1:9/v1 ${process.execPath} ${AGENT}`, "/tmp", env, 30_000);
    expect(r.reached).toBe(false);
    expect(r.exitCode).not.toBe(0);
    expect(r.advice.join("\n")).toContain("OPENAI_BASE_URL");
    expect(r.advice.join("\n")).toContain("FLOWPROOF_PROMPT");
  });
  test("a streaming Gemini call is named streamGenerateContent", async () => {
    const script = "await fetch(process.env.GOOGLE_GEMINI_BASE_URL + '/v1beta/models/g:streamGenerateContent?alt=sse', {method: 'POST', body: '{}'})";
    const r = await probeAgent(`${process.execPath} -e "${script}"`, "/tmp", env, 30_000);
    expect(r).toMatchObject({
      reached: true,
      protocol: "gemini",
      dialect: "Google Gemini streamGenerateContent",
      path: "/v1beta/models/g:streamGenerateContent",
    });
  });
});
