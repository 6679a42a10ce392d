// An incremental HTTP/1.x request parser over raw bytes, for `flowproof capture`: the request line
// and headers exactly as sent (order, case, bytes), bodies by Content-Length or chunked transfer
// coding, and several requests on one connection. Pure: bytes in, requests out; no sockets.

/** One request as it arrived. Header names and values keep their bytes (one character per byte). */
export interface RawRequest {
  /** The request line without its line ending, e.g. `POST /orders?x=1 HTTP/1.1`. */
  readonly requestLine: string;
  readonly method: string;
  /** The request target as sent (path and query, or an absolute URL for a proxy request). */
  readonly target: string;
  readonly version: string;
  /** `[name, value]` in the order sent, case kept, the value without surrounding spaces. */
  readonly headers: readonly (readonly [string, string])[];
  /** The body, or its first `keepBodyBytes` (see RequestParser); a chunked body with its chunk framing removed. */
  readonly body: Uint8Array;
  /** Bytes the whole body had (more than `body` holds when it was cut); `body.length` when absent. */
  readonly bodyLength?: number;
  readonly chunked: boolean;
  /** Trailer fields after a chunked body. */
  readonly trailers: readonly (readonly [string, string])[];
}

export type ParseEvent =
  /** The head asked for `Expect: 100-continue` and its body has not arrived yet. */
  | { readonly kind: "continue" }
  | { readonly kind: "request"; readonly request: RawRequest }
  /** The bytes are not HTTP/1.x; the connection cannot go on. */
  | { readonly kind: "error"; readonly message: string };

/** The longest request line plus headers accepted. */
export const MAX_HEAD_BYTES = 64 * 1024;

const CR = 13;
const LF = 10;

/** Bytes as a string of the same length, one character per byte (no decoding: nothing is changed). */
export const byteString = (bytes: Uint8Array): string => {
  let s = "";
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
};

interface Head {
  requestLine: string;
  method: string;
  target: string;
  version: string;
  headers: [string, string][];
}

type State =
  | { readonly kind: "head" }
  | { readonly kind: "length"; readonly head: Head; readonly remaining: number }
  | { readonly kind: "chunk-size"; readonly head: Head }
  | { readonly kind: "chunk-data"; readonly head: Head; readonly remaining: number }
  | { readonly kind: "trailers"; readonly head: Head }
  | { readonly kind: "failed" };

export class RequestParser {
  #buffer: Uint8Array = new Uint8Array(0);
  #state: State = { kind: "head" };
  #body: Uint8Array[] = [];
  /** Bytes of the current body seen, kept or not. */
  #bodySeen = 0;
  #trailers: [string, string][] = [];
  readonly #keep: number;

  /**
   * `keepBodyBytes`: how much of each body is kept (the rest is counted, never held), so a body of
   * any size costs that much memory. Default: all of it.
   */
  constructor(options: { readonly keepBodyBytes?: number } = {}) {
    this.#keep = options.keepBodyBytes ?? Infinity;
  }

