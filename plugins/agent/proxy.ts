// The model-boundary proxy: a loopback HTTP server (127.0.0.1 only) the agent's model client
// talks to. At record it forwards each request (non-streaming) to the upstream fixed at start,
// with the key only in the outbound Authorization / x-api-key header, and keeps the turn; at
// replay it answers from the cassette and has no network client at all. A streaming request is
// answered with an SSE stream synthesised in the client's dialect, in both phases. A request on
// any other endpoint fails the execution, naming its method and path.
import type { AgentTurn } from "../../src/plugins/api.ts";
import { stampCallIds } from "./dialect-gemini.ts";
import {
  canonicalRequest,
  errorBody,
  protocolOf,
  readResponse,
  SERVED_ENDPOINTS,
  streamedByPath,
  substituteResults,
  synthesizeStream,
  upstreamBody,
  upstreamUrl,
  type Protocol,
} from "./dialects.ts";
import { DEFAULT_MATCH, matchTurn, type MatchRule } from "./matcher.ts";

/** What went wrong: a request that does not replay (the agent changed), the upstream model, or an endpoint flowproof does not serve. */
export type ProxyFailureKind = "divergence" | "upstream" | "unserved";

export interface ProxyFailure {
  readonly kind: ProxyFailureKind;
  readonly detail: string;
  /** The model request (1-based) it happened at; 0 when it was not a model request. */
  readonly request: number;
  /** The request body as the agent sent it (masked), when there was one: which delivery it belongs to. */
  readonly body?: unknown;
  readonly protocol?: Protocol;
  /** A divergence: the recorded turn (0-based) the request was compared with. */
  readonly turn?: number;
}

export interface ProxyOptions {
  readonly mode: "record" | "replay";
  /** Record: the upstream base URL (e.g. `https://api.openai.com/v1`). */
  readonly upstream?: string;
  /** Record: the credential for a dialect; sent only in the outbound header, never stored. */
  readonly key?: (protocol: Protocol) => string | undefined;
  /** Replay: the recorded turns. */
  readonly cassette?: readonly AgentTurn[];
  /** Record under `heal`: recorded turns served while requests match them; from the first that does not, record as usual. */
  readonly healFrom?: readonly AgentTurn[];
  /** Replay: how a request is matched to a recorded turn (the flow's `match:`; default the conversation). */
  readonly match?: MatchRule;
  /** `tools:` results by tool name: what the model is told instead of the agent's tool answer. */
  readonly results: ReadonlyMap<string, unknown>;
  /** Masks secret values in a body's text (stored and matched bodies never hold them). */
  readonly mask: (text: string) => string;
  /** The port to listen on; 0 (default) = an ephemeral one. */
  readonly port?: number;
  /** Called once, at the first divergence, upstream failure or unserved request (fail fast). */
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
  /** Requests forwarded to the upstream model (0 at replay). */
  modelCalls(): number;
  /** The first divergence, upstream failure or unserved request, if any. */
  failure(): string | undefined;
  /** The same, with its kind and where it happened. */
  failureInfo(): ProxyFailure | undefined;
  /** Replay: request fields that differed from the recording but were not compared (`match: conversation`). */
  readonly notes: string[];
  /** Record under `heal`: the turns served from the recording before the first divergence. */
  kept(): number;
  stop(): void;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
/** Why a fetch failed, without the runtime's hint about its own options (`pass \`verbose: true\` …`), which a user cannot act on. */
export const reason = (error: unknown): string => {
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : undefined;
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s*For more information, pass `verbose: true`[^.]*\.?/g, "").trim();
  return code && !message.includes(code) ? `${code}: ${message}` : message;
};
const isReset = (error: unknown): boolean =>
  /ECONNRESET|socket connection was closed|connection reset/i.test(
    `${String((error as { code?: unknown } | null)?.code ?? "")} ${error instanceof Error ? error.message : String(error)}`,
  );

