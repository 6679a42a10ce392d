// What every dialect codec shares: the neutral views of a request and a response, the codec
// contract, and the small JSON readers the codecs use. Pure.

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The parsed arguments (the raw string when they are not JSON). */
  readonly arguments: unknown;
}

/** What a request says, whatever its dialect. */
export interface RequestView {
  readonly model: string;
  readonly roles: readonly string[];
  readonly tools: readonly string[];
  readonly system: string;
  /** Tool results the request carries, by the id of the call they answer. */
  readonly results: ReadonlyMap<string, string>;
  /** Request text (all message texts joined), for thread tie-breaks. */
  readonly text: string;
  /** User messages that carry text (not tool results): the deliveries of a scripted conversation the request holds. */
  readonly userTurns: number;
}

/** What a response says. */
export interface ResponseView {
  readonly text: string;
  readonly calls: readonly ToolCall[];
}

/** One wire protocol: how its bodies read, how declared tool results go in, how a recorded answer streams back. */
export interface Codec {
  readRequest(body: unknown): RequestView;
  readResponse(body: unknown): ResponseView;
  /** The request with each tool result of a call named in `results` replaced; `known` maps call ids of earlier responses to tool names. */
  substituteResults(body: Json, results: ReadonlyMap<string, unknown>, known: ReadonlyMap<string, string>): Json;
  /** A recorded (non-streaming) response as the SSE stream the dialect sends for a streaming request. */
  synthesizeStream(body: unknown): string;
  /** An error body in the dialect (what an SDK shows when the proxy refuses a request). */
  errorBody(message: string): Json;
}

export type Json = Record<string, unknown>;
export const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v));
/** A declared tool result as the text a model is told. */
export const asText = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));

/** Tool-call arguments as a value: parsed when they are a JSON string, the raw string when not. */
export function parseArgs(text: unknown): unknown {
  if (typeof text !== "string") return text ?? {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** One server-sent event. */
export const sse = (event: string | undefined, data: unknown): string =>
  `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
