// The MCP stdio transport: newline-delimited JSON-RPC on a readable and a writable stream. Unlike
// the SDK's, it closes when the client closes its end (EOF, a broken pipe, a read or write error),
// and answers a line that is not JSON with -32700 and one that is not JSON-RPC with -32600
// (id null when none can be read), as JSON-RPC 2.0 requires. Prints nothing else.
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** A line longer than this is refused (and dropped) instead of buffered without bound. */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

export class LineTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  readonly #in: Readable;
  readonly #out: Writable;
  #buffer = "";
  #closed = false;
  /** Why the transport closed: `end of input`, `broken pipe`, … (undefined while open). */
  closedBy: string | undefined;

  constructor(input: Readable, output: Writable) {
    this.#in = input;
    this.#out = output;
  }

  async start(): Promise<void> {
    this.#in.setEncoding("utf8");
    this.#in.on("data", this.#onData);
    this.#in.once("end", () => this.#closeFor("end of input"));
    this.#in.once("close", () => this.#closeFor("end of input"));
    this.#in.on("error", (error: Error) => this.#closeFor(`input error: ${error.message}`));
    this.#out.on("error", (error: NodeJS.ErrnoException) => this.#closeFor(error.code === "EPIPE" ? "broken pipe" : `output error: ${error.message}`));
  }

  readonly #onData = (chunk: string): void => {
    this.#buffer += chunk;
    for (;;) {
      const end = this.#buffer.indexOf("\n");
      if (end < 0) break;
      const line = this.#buffer.slice(0, end).replace(/\r$/, "");
      this.#buffer = this.#buffer.slice(end + 1);
      if (line.trim() !== "") this.#receive(line);
    }
    if (this.#buffer.length > MAX_LINE_BYTES) {
      this.#buffer = "";
      void this.#reply(null, ErrorCode.InvalidRequest, `a message longer than ${MAX_LINE_BYTES} bytes was dropped`);
    }
  };

  #receive(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      void this.#reply(null, ErrorCode.ParseError, `Parse error: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id =
        typeof value === "object" && value !== null && "id" in value && (typeof value.id === "string" || typeof value.id === "number") ? value.id : null;
      void this.#reply(id, ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 message");
      return;
    }
    this.onmessage?.(parsed.data);
  }

  #reply(id: string | number | null, code: number, message: string): Promise<void> {
    return this.#write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(`${JSON.stringify(message)}\n`);
  }

  #write(text: string): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.#out.write(text)) return resolve();
      // A reader that went away never drains: its error ends the wait too.
      const done = () => {
        this.#out.off("drain", done);
        this.#out.off("error", done);
        resolve();
      };
      this.#out.once("drain", done);
      this.#out.once("error", done);
    });
  }

  #closeFor(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.closedBy = reason;
    this.#in.off("data", this.#onData);
    this.#in.pause();
    this.onclose?.();
  }

  async close(): Promise<void> {
    this.#closeFor("closed by the server");
  }
}
