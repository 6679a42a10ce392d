// The MCP boundary of an agent flow (`mcp:`): one stand-in per declared server, a loopback
// streamable-HTTP listener (127.0.0.1, any path containing `/mcp`) built on the MCP SDK's
// JSON-RPC types and stdio framing. A stdio server is reached through flowproof itself: the
// command in FLOWPROOF_MCP_SERVER_<NAME> is `flowproof mcp-lane <url>`, which relays its stdin
// and stdout to the listener. At record the stand-in forwards each client message to the real
// server (a stdio child it spawns, or the server's URL, Authorization and Mcp-Session-Id passed
// through and not stored) and keeps the lane: every client call with its answer, every server
// notification anchored after the calls answered so far. At replay it answers from the lane with
// no process and no network client, matching each call strictly by position.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
// The SDK's stdio framing loads on first use (loadMcpFraming), not at every command's start-up.
type StdioFraming = typeof import("@modelcontextprotocol/sdk/shared/stdio.js");
let framing: StdioFraming | undefined;

/** Loads the MCP SDK's stdio framing; a stdio lane needs it before it starts. */
export async function loadMcpFraming(): Promise<StdioFraming> {
  framing ??= await import("@modelcontextprotocol/sdk/shared/stdio.js");
  return framing;
}

function loadedFraming(): StdioFraming {
  // A plain Error on purpose: every caller loads the framing first, so this is a flowproof bug.
  if (!framing) throw new Error("the MCP stdio framing was not loaded: call loadMcpFraming() before starting a stdio lane");
  return framing;
}
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { AgentMcpServer, AgentToolCall, McpLane } from "../../src/plugins/api.ts";
import { FlowproofError, guardGroup } from "../../src/plugins/api.ts";

type McpLaneCall = McpLane["calls"][number];
type McpLaneEvent = McpLane["events"][number];
import { fieldDiff, jsonEqual } from "./matcher.ts";

type Json = Record<string, unknown>;
type Message = Json;

/** The session id every replayed streamable-HTTP answer carries. */
export const REPLAY_SESSION_ID = "flowproof-replay";

/** `files-2` → `FILES_2`: the suffix of the variables that wire an agent to a server. */
export const envSuffix = (name: string): string => name.toUpperCase().replace(/[^A-Z0-9]/g, "_");

/** The variable an agent reads to reach `server`: FLOWPROOF_MCP_SERVER_<NAME> (stdio) or FLOWPROOF_MCP_URL_<NAME>. */
export const envNameOf = (server: AgentMcpServer): string =>
  `${server.command !== undefined ? "FLOWPROOF_MCP_SERVER_" : "FLOWPROOF_MCP_URL_"}${envSuffix(server.name)}`;

/** The command line that runs flowproof as the stdio server the agent spawns, relaying to `url`. */
export function relayCommand(url: string): string {
  const main = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
  // A compiled flowproof is its own entry point; from source, Bun runs the CLI module.
  const words = import.meta.url.includes("$bunfs") ? [process.execPath, "mcp-lane", url] : [process.execPath, main, "mcp-lane", url];
  return words.map((w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(" ");
}

const isRequest = (m: Message): boolean => typeof m["method"] === "string" && m["id"] !== undefined;
const isNotification = (m: Message): boolean => typeof m["method"] === "string" && m["id"] === undefined;
const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

/** The messages of a streamable-HTTP answer: one JSON message (or a list), or SSE `data:` frames. */
export function messagesOf(contentType: string, text: string): Message[] {
  if (contentType.includes("text/event-stream")) {
    const out: Message[] = [];
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).replace(/^ /, ""))
        .join("\n");
      if (data.trim() !== "") out.push(JSON.parse(data) as Message);
    }
    return out;
  }
  if (text.trim() === "") return [];
  const parsed = JSON.parse(text) as unknown;
  return Array.isArray(parsed) ? (parsed as Message[]) : [parsed as Message];
}

/** The text a tool result carries (its text content blocks), else its JSON. */
function resultText(result: unknown): string {
  const content = obj(result)["content"];
  if (Array.isArray(content)) {
    const texts = content
      .map(obj)
      .filter((b) => b["type"] === "text" && typeof b["text"] === "string")
      .map((b) => b["text"] as string);
    if (texts.length > 0) return texts.join("\n");
  }
  return JSON.stringify(result);
}

