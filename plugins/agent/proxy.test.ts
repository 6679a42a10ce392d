import { describe, expect, test } from "bun:test";
import { createServer } from "node:net";
import { startProxy } from "./proxy.ts";

const body = { model: "m", messages: [{ role: "user", content: "hi" }] };
const response = { id: "x", model: "m", choices: [{ index: 0, message: { role: "assistant", content: "hello" }, finish_reason: "stop" }] };

describe("proxy (replay)", () => {
  test("serves a recorded turn once, streams on request, fails fast on an extra call", async () => {
    const failures: string[] = [];
    const proxy = startProxy({
      mode: "replay",
      cassette: [{ protocol: "openai", request: body, response }],
      results: new Map(),
      mask: (t) => t,
      onFailure: (d) => failures.push(d),
    });
    try {
      expect(proxy.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const post = (b: unknown) => fetch(`${proxy.origin}/v1/chat/completions`, { method: "POST", body: JSON.stringify(b) });
      const streamed = await (await post({ ...body, stream: true })).text();
      expect(streamed).toContain('"content":"hello"');
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
    const proxy = startProxy({
      mode: "record",
      upstream: `http://127.0.0.1:${upstream.port}/v1`,
      key: () => "k",
      results: new Map(),
      mask: (t) => t.split("s3cret").join("${TOKEN}"),
    });
    try {
      await fetch(`${proxy.origin}/v1/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "use s3cret" }] }),
      });
      expect(JSON.stringify(proxy.turns)).not.toContain("s3cret");
      expect(JSON.stringify(proxy.turns)).toContain("${TOKEN}");
    } finally {
      proxy.stop();
      upstream.stop(true);
    }
  });
});

describe("proxy (record under heal)", () => {
  test("serves the recorded turns while requests match them, then records every request from the first that does not", async () => {
    let asked = 0;
    const live = { ...response, choices: [{ index: 0, message: { role: "assistant", content: "live" }, finish_reason: "stop" }] };
    const upstream = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => {
        asked += 1;
        return Response.json(live);
      },
    });
    const second = { model: "m", messages: [{ role: "user", content: "again" }] };
    const proxy = startProxy({
      mode: "record",
      upstream: `http://127.0.0.1:${upstream.port}/v1`,
      key: () => "k",
      results: new Map(),
      mask: (t) => t,
      healFrom: [
        { protocol: "openai", request: body, response },
        { protocol: "openai", request: second, response },
      ],
    });
    try {
      const post = async (b: unknown) =>
        (await (await fetch(`${proxy.origin}/v1/chat/completions`, { method: "POST", body: JSON.stringify(b) })).json()) as typeof response;
      // An added field is not part of the conversation: still the recorded turn.
      expect((await post({ ...body, store: false })).choices[0]!.message.content).toBe("hello");
      expect(asked).toBe(0);
      expect((await post({ model: "m", messages: [{ role: "user", content: "changed" }] })).choices[0]!.message.content).toBe("live");
      // Once diverged, even a request equal to a recorded one is asked live.
      expect((await post(second)).choices[0]!.message.content).toBe("live");
      expect(asked).toBe(2);
      expect(proxy.kept()).toBe(1);
      expect(proxy.turns.map((t) => (t.request as { store?: unknown }).store)).toEqual([false, undefined, undefined]);
    } finally {
      proxy.stop();
      upstream.stop(true);
    }
  });
});

describe("proxy (record): upstream faults", () => {
  test("an upstream that closes mid-body is named as the failure (502 in the client's dialect), not thrown", async () => {
    // Headers promise 1000 bytes; 20 arrive, then the connection is reset.
    const upstream = createServer((socket) => {
      socket.once("data", () => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"id":"chatcmpl-1","cho');
        setTimeout(() => socket.resetAndDestroy(), 50);
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", () => resolve()));
    const port = (upstream.address() as { port: number }).port;
    const failures: string[] = [];
    const proxy = startProxy({
      mode: "record",
      upstream: `http://127.0.0.1:${port}/v1`,
      key: () => "k",
      results: new Map(),
      mask: (t) => t,
      onFailure: (d) => failures.push(d),
    });
    try {
      const res = await fetch(`${proxy.origin}/v1/chat/completions`, { method: "POST", body: JSON.stringify(body) });
      expect(res.status).toBe(502);
      const answer = (await res.json()) as { error: { message: string } };
      expect(answer.error.message).toContain(`the upstream model (http://127.0.0.1:${port}/v1) failed while sending its answer to model request 1`);
      expect(proxy.failureInfo()).toMatchObject({ kind: "upstream", request: 1 });
      expect(failures).toHaveLength(1);
      expect(proxy.turns).toEqual([]);
    } finally {
      proxy.stop();
      upstream.close();
    }
  });

  test("an upstream that resets before answering names the model request and the upstream, not the runtime's fetch options", async () => {
    const upstream = createServer((socket) => {
      socket.once("data", () => socket.resetAndDestroy());
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", () => resolve()));
    const port = (upstream.address() as { port: number }).port;
    const proxy = startProxy({ mode: "record", upstream: `http://127.0.0.1:${port}/v1`, key: () => "k", results: new Map(), mask: (t) => t });
    try {
      const res = await fetch(`${proxy.origin}/v1/chat/completions`, { method: "POST", body: JSON.stringify(body) });
      expect(res.status).toBe(502);
      const detail = proxy.failure() ?? "";
      expect(detail).toStartWith(`the upstream model (http://127.0.0.1:${port}/v1) reset the connection during model request 1 (`);
      expect(detail).toContain("nothing was recorded for it");
      expect(detail).not.toContain("verbose");
    } finally {
      proxy.stop();
      upstream.close();
    }
  });

  test("a request on an endpoint flowproof does not serve fails the execution, naming the method and path", async () => {
    const proxy = startProxy({ mode: "replay", cassette: [], results: new Map(), mask: (t) => t });
    try {
      const res = await fetch(`${proxy.origin}/v1/embeddings`, { method: "POST", body: "{}" });
      expect(res.status).toBe(404);
      expect(proxy.failureInfo()).toMatchObject({ kind: "unserved" });
      expect(proxy.failure()).toContain(
        "the agent sent POST /v1/embeddings to flowproof's model proxy, which serves POST …/chat/completions, POST …/responses",
      );
      expect(proxy.requests()).toBe(0);
    } finally {
      proxy.stop();
    }
  });
});