export function startProxy(options: ProxyOptions): Proxy {
  const turns: AgentTurn[] = [];
  const notes: string[] = [];
  const consumed = new Set<number>();
  /** Call ids of the answers so far → tool names (a client chaining answers by id sends results without the call). */
  const known = new Map<string, string>();
  let count = 0;
  let forwarded = 0;
  let healDiverged = false;
  let failure: ProxyFailure | undefined;
  const fail = (protocol: Protocol, info: Omit<ProxyFailure, "protocol">, status = 400): Response => {
    if (failure === undefined) {
      failure = { ...info, protocol };
      options.onFailure?.(info.detail);
    }
    return json(errorBody(protocol, `flowproof: ${info.detail}`), status);
  };
  const answer = (protocol: Protocol, body: unknown, stream: boolean, sse: boolean, status = 200): Response => {
    if (!stream || status !== 200) return json(body, status);
    // A Gemini stream without `alt=sse` is one JSON array of the chunks.
    if (!sse) return json([body], status);
    return new Response(synthesizeStream(protocol, body), { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
  };
  const remember = (protocol: Protocol, response: unknown) => {
    for (const c of readResponse(protocol, response).calls) known.set(c.id, c.name);
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const path = url.pathname;
      const protocol = req.method === "POST" ? protocolOf(path) : undefined;
      if (!protocol) {
        const detail = `the agent sent ${req.method} ${path} to flowproof's model proxy, which serves ${SERVED_ENDPOINTS} only: point the client at one of those APIs (see docs/agents.md, Dialects)`;
        return fail("openai", { kind: "unserved", detail, request: 0 }, 404);
      }
      count += 1;
      const ordinal = count;
      let parsed: unknown;
      try {
        const raw = await req.text();
        options.observe?.(`model request ${ordinal}`, raw);
        parsed = JSON.parse(raw) as unknown;
      } catch {
        return fail(protocol, { kind: "divergence", detail: `model request ${ordinal} is not JSON`, request: ordinal });
      }
      const stream = (parsed as { stream?: unknown }).stream === true || streamedByPath(path);
      const sse = protocol !== "gemini" || url.searchParams.get("alt") === "sse";
      const sent = substituteResults(protocol, canonicalRequest(parsed, protocol, path), options.results, known);
      const stored = JSON.parse(options.mask(JSON.stringify(sent))) as unknown;
      // `heal`: while the requests match the recording they are answered from it; the first that does not, and every one after it, is recorded live.
      if (options.mode === "record" && options.healFrom && !healDiverged) {
        const m = matchTurn(options.healFrom, consumed, protocol, stored, ordinal, options.match ?? DEFAULT_MATCH);
        if (m.ok && m.index === consumed.size) {
          consumed.add(m.index);
          const turn = options.healFrom[m.index]!;
          // The request as the agent sends it now, answered as recorded.
          turns.push({ ...turn, request: stored });
          remember(protocol, turn.response);
          return answer(protocol, turn.response, stream, sse, turn.status ?? 200);
        }
        healDiverged = true;
      }
      if (options.mode === "replay") {
        const cassette = options.cassette ?? [];
        const m = matchTurn(cassette, consumed, protocol, stored, ordinal, options.match ?? DEFAULT_MATCH);
        if (!m.ok)
          return fail(protocol, { kind: "divergence", detail: m.detail, request: ordinal, body: stored, ...(m.index !== undefined ? { turn: m.index } : {}) });
        consumed.add(m.index);
        notes.push(...m.notes);
        const turn = cassette[m.index]!;
        turns.push(turn);
        remember(protocol, turn.response);
        options.observe?.(`model response ${ordinal}`, JSON.stringify(turn.response));
        return answer(protocol, turn.response, stream, sse, turn.status ?? 200);
      }
      const headers: Record<string, string> = { "content-type": "application/json" };
      const key = options.key?.(protocol);
      if (key) {
        const bare = key.replace(/^Bearer\s+/i, "");
        if (protocol === "anthropic") headers["x-api-key"] = bare;
        else if (protocol === "gemini") headers["x-goog-api-key"] = bare;
        else headers["authorization"] = /^Bearer\s/i.test(key) ? key : `Bearer ${key}`;
      }
      if (protocol === "anthropic") headers["anthropic-version"] = req.headers.get("anthropic-version") ?? "2023-06-01";
      const model = String((sent as { model?: unknown }).model ?? "");
      const where = `the upstream model (${options.upstream})`;
      let status: number;
      let text: string;
      try {
        forwarded += 1;
        const upstream = await fetch(upstreamUrl(options.upstream ?? "", protocol, model), {
          method: "POST",
          headers,
          body: JSON.stringify(upstreamBody(protocol, sent)),
        });
        status = upstream.status;
        try {
          text = await upstream.text();
        } catch (error) {
          return fail(
            protocol,
            {
              kind: "upstream",
              detail: `${where} failed while sending its answer to model request ${ordinal} (HTTP ${status}, the connection ended mid-body: ${reason(error)}); nothing was recorded for it`,
              request: ordinal,
              body: stored,
            },
            502,
          );
        }
      } catch (error) {
        const what = isReset(error)
          ? `reset the connection during model request ${ordinal} (${reason(error)})`
          : `could not be reached for model request ${ordinal}: ${reason(error)}`;
        return fail(
          protocol,
          {
            kind: "upstream",
            detail: `${where} ${what}; nothing was recorded for it: run the record again once the upstream answers`,
            request: ordinal,
            body: stored,
          },
          502,
        );
      }
      options.observe?.(`model response ${ordinal}`, text);
      let body: unknown;
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        return fail(
          protocol,
          {
            kind: "upstream",
            detail: `${where} answered model request ${ordinal} with HTTP ${status} and a body that is not JSON`,
            request: ordinal,
            body: stored,
          },
          502,
        );
      }
      // Gemini calls without an id get one, so a client that makes up its own sends the same ids at replay.
      if (protocol === "gemini") body = stampCallIds(body, ordinal);
      remember(protocol, body);
      turns.push({ protocol, request: stored, response: JSON.parse(options.mask(JSON.stringify(body))) as unknown, ...(status !== 200 ? { status } : {}) });
      return answer(protocol, body, stream, sse, status);
    },
  });
  const port = server.port ?? 0;
  return {
    origin: `http://127.0.0.1:${String(port)}`,
    port,
    turns,
    notes,
    kept: () => (options.healFrom ? consumed.size : 0),
    requests: () => count,
    modelCalls: () => forwarded,
    failure: () => failure?.detail,
    failureInfo: () => failure,
    stop: () => void server.stop(true),
  };
}
