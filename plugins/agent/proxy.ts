// The model-boundary proxy: a loopback HTTP server (127.0.0.1 only) the agent's model client
// talks to. At record it forwards each request (non-streaming) to the upstream fixed at start,
// with the key only in the outbound Authorization / x-api-key header, and keeps the turn; at
// replay it answers from the cassette and has no network client at all. `stream: true` is
// answered with an SSE stream synthesised in the client's dialect, in both phases.
import type { AgentTurn } from "../../src/plugins/api.ts";
import { canonicalRequest, errorBody, protocolOf, substituteResults, synthesizeStream, upstreamUrl, type Protocol } from "./dialects.ts";
import { matchTurn } from "./matcher.ts";

export interface ProxyOptions {
  readonly mode: "record" | "replay";
  /** Record: the upstream base URL (e.g. `https://api.openai.com/v1`). */
  readonly upstream?: string;
  /** Record: the credential; sent only in the outbound header, never stored. */
  readonly key?: string;
  /** Replay: the recorded turns. */
  readonly cassette?: readonly AgentTurn[];
  /** `tools:` results by tool name: what the model is told instead of the agent's tool answer. */
  readonly results: ReadonlyMap<string, unknown>;
  /** Masks secret values in a body's text (stored and matched bodies never hold them). */
  readonly mask: (text: string) => string;
  /** The port to listen on; 0 (default) = an ephemeral one. */
  readonly port?: number;
  /** Called once, at the first divergence or upstream failure (fail fast). */
  readonly onFailure?: (detail: string) => void;
  /** Sees every request and response body as it crosses the proxy, before masking (the secret-leak scan). */
  readonly observe?: (label: string, text: string) => void;
}

export interface Proxy {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  /** Turns so far: recorded at record, served at replay (in the order they were served). */
  readonly turns: AgentTurn[];
  /** Model requests the agent sent (dialect endpoints only). */
  requests(): number;
  /** The first divergence or upstream failure, if any. */
  failure(): string | undefined;
  stop(): void;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export function startProxy(options: ProxyOptions): Proxy {
  const turns: AgentTurn[] = [];
  const consumed = new Set<number>();
  let count = 0;
  let failure: string | undefined;
  const fail = (protocol: Protocol, detail: string, status = 400): Response => {
    if (failure === undefined) {
      failure = detail;
      options.onFailure?.(detail);
    }
    return json(errorBody(protocol, `flowproof: ${detail}`), status);
  };
  const answer = (protocol: Protocol, body: unknown, stream: boolean, status = 200): Response => {
    if (!stream || status !== 200) return json(body, status);
    return new Response(synthesizeStream(protocol, body), { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    idleTimeout: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const protocol = req.method === "POST" ? protocolOf(path) : undefined;
      if (!protocol) return json({ error: { message: `flowproof's model proxy serves POST …/chat/completions and POST …/messages, not ${req.method} ${path}` } }, 404);
      count += 1;
      const ordinal = count;
      let parsed: unknown;
      try {
        const raw = await req.text();
        options.observe?.(`model request ${ordinal}`, raw);
        parsed = JSON.parse(raw) as unknown;
      } catch {
        return fail(protocol, `model request ${ordinal} is not JSON`);
      }
      const stream = (parsed as { stream?: unknown }).stream === true;
      const sent = substituteResults(protocol, canonicalRequest(parsed), options.results);
      const stored = JSON.parse(options.mask(JSON.stringify(sent))) as unknown;
      if (options.mode === "replay") {
        const cassette = options.cassette ?? [];
        const m = matchTurn(cassette, consumed, protocol, stored, ordinal);
        if (!m.ok) return fail(protocol, m.detail);
        consumed.add(m.index);
        const turn = cassette[m.index]!;
        turns.push(turn);
        options.observe?.(`model response ${ordinal}`, JSON.stringify(turn.response));
        return answer(protocol, turn.response, stream, turn.status ?? 200);
      }
      const headers: Record<string, string> = { "content-type": "application/json" };
      const key = options.key;
      if (key) {
        if (protocol === "anthropic") headers["x-api-key"] = key.replace(/^Bearer\s+/i, "");
        else headers["authorization"] = /^Bearer\s/i.test(key) ? key : `Bearer ${key}`;
      }
      if (protocol === "anthropic") headers["anthropic-version"] = req.headers.get("anthropic-version") ?? "2023-06-01";
      let upstream: Response;
      try {
        upstream = await fetch(upstreamUrl(options.upstream ?? "", protocol), { method: "POST", headers, body: JSON.stringify(sent) });
      } catch (error) {
        return fail(protocol, `the upstream model (${options.upstream}) could not be reached: ${error instanceof Error ? error.message : String(error)}`, 502);
      }
      const text = await upstream.text();
      options.observe?.(`model response ${ordinal}`, text);
      let body: unknown;
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        return fail(protocol, `the upstream model answered model request ${ordinal} with HTTP ${upstream.status} and a body that is not JSON`, 502);
      }
      turns.push({ protocol, request: stored, response: JSON.parse(options.mask(JSON.stringify(body))) as unknown, ...(upstream.status !== 200 ? { status: upstream.status } : {}) });
      return answer(protocol, body, stream, upstream.status);
    },
  });
  const port = server.port ?? 0;
  return {
    origin: `http://127.0.0.1:${String(port)}`,
    port,
    turns,
    requests: () => count,
    failure: () => failure,
    stop: () => void server.stop(true),
  };
}
