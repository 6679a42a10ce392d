import { describe, expect, test } from "bun:test";
import { startProxy } from "./proxy.ts";

const body = { model: "m", messages: [{ role: "user", content: "hi" }] };
const response = { id: "x", model: "m", choices: [{ index: 0, message: { role: "assistant", content: "hello" }, finish_reason: "stop" }] };

describe("proxy (replay)", () => {
  test("serves a recorded turn once, streams on request, fails fast on an extra call", async () => {
    const failures: string[] = [];
    const proxy = startProxy({ mode: "replay", cassette: [{ protocol: "openai", request: body, response }], results: new Map(), mask: (t) => t, onFailure: (d) => failures.push(d) });
    try {
      expect(proxy.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const post = (b: unknown) => fetch(`${proxy.origin}/v1/chat/completions`, { method: "POST", body: JSON.stringify(b) });
      const streamed = await (await post({ ...body, stream: true })).text();
      expect(streamed).toContain("\"content\":\"hello\"");
      const extra = await post(body);
      expect(extra.status).toBe(400);
      expect(failures).toHaveLength(1);
      expect(failures[0]).toContain("extra model call");
      expect(proxy.requests()).toBe(2);
    } finally {
      proxy.stop();
    }
  });
  test("record masks secret values in what it keeps", async () => {
    const upstream = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json(response) });
    const proxy = startProxy({ mode: "record", upstream: `http://127.0.0.1:${upstream.port}/v1`, key: () => "k", results: new Map(), mask: (t) => t.split("s3cret").join("${TOKEN}") });
    try {
      await fetch(`${proxy.origin}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "use s3cret" }] }) });
      expect(JSON.stringify(proxy.turns)).not.toContain("s3cret");
      expect(JSON.stringify(proxy.turns)).toContain("${TOKEN}");
    } finally {
      proxy.stop();
      upstream.stop(true);
    }
  });
});