  /** Keeps the part of `chunk` still under the bound, and counts all of it. */
  #take(chunk: Uint8Array): void {
    const room = this.#keep - Math.min(this.#keep, this.#bodySeen);
    if (room > 0) this.#body.push(chunk.length <= room ? chunk.slice() : chunk.slice(0, room));
    this.#bodySeen += chunk.length;
  }

  /** Feeds the next bytes of the connection; returns what they completed. */
  push(bytes: Uint8Array): ParseEvent[] {
    if (this.#state.kind === "failed") return [];
    this.#buffer = concat([this.#buffer, bytes]);
    const events: ParseEvent[] = [];
    for (;;) {
      const event = this.#step();
      if (event === undefined) break;
      events.push(event);
      if (event.kind === "error") {
        this.#state = { kind: "failed" };
        break;
      }
    }
    return events;
  }

  /** Whether the connection ended between requests (no request half-read). */
  get idle(): boolean {
    return this.#state.kind === "head" && this.#buffer.every((b) => b === CR || b === LF);
  }

  /** Advances by one event, or undefined when more bytes are needed. */
  #step(): ParseEvent | undefined {
    const state = this.#state;
    switch (state.kind) {
      case "failed":
        return undefined;
      case "head": {
        // Empty lines before a request line are ignored (RFC 9112 §2.2).
        let start = 0;
        while (start < this.#buffer.length && (this.#buffer[start] === CR || this.#buffer[start] === LF)) start++;
        const end = headEnd(this.#buffer, start);
        if (end === undefined) {
          if (this.#buffer.length - start > MAX_HEAD_BYTES) return { kind: "error", message: `the request line and headers exceed ${MAX_HEAD_BYTES} bytes` };
          return undefined;
        }
        const head = parseHead(byteString(this.#buffer.subarray(start, end.headEnd)));
        this.#buffer = this.#buffer.subarray(end.bodyStart);
        if (typeof head === "string") return { kind: "error", message: head };
        const framing = bodyFraming(head);
        if ("error" in framing) return { kind: "error", message: framing.error };
        this.#body = [];
        this.#bodySeen = 0;
        this.#trailers = [];
        if ("chunked" in framing) this.#state = { kind: "chunk-size", head };
        else if (framing.length > 0) this.#state = { kind: "length", head, remaining: framing.length };
        else return this.#finish(head, false);
        const expects = head.headers.some(([n, v]) => n.toLowerCase() === "expect" && v.toLowerCase() === "100-continue");
        return expects && this.#buffer.length === 0 ? { kind: "continue" } : this.#step();
      }
      case "length": {
        if (this.#buffer.length === 0) return undefined;
        const take = Math.min(state.remaining, this.#buffer.length);
        this.#take(this.#buffer.subarray(0, take));
        this.#buffer = this.#buffer.subarray(take);
        if (take < state.remaining) {
          this.#state = { ...state, remaining: state.remaining - take };
          return undefined;
        }
        return this.#finish(state.head, false);
      }
      case "chunk-size": {
        const line = takeLine(this.#buffer);
        if (!line) return this.#buffer.length > MAX_HEAD_BYTES ? { kind: "error", message: "a chunk-size line is too long" } : undefined;
        this.#buffer = this.#buffer.subarray(line.next);
        const sizeText = byteString(line.line).split(";")[0]!.trim();
        if (!/^[0-9a-fA-F]+$/.test(sizeText)) return { kind: "error", message: `a chunk size is not hexadecimal: ${JSON.stringify(sizeText)}` };
        const size = parseInt(sizeText, 16);
        this.#state = size === 0 ? { kind: "trailers", head: state.head } : { kind: "chunk-data", head: state.head, remaining: size };
        return this.#step();
      }
      case "chunk-data": {
        // The chunk's data, then its CRLF.
        if (this.#buffer.length < state.remaining + 2) {
          if (this.#buffer.length > 0 && this.#buffer.length <= state.remaining) {
            this.#take(this.#buffer);
            this.#state = { ...state, remaining: state.remaining - this.#buffer.length };
            this.#buffer = new Uint8Array(0);
          }
          return undefined;
        }
        this.#take(this.#buffer.subarray(0, state.remaining));
        if (this.#buffer[state.remaining] !== CR || this.#buffer[state.remaining + 1] !== LF)
          return { kind: "error", message: "a chunk is not followed by CRLF" };
        this.#buffer = this.#buffer.subarray(state.remaining + 2);
        this.#state = { kind: "chunk-size", head: state.head };
        return this.#step();
      }
      case "trailers": {
        const line = takeLine(this.#buffer);
        if (!line) return undefined;
        this.#buffer = this.#buffer.subarray(line.next);
        if (line.line.length === 0) return this.#finish(state.head, true);
        const field = splitField(byteString(line.line));
        if (field) this.#trailers.push(field);
        return this.#step();
      }
    }
  }

  #finish(head: Head, chunked: boolean): ParseEvent {
    const body = concat(this.#body);
    this.#body = [];
    this.#state = { kind: "head" };
    const cut = this.#bodySeen > body.length ? { bodyLength: this.#bodySeen } : {};
    return {
      kind: "request",
      request: {
        requestLine: head.requestLine,
        method: head.method,
        target: head.target,
        version: head.version,
        headers: head.headers,
        body,
        ...cut,
        chunked,
        trailers: this.#trailers,
      },
    };
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return parts.length === 1 ? parts[0]! : new Uint8Array(Buffer.concat(parts));
}

/** Where the head ends (`\r\n\r\n`, or a bare `\n\n` from a lenient client) and the body starts. */
function headEnd(buf: Uint8Array, from: number): { headEnd: number; bodyStart: number } | undefined {
  for (let i = from; i < buf.length; i++) {
    if (buf[i] !== LF) continue;
    if (buf[i + 1] === LF) return { headEnd: i, bodyStart: i + 2 };
    if (buf[i + 1] === CR && buf[i + 2] === LF) return { headEnd: i, bodyStart: i + 3 };
  }
  return undefined;
}

/** One line ending in LF (its CR dropped), and where the next starts. */
function takeLine(buf: Uint8Array): { line: Uint8Array; next: number } | undefined {
  const lf = buf.indexOf(LF);
  if (lf < 0) return undefined;
  return { line: buf.subarray(0, lf > 0 && buf[lf - 1] === CR ? lf - 1 : lf), next: lf + 1 };
}

function splitField(line: string): [string, string] | undefined {
  const colon = line.indexOf(":");
  if (colon <= 0) return undefined;
  return [line.slice(0, colon), line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, "")];
}

function parseHead(text: string): Head | string {
  const lines = text.split(/\r?\n/);
  const requestLine = lines[0]!.replace(/\r$/, "");
  const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) (HTTP\/\d\.\d)$/.exec(requestLine);
  if (!m) return `not an HTTP/1.x request line: ${JSON.stringify(requestLine.slice(0, 80))}`;
  if (m[3] !== "HTTP/1.1" && m[3] !== "HTTP/1.0") return `${m[3]} is not HTTP/1.0 or HTTP/1.1, the versions capture reads`;
  const headers: [string, string][] = [];
  for (const raw of lines.slice(1)) {
    const line = raw.replace(/\r$/, "");
    // An obsolete folded line continues the previous value.
    if (/^[ \t]/.test(line) && headers.length > 0) {
      const last = headers[headers.length - 1]!;
      last[1] = `${last[1]} ${line.trim()}`;
      continue;
    }
    const field = splitField(line);
    if (!field) return `a header line has no name: ${JSON.stringify(line.slice(0, 80))}`;
    headers.push(field);
  }
  return { requestLine, method: m[1]!, target: m[2]!, version: m[3]!, headers };
}

/** How the body is framed, or why the framing is broken. */
function bodyFraming(head: Head): { chunked: true } | { length: number } | { error: string } {
  const values = (name: string) => head.headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
  const te = values("transfer-encoding").join(",").toLowerCase();
  // Both framings at once is how requests are smuggled past a proxy (RFC 9112 §6.1): refused.
  if (te !== "" && values("content-length").length > 0) return { error: "the request has both Transfer-Encoding and Content-Length, which RFC 9112 forbids" };
  if (
    te
      .split(",")
      .map((s) => s.trim())
      .includes("chunked")
  )
    return { chunked: true };
  const lengths = [...new Set(values("content-length").flatMap((v) => v.split(",").map((s) => s.trim())))];
  if (lengths.length === 0) return { length: 0 };
  if (lengths.length > 1 || !/^\d+$/.test(lengths[0]!))
    return { error: `Content-Length is not one whole number: ${JSON.stringify(values("content-length").join(", "))}` };
  return { length: Number(lengths[0]) };
}
