import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentToolCall, McpLane } from "../../src/plugins/api.ts";
import { envNameOf, laneDivergence, loadMcpFraming, messagesOf, relayCommand, REPLAY_SESSION_ID, startLane, type Lane, type LaneOptions } from "./mcp.ts";

// A stdio lane frames its messages with the SDK, loaded on first use.
beforeAll(() => loadMcpFraming());

const lanes: Lane[] = [];
afterEach(() => {
  for (const l of lanes.splice(0)) l.stop();
});

const RECORDED: McpLane = {
  calls: [
    {
      method: "initialize",
      params: { protocolVersion: "2025-06-18", clientInfo: { name: "a", version: "1" }, capabilities: {} },
      result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "notes", version: "1" } },
    },
    { method: "tools/call", params: { name: "read_note", arguments: { id: "n1" } }, result: { content: [{ type: "text", text: "Gate 14" }] } },
  ],
  events: [{ after: 1, method: "notifications/message", params: { level: "info", data: "ready" } }],
};

function lane(options: Partial<LaneOptions> = {}): { lane: Lane; failures: string[]; calls: AgentToolCall[] } {
  const failures: string[] = [];
  const calls: AgentToolCall[] = [];
  const l = startLane({
    mode: "replay",
    server: { name: "notes", url: "http://127.0.0.1:1/mcp" },
    recorded: RECORDED,
    mask: (t) => t,
    modelTurns: () => 1,
    toolCalls: calls,
    onFailure: (d) => failures.push(d),
    cwd: tmpdir(),
    env: {},
    ...options,
  });
  lanes.push(l);
  return { lane: l, failures, calls };
}

const post = (url: string, body: unknown, accept = "application/json, text/event-stream") =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", accept }, body: JSON.stringify(body) });

describe("wiring", () => {
  test("variable names follow the server's name and kind", () => {
    expect(envNameOf({ name: "notes-2", command: "x" })).toBe("FLOWPROOF_MCP_SERVER_NOTES_2");
    expect(envNameOf({ name: "files", url: "http://h/mcp" })).toBe("FLOWPROOF_MCP_URL_FILES");
  });

  test("the stdio command line runs flowproof's hidden mcp-lane command", () => {
    expect(relayCommand("http://127.0.0.1:4/mcp")).toBe(
      `${process.execPath} ${join(import.meta.dir, "..", "..", "src", "cli", "main.ts")} mcp-lane http://127.0.0.1:4/mcp`,
    );
  });
});

describe("messagesOf", () => {
  test("reads SSE data frames, a single JSON message and an empty body", () => {
    expect(messagesOf("text/event-stream", 'event: message\ndata: {"a":1}\n\nid: 2\ndata: {"b":\ndata: 2}\n\n')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(messagesOf("application/json", '{"id":1}')).toEqual([{ id: 1 }]);
    expect(messagesOf("application/json", "")).toEqual([]);
  });
});

describe("laneDivergence", () => {
  const call = RECORDED.calls[1]!;
  test("method, then tool name, then argument fields; client info and _meta ignored", () => {
    expect(laneDivergence("notes", 2, call, "resources/read", {})).toBe("MCP server `notes` call 2: recorded `tools/call`, replayed `resources/read`");
    expect(laneDivergence("notes", 2, call, "tools/call", { name: "write_note", arguments: {} })).toContain("recorded tool `read_note`, replayed `write_note`");
    expect(laneDivergence("notes", 2, call, "tools/call", { name: "read_note", arguments: { id: "n2" } })).toBe(
      "MCP server `notes` call 2 (tools/call `read_note`): arguments.id: recorded n1, replayed n2",
    );
    expect(laneDivergence("notes", 2, call, "tools/call", { name: "read_note", arguments: { id: "n1" }, _meta: { progressToken: 4 } })).toBeUndefined();
    expect(laneDivergence("notes", 1, RECORDED.calls[0]!, "initialize", { protocolVersion: "2025-06-18", clientInfo: { name: "other" } })).toBeUndefined();
    expect(laneDivergence("notes", 1, RECORDED.calls[0]!, "initialize", { protocolVersion: "2024-11-05" })).toContain(
      "recorded protocolVersion 2025-06-18, replayed 2024-11-05",
    );
  });
});

describe("a replaying stand-in", () => {
  test("answers by position with the client's ids, re-emits notifications after their anchor, and lists tool calls", async () => {
    const { lane: l, failures, calls } = lane();
    const init = await post(l.url, {
      jsonrpc: "2.0",
      id: 7,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", clientInfo: { name: "b" }, capabilities: {} },
    });
    expect(init.headers.get("mcp-session-id")).toBe(REPLAY_SESSION_ID);
    expect(init.headers.get("content-type")).toContain("text/event-stream");
    expect(messagesOf("text/event-stream", await init.text())).toEqual([
      { jsonrpc: "2.0", id: 7, result: RECORDED.calls[0]!.result },
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "ready" } },
    ]);
    expect((await post(l.url, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
    const answer = await post(
      l.url,
      { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "read_note", arguments: { id: "n1" } } },
      "application/json",
    );
    expect(await answer.json()).toEqual({ jsonrpc: "2.0", id: 8, result: RECORDED.calls[1]!.result });
    expect(failures).toEqual([]);
    expect(calls).toEqual([{ turn: 0, server: "notes", name: "notes.read_note", arguments: { id: "n1" }, result: "Gate 14" }]);
    expect(l.unasked()).toBe(0);
  });

  test("with a standalone stream open, a client reading SSE answers still gets each notification inline after its anchor call", async () => {
    const { lane: l } = lane();
    const standalone = await fetch(l.url);
    const init = await post(l.url, { jsonrpc: "2.0", id: 7, method: "initialize", params: { protocolVersion: "2025-06-18" } });
    expect(messagesOf("text/event-stream", await init.text())).toEqual([
      { jsonrpc: "2.0", id: 7, result: RECORDED.calls[0]!.result },
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "ready" } },
    ]);
    await standalone.body?.cancel();
  });

  test("a batch is refused with 400; a second standalone stream with 409; the legacy SSE path with 404", async () => {
    const { lane: l, failures } = lane();
    expect((await post(l.url, [{ jsonrpc: "2.0", id: 1, method: "ping" }])).status).toBe(400);
    expect(failures[0]).toContain("JSON-RPC batch");
    const first = await fetch(l.url);
    expect(first.status).toBe(200);
    expect((await fetch(l.url)).status).toBe(409);
    await first.body?.cancel();
    expect((await fetch(l.url.replace("/mcp", "/sse"))).status).toBe(404);
  });

  test("an extra call fails, answered with a JSON-RPC error", async () => {
    const { lane: l, failures } = lane({ recorded: { calls: [], events: [] } });
    const res = await post(l.url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, "application/json");
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("extra MCP call");
    expect(failures).toEqual(["extra MCP call: MCP server `notes` call 1 (`tools/list`) has no recorded call left (the lane holds 0)"]);
  });
});

