import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createModelClient, redactKey, resolveProvider, ModelRequestError } from "./provider.ts";
import { SpecError } from "../diagnostics/diagnostic.ts";

let server: ReturnType<typeof Bun.serve>;
let bodies: string[] = [];
beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body = await req.text();
      bodies.push(body);
      const path = new URL(req.url).pathname;
      if (path === "/anthropic/v1/messages") {
        if (req.headers.get("x-api-key") !== "ak-123456") return new Response(JSON.stringify({ error: "bad key ak-123456" }), { status: 403 });
        return Response.json({ content: [{ type: "text", text: '[{"action":"press_key","key":"Enter"}]' }], stop_reason: "end_turn" });
      }
      if (path === "/slow/chat/completions") {
        await Bun.sleep(2000);
        return new Response("late");
      }
      if (path === "/v1/chat/completions")
        return Response.json({ choices: [{ index: 0, message: { role: "assistant", content: "hello" }, finish_reason: "stop" }] });
      return new Response(JSON.stringify({ error: { message: "denied for sk-secret-9999" } }), {
        status: 401,
        headers: { "content-type": "application/json" },
      });
    },
  });
});
afterAll(() => server.stop(true));
const base = () => `http://127.0.0.1:${server.port}`;

describe("resolveProvider", () => {
  test("nothing set means no model (auto falls back with a warning)", () => {
    expect(resolveProvider({})).toEqual({ configured: false });
  });
  test("an OpenAI-compatible endpoint from FLOWPROOF_AI_* with the OPENAI_* fallbacks", () => {
    expect(resolveProvider({ FLOWPROOF_AI_BASE_URL: "http://127.0.0.1:8000/v1/", FLOWPROOF_AI_MODEL: "llama" })).toEqual({
      configured: true,
      config: { backend: "openai-compatible", baseUrl: "http://127.0.0.1:8000/v1", model: "llama", timeoutMs: 180_000 },
    });
    const r = resolveProvider({ OPENAI_API_KEY: "sk-1" });
    expect(r.configured && r.config).toMatchObject({ backend: "openai-compatible", baseUrl: "https://api.openai.com/v1", apiKey: "sk-1" });
  });
  test("Anthropic as the second provider", () => {
    const r = resolveProvider({ FLOWPROOF_AI_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "ak" });
    expect(r.configured && r.config).toMatchObject({ backend: "anthropic", baseUrl: "https://api.anthropic.com", apiKey: "ak" });
  });
  test.each([
    [{ FLOWPROOF_AI_PROVIDER: "antropic" }, "FLOWPROOF_AI_PROVIDER must be"],
    [{ FLOWPROOF_AI_PROVIDER: "anthropic" }, "needs an API key"],
    [{ FLOWPROOF_AI_BASE_URL: "localhost:8000" }, "must be an http(s) URL"],
    [{ FLOWPROOF_AI_BASE_URL: "http://127.0.0.1:8000/v1" }, "FLOWPROOF_AI_MODEL is not set"],
    [{ FLOWPROOF_AI_MODEL: "m" }, "needs an endpoint"],
    [{ FLOWPROOF_AI_MODEL: "m", FLOWPROOF_AI_BASE_URL: "http://x/v1", FLOWPROOF_AI_TIMEOUT_MS: "soon" }, "FLOWPROOF_AI_TIMEOUT_MS"],
    [{ FLOWPROOF_AI_MODEL: "m", FLOWPROOF_AI_BASE_URL: "http://x/v1", FLOWPROOF_AI_TIMEOUT_MS: "2200000000" }, "longest bound flowproof can wait"],
  ])("a misconfiguration is an error, never a fallback: %o", (env, message) => {
    expect(() => resolveProvider(env)).toThrow(SpecError);
    expect(() => resolveProvider(env)).toThrow(message);
  });
});

describe("createModelClient", () => {
  test("calls an OpenAI-compatible /chat/completions with the system prompt first", async () => {
    bodies = [];
    const client = createModelClient({ backend: "openai-compatible", baseUrl: `${base()}/v1`, model: "m", timeoutMs: 5000 });
    expect(await client.complete("SYS", [{ role: "user", content: "STEP: x" }])).toBe("hello");
    const sent = JSON.parse(bodies[0]!) as { model: string; messages: Array<{ role: string; content: string }> };
    expect(sent.model).toBe("m");
    expect(sent.messages.map((m) => m.role)).toEqual(["system", "user"]);
  });
  test("quotes a non-2xx body with the key redacted", async () => {
    const client = createModelClient({ backend: "openai-compatible", baseUrl: `${base()}/denied`, model: "m", apiKey: "sk-secret-9999", timeoutMs: 5000 });
    const error = await client.complete("S", [{ role: "user", content: "u" }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelRequestError);
    expect((error as Error).message).toContain("answered HTTP 401");
    expect((error as Error).message).toContain("denied for [redacted]");
    expect((error as Error).message).not.toContain("sk-secret-9999");
  });
  test("times out", async () => {
    const client = createModelClient({ backend: "openai-compatible", baseUrl: `${base()}/slow`, model: "m", timeoutMs: 200 });
    await expect(client.complete("S", [{ role: "user", content: "u" }])).rejects.toThrow(/did not answer within 200 ms|could not be reached/);
  });
  test("speaks Anthropic's Messages API and reads the first text block", async () => {
    const client = createModelClient({ backend: "anthropic", baseUrl: `${base()}/anthropic`, model: "claude", apiKey: "ak-123456", timeoutMs: 5000 });
    expect(await client.complete("S", [{ role: "user", content: "u" }])).toContain("press_key");
    const bad = createModelClient({ backend: "anthropic", baseUrl: `${base()}/anthropic`, model: "claude", apiKey: "ak-wrong-key", timeoutMs: 5000 });
    await expect(bad.complete("S", [{ role: "user", content: "u" }])).rejects.toThrow("answered HTTP 403");
  });
  test("redactKey leaves short keys alone and replaces every occurrence", () => {
    expect(redactKey("a sk-1234 b sk-1234", "sk-1234")).toBe("a [redacted] b [redacted]");
    expect(redactKey("abc", "ab")).toBe("abc");
  });
});