/** Why replayed call `ordinal` is not the recorded one: method, then tool name, then argument fields; undefined when it matches. */
export function laneDivergence(server: string, ordinal: number, recorded: McpLaneCall, method: string, params: unknown): string | undefined {
  const at = `MCP server \`${server}\` call ${ordinal}`;
  if (recorded.method !== method) return `${at}: recorded \`${recorded.method}\`, replayed \`${method}\``;
  const r = obj(recorded.params);
  const p = obj(params);
  if (method === "initialize") {
    return r["protocolVersion"] === p["protocolVersion"]
      ? undefined
      : `${at} (initialize): recorded protocolVersion ${String(r["protocolVersion"])}, replayed ${String(p["protocolVersion"])}`;
  }
  if (method === "tools/call") {
    if (r["name"] !== p["name"]) return `${at} (tools/call): recorded tool \`${String(r["name"])}\`, replayed \`${String(p["name"])}\``;
    const diff = fieldDiff(r["arguments"] ?? {}, p["arguments"] ?? {}, 5, "arguments");
    return diff.length === 0 ? undefined : `${at} (tools/call \`${String(p["name"])}\`): ${diff.join("; ")}`;
  }
  const { _meta: _a, ...rr } = r;
  const { _meta: _b, ...pp } = p;
  if (jsonEqual(rr, pp)) return undefined;
  return `${at} (${method}): ${fieldDiff(rr, pp, 5, "params").join("; ")}`;
}

export interface LaneOptions {
  readonly mode: "record" | "replay";
  readonly server: AgentMcpServer;
  /** Replay: the recorded lane. */
  readonly recorded?: McpLane;
  /** Masks secret values in a body's text (stored and matched bodies never hold them). */
  readonly mask: (text: string) => string;
  /** Sees every message crossing the lane, before masking (the secret-leak scan). */
  readonly observe?: (label: string, text: string) => void;
  /** Model turns answered so far: places a tool call in the trajectory. */
  readonly modelTurns: () => number;
  /** Where `tools/call` calls go, as trajectory entries (shared by every lane of an execution, in order). */
  readonly toolCalls: AgentToolCall[];
  /** Called once, at the first divergence or forwarding failure (fail fast). */
  readonly onFailure: (detail: string) => void;
  /** Record: where and with what environment a stdio server is started. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

export interface Lane {
  readonly server: AgentMcpServer;
  /** The variable and value that wire the agent to the stand-in. */
  readonly envName: string;
  readonly envValue: string;
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: string;
  /** What this execution saw: recorded at record, served at replay. */
  readonly lane: McpLane;
  /** Client messages received. */
  received(): number;
  /** Replay: recorded calls never asked for. */
  unasked(): number;
  failure(): string | undefined;
  stop(): void;
}

interface Upstream {
  /** Sends one client message; resolves with the messages of its answer and the headers to pass back. */
  send(message: Message, headers: Headers): Promise<{ status: number; messages: Message[]; sessionId?: string }>;
  stop(): void;
}

/** A stdio MCP server flowproof starts at record (through `sh -c`, its own process group), framed by the SDK. */
function stdioUpstream(command: string, cwd: string, env: Readonly<Record<string, string>>, onUnsolicited: (m: Message) => void): Upstream {
  const child: ChildProcess = spawn("sh", ["-c", command], { cwd, env, stdio: ["pipe", "pipe", "pipe"], detached: true });
  // Killed even if flowproof dies without running any exit hook.
  const unguard = child.pid !== undefined ? guardGroup(child.pid) : () => undefined;
  const { ReadBuffer, serializeMessage } = loadedFraming();
  const buffer = new ReadBuffer();
  const waiting = new Map<string, (m: Message) => void>();
  let stderr = "";
  let exited: string | undefined;
  child.stderr?.on("data", (c: Buffer) => void (stderr = (stderr + c.toString("utf8")).slice(-4096)));
  child.stdout?.on("data", (chunk: Buffer) => {
    buffer.append(chunk);
    for (;;) {
      let m: JSONRPCMessage | null;
      try {
        m = buffer.readMessage();
      } catch {
        continue;
      }
      if (!m) break;
      const msg = m as unknown as Message;
      const id = msg["id"];
      if (!isRequest(msg) && !isNotification(msg) && id !== undefined && waiting.has(JSON.stringify(id))) {
        const done = waiting.get(JSON.stringify(id))!;
        waiting.delete(JSON.stringify(id));
        done(msg);
      } else onUnsolicited(msg);
    }
  });
  const gone = (why: string) => {
    exited = why;
    for (const [id, done] of waiting) done({ jsonrpc: "2.0", id: JSON.parse(id) as unknown, error: { code: -32000, message: why } });
    waiting.clear();
  };
  child.once("error", (e) => gone(`the MCP server command could not start: ${e.message}`));
  child.once("close", (code) =>
    gone(`the MCP server command exited with code ${String(code)}${stderr.trim() ? `; stderr tail:\n${stderr.trim().split("\n").slice(-10).join("\n")}` : ""}`),
  );
  return {
    async send(message) {
      if (exited) throw new FlowproofError({ code: "driver-error", message: exited, hint: "run the MCP server's command by hand to see why it stops" });
      if (!isRequest(message)) {
        child.stdin?.write(serializeMessage(message as unknown as JSONRPCMessage));
        return { status: 202, messages: [] };
      }
      const answer = new Promise<Message>((resolve) => waiting.set(JSON.stringify(message["id"]), resolve));
      child.stdin?.write(serializeMessage(message as unknown as JSONRPCMessage));
      return { status: 200, messages: [await answer] };
    },
    stop() {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
      unguard();
    },
  };
}