describe("a recording stand-in", () => {
  test("a server-initiated request mid-record fails loudly", async () => {
    const dir = mkdtempSync(join(tmpdir(), "flowproof-mcp-"));
    try {
      // A stdio server that answers by asking the client for a sampling.
      writeFileSync(
        join(dir, "server.js"),
        `process.stdin.on("data", (d) => { const m = JSON.parse(String(d).trim()); process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: "s1", method: "sampling/createMessage", params: {} }) + "\\n"); process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: {} }) + "\\n"); });`,
      );
      const { lane: l, failures } = lane({
        mode: "record",
        server: { name: "notes", command: `${process.execPath} server.js` },
        cwd: dir,
        env: { PATH: process.env["PATH"] ?? "" },
      });
      const res = await post(l.url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18" } });
      expect(res.status).toBe(200);
      expect(failures[0]).toContain(
        "sent a `sampling/createMessage` request mid-record: server-initiated requests (sampling, elicitation, roots) are not supported",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a notification the server sends inside a call's SSE answer stays inline ahead of that answer, even with a standalone stream open", async () => {
    // A streamable-HTTP server that answers every call with a log notification, then the answer, as SSE.
    const upstream = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        const m = (await req.json()) as { id: number };
        const frames = [
          { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "reading n1" } },
          { jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "Gate 14" }] } },
        ];
        return new Response(frames.map((f) => `event: message\ndata: ${JSON.stringify(f)}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } });
      },
    });
    try {
      const { lane: l, failures } = lane({ mode: "record", server: { name: "notes", url: `http://127.0.0.1:${String(upstream.port)}/mcp` } });
      const standalone = await fetch(l.url);
      expect(standalone.status).toBe(200);
      const res = await post(l.url, { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "read_note", arguments: { id: "n1" } } });
      expect(messagesOf(res.headers.get("content-type") ?? "", await res.text())).toEqual([
        { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "reading n1" } },
        { jsonrpc: "2.0", id: 4, result: { content: [{ type: "text", text: "Gate 14" }] } },
      ]);
      expect(l.lane.events).toEqual([{ after: 0, method: "notifications/message", params: { level: "info", data: "reading n1" } }]);
      expect(failures).toEqual([]);
      await standalone.body?.cancel();
    } finally {
      void upstream.stop(true);
    }
  });

  test("records calls with masked secrets and a mocked tool never forwarded", async () => {
    const { lane: l } = lane({
      mode: "record",
      server: { name: "notes", url: "http://127.0.0.1:1/mcp", tools: [{ name: "read_note", result: { text: "mocked" } }] },
      mask: (t) => t.split("s3cret").join("${TOKEN}"),
    });
    const res = await post(
      l.url,
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "read_note", arguments: { token: "s3cret" } } },
      "application/json",
    );
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: '{"text":"mocked"}' }] } });
    expect(l.lane.calls).toEqual([
      {
        method: "tools/call",
        params: { name: "read_note", arguments: { token: "${TOKEN}" } },
        result: { content: [{ type: "text", text: '{"text":"mocked"}' }] },
      },
    ]);
  });
});