/** A streamable-HTTP MCP server at `url`: POSTs forwarded with the client's Authorization and Mcp-Session-Id. */
function httpUpstream(url: string): Upstream {
  return {
    async send(message, headers) {
      const out: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
      for (const h of ["authorization", "mcp-session-id", "mcp-protocol-version"]) {
        const v = headers.get(h);
        if (v) out[h] = v;
      }
      const res = await fetch(url, { method: "POST", headers: out, body: JSON.stringify(message) });
      const text = await res.text();
      const sessionId = res.headers.get("mcp-session-id") ?? undefined;
      if (res.status === 202 || text.trim() === "") return { status: res.status, messages: [], ...(sessionId ? { sessionId } : {}) };
      return { status: res.status, messages: messagesOf(res.headers.get("content-type") ?? "", text), ...(sessionId ? { sessionId } : {}) };
    },
    stop: () => undefined,
  };
}

const sse = (messages: readonly Message[]): string => messages.map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join("");

/** Starts the stand-in for one declared server. */
export function startLane(options: LaneOptions): Lane {
  const { server, mode } = options;
  const label = `MCP server \`${server.name}\``;
  const calls: McpLaneCall[] = [];
  const events: McpLaneEvent[] = [];
  const toolCalls = options.toolCalls;
  const mocks = new Map((server.tools ?? []).filter((t) => "result" in t).map((t) => [t.name, t.result]));
  let received = 0;
  let answered = 0;
  let failure: string | undefined;
  /** Notifications not yet delivered to the client. */
  let pending: Message[] = [];
  let getStream: ReadableStreamDefaultController<Uint8Array> | undefined;
  const encoder = new TextEncoder();
  const fail = (detail: string): void => {
    if (failure !== undefined) return;
    failure = detail;
    options.onFailure(detail);
  };
  const masked = (v: unknown): unknown => (v === undefined ? undefined : (JSON.parse(options.mask(JSON.stringify(v))) as unknown));
  /**
   * Takes the notifications not yet delivered: for the answer being built (`inline`, when the
   * client reads that answer as an SSE stream), else onto the standalone GET stream if one is open.
   * Inline keeps a notification ahead of the answer it came with, as the server sent it; on the
   * GET stream it would race the answer on another connection.
   */
  const deliver = (inline = false): Message[] => {
    const out = pending;
    pending = [];
    if (!inline && getStream && out.length > 0) {
      getStream.enqueue(encoder.encode(sse(out)));
      return [];
    }
    return out;
  };
  const unsolicited = (m: Message): void => {
    options.observe?.(`${label} notification`, JSON.stringify(m));
    if (isRequest(m)) {
      fail(
        `${label} sent a \`${String(m["method"])}\` request mid-record: server-initiated requests (sampling, elicitation, roots) are not supported in this version`,
      );
      return;
    }
    if (!isNotification(m)) return;
    events.push({ after: answered, method: String(m["method"]), ...(m["params"] !== undefined ? { params: masked(m["params"]) } : {}) });
    pending.push(m);
  };
  const upstream: Upstream | undefined =
    mode === "replay"
      ? undefined
      : server.command !== undefined
        ? stdioUpstream(server.command, options.cwd, options.env, unsolicited)
        : httpUpstream(server.url ?? "");
  const recorded = options.recorded ?? { calls: [], events: [] };
  if (mode === "replay")
    pending.push(
      ...recorded.events
        .filter((e) => e.after === 0)
        .map((e) => ({ jsonrpc: "2.0", method: e.method, ...(e.params !== undefined ? { params: e.params } : {}) })),
    );

  /** One client request: its answer, recorded or served. */
  const call = async (m: Message, headers: Headers, inline: boolean): Promise<{ status: number; messages: Message[]; sessionId?: string }> => {
    const ordinal = calls.length + 1;
    const method = String(m["method"]);
    const params = m["params"];
    const turn = Math.max(0, options.modelTurns() - 1);
    const p = obj(params);
    const mocked = method === "tools/call" && mocks.has(String(p["name"]));
    let answer: Message;
    let sessionId: string | undefined;
    const before: Message[] = [];
    if (mode === "replay") {
      const rec = recorded.calls[ordinal - 1];
      if (!rec) {
        fail(`extra MCP call: ${label} call ${ordinal} (\`${method}\`) has no recorded call left (the lane holds ${recorded.calls.length})`);
        return { status: 200, messages: [{ jsonrpc: "2.0", id: m["id"], error: { code: -32603, message: `flowproof: ${failure}` } }] };
      }
      const diverged = laneDivergence(server.name, ordinal, rec, method, masked(params));
      if (diverged) {
        fail(diverged);
        return { status: 200, messages: [{ jsonrpc: "2.0", id: m["id"], error: { code: -32603, message: `flowproof: ${diverged}` } }] };
      }
      answer = rec.error !== undefined ? { jsonrpc: "2.0", id: m["id"], error: rec.error } : { jsonrpc: "2.0", id: m["id"], result: rec.result ?? {} };
      if (mocked) answer = { jsonrpc: "2.0", id: m["id"], result: { content: [{ type: "text", text: textOf(mocks.get(String(p["name"]))) }] } };
      sessionId = REPLAY_SESSION_ID;
    } else if (mocked) {
      answer = { jsonrpc: "2.0", id: m["id"], result: { content: [{ type: "text", text: textOf(mocks.get(String(p["name"]))) }] } };
    } else {
      let got: { status: number; messages: Message[]; sessionId?: string };
      try {
        got = await upstream!.send(m, headers);
      } catch (error) {
        const detail = `${label} could not be reached while recording: ${error instanceof Error ? error.message : String(error)}`;
        fail(detail);
        return { status: 502, messages: [{ jsonrpc: "2.0", id: m["id"], error: { code: -32603, message: `flowproof: ${detail}` } }] };
      }
      sessionId = got.sessionId;
      const own = got.messages.find((x) => !isRequest(x) && !isNotification(x) && jsonEqual(x["id"], m["id"]));
      for (const x of got.messages) if (x !== own) unsolicited(x);
      before.push(...deliver(inline));
      if (!own) {
        const detail = `${label} answered call ${ordinal} (\`${method}\`) with HTTP ${got.status} and no JSON-RPC response`;
        fail(detail);
        return { status: 502, messages: [{ jsonrpc: "2.0", id: m["id"], error: { code: -32603, message: `flowproof: ${detail}` } }] };
      }
      answer = own;
    }
    options.observe?.(`${label} response ${ordinal}`, JSON.stringify(answer));
    calls.push({
      method,
      ...(params !== undefined ? { params: masked(params) } : {}),
      ...(answer["error"] !== undefined ? { error: masked(answer["error"]) } : { result: masked(answer["result"]) }),
    });
    answered += 1;
    if (method === "tools/call")
      toolCalls.push({
        turn,
        server: server.name,
        name: `${server.name}.${String(p["name"])}`,
        arguments: p["arguments"] ?? {},
        result: answer["error"] !== undefined ? JSON.stringify(answer["error"]) : resultText(answer["result"]),
      });
    if (mode === "replay") {
      before.push(...deliver(inline));
      pending.push(
        ...recorded.events
          .filter((e) => e.after === answered)
          .map((e) => ({ jsonrpc: "2.0", method: e.method, ...(e.params !== undefined ? { params: e.params } : {}) })),
      );
      return { status: 200, messages: [...before, answer, ...deliver(inline)], ...(sessionId ? { sessionId } : {}) };
    }
    return { status: 200, messages: [...before, answer], ...(sessionId ? { sessionId } : {}) };
  };

  const http = Bun.serve({
    hostname: "127.0.0.1",
    port: server.port ?? 0,
    idleTimeout: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (!path.includes("/mcp"))
        return new Response(
          `flowproof's MCP stand-in for \`${server.name}\` serves streamable HTTP at …/mcp (the legacy HTTP+SSE transport is not supported)`,
          { status: 404 },
        );
      if (req.method === "GET") {
        if (getStream) return new Response("flowproof: a standalone stream is already open for this server", { status: 409 });
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            getStream = controller;
            controller.enqueue(encoder.encode(": flowproof stand-in stream\n\n"));
            deliver();
          },
          cancel() {
            getStream = undefined;
          },
        });
        return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
      }
      if (req.method === "DELETE") return new Response(null, { status: 200 });
      if (req.method !== "POST") return new Response(null, { status: 405 });
      const raw = await req.text();
      received += 1;
      options.observe?.(`${label} request ${received}`, raw);
      let m: unknown;
      try {
        m = JSON.parse(raw) as unknown;
      } catch {
        return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "flowproof: not JSON" } }, { status: 400 });
      }
      if (Array.isArray(m)) {
        fail(`${label} received a JSON-RPC batch: batches are not supported; send one message per POST`);
        return Response.json(
          { jsonrpc: "2.0", id: null, error: { code: -32600, message: "flowproof: JSON-RPC batches are not supported; send one message per POST" } },
          { status: 400 },
        );
      }
      const msg = obj(m);
      if (!isRequest(msg)) {
        // A notification (or an answer to the server) from the client: forwarded at record, acknowledged.
        if (mode === "record" && upstream) await upstream.send(msg, req.headers).catch(() => undefined);
        return new Response(null, { status: 202 });
      }
      const accepts = (req.headers.get("accept") ?? "").includes("text/event-stream");
      const out = await call(msg, req.headers, accepts);
      const headers: Record<string, string> = out.sessionId ? { "mcp-session-id": out.sessionId } : {};
      if (out.messages.length === 1 || !accepts) {
        const own = out.messages.find((x) => !isNotification(x)) ?? out.messages[0];
        pending.push(...out.messages.filter((x) => x !== own));
        if (getStream) deliver();
        return Response.json(own, { status: out.status, headers });
      }
      return new Response(sse(out.messages), { status: out.status, headers: { ...headers, "content-type": "text/event-stream", "cache-control": "no-cache" } });
    },
  });
  const url = `http://127.0.0.1:${String(http.port)}/mcp`;
  return {
    server,
    envName: envNameOf(server),
    envValue: server.command !== undefined ? relayCommand(url) : url,
    url,
    lane: { calls, events },
    received: () => received,
    unasked: () => Math.max(0, recorded.calls.length - calls.length),
    failure: () => failure,
    stop: () => {
      try {
        getStream?.close();
      } catch {
        // closed already
      }
      void http.stop(true);
      upstream?.stop();
    },
  };
}

const textOf = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));

/**
 * `flowproof mcp-lane <url>`: the stdio server an agent spawns. Relays each message it reads on
 * stdin to the stand-in at `url` and writes every message of the answer to stdout, in order.
 */
export async function relayMcpStdio(url: string): Promise<void> {
  await loadMcpFraming();
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const transport = new StdioServerTransport();
  let sessionId: string | undefined;
  let queue: Promise<void> = Promise.resolve();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  transport.onmessage = (message) => {
    queue = queue.then(async () => {
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(sessionId ? { "mcp-session-id": sessionId } : {}) },
          body: JSON.stringify(message),
        });
        sessionId = res.headers.get("mcp-session-id") ?? sessionId;
        const text = await res.text();
        for (const m of messagesOf(res.headers.get("content-type") ?? "", text)) await transport.send(m as unknown as JSONRPCMessage);
      } catch (error) {
        const id = (message as { id?: unknown }).id;
        if (id !== undefined)
          await transport.send({
            jsonrpc: "2.0",
            id: id as string,
            error: { code: -32603, message: `flowproof: the MCP stand-in is gone: ${error instanceof Error ? error.message : String(error)}` },
          });
      }
    });
  };
  await transport.start();
  await closed;
  await queue;
}
