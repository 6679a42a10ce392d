// `flowproof capture`: an HTTP sink that answers 200 to anything and saves each request as
// req-NNN.txt, byte for byte as it arrived. It reads the raw TCP stream (node:net) rather than a
// server API, since those normalise header order and case. Typed options in, each request handed
// to a callback; never prints.
import { mkdirSync, readdirSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join, resolve } from "node:path";
import { FlowproofError, diagnostic } from "../diagnostics/diagnostic.ts";
import { writeFileAtomic } from "../diagnostics/atomic-write.ts";
import { RequestParser } from "../capture/http-parser.ts";
import { LIMITS } from "../diagnostics/limits.ts";
import { captureRecord, printedText, requestText, type CaptureRecord } from "../capture/format.ts";

export interface CaptureOptions {
  /** 0 takes a free port. */
  readonly port: number;
  /** Default {@link DEFAULT_CAPTURE_HOST}: this machine only. */
  readonly host?: string;
  /** Where req-NNN.txt files go (created when missing); default {@link DEFAULT_CAPTURE_DIR}. */
  readonly out?: string;
}

export const DEFAULT_CAPTURE_HOST = "127.0.0.1";
export const DEFAULT_CAPTURE_DIR = "captured";

/** One saved request: its `--json` record and the text printed for a person. */
export interface CapturedRequest {
  readonly record: CaptureRecord;
  readonly text: string;
}

export interface CaptureEvents {
  readonly onRequest: (request: CapturedRequest) => void;
  /** A connection that sent something other than HTTP/1.x, or closed in the middle of a request. */
  readonly onProblem?: (message: string) => void;
}

export interface CaptureSink {
  readonly host: string;
  /** The port listened on (the one chosen, when 0 was asked for). */
  readonly port: number;
  /** `http://host:port`. */
  readonly url: string;
  /** Absolute path of the directory requests are saved in. */
  readonly outDir: string;
  /** Requests saved so far. */
  readonly count: number;
  /** Stops listening and closes every open connection. */
  close(): Promise<void>;
}

const RESPONSE_BODY = "captured\n";

const response = (status: "200 OK" | "400 Bad Request", close: boolean, http10: boolean): string =>
  `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(RESPONSE_BODY)}\r\n${close ? "Connection: close\r\n" : http10 ? "Connection: keep-alive\r\n" : ""}\r\n${RESPONSE_BODY}`;

/** The number after the highest req-NNN.txt already in `dir`: a restarted sink never overwrites one. */
function nextNumber(dir: string): number {
  const taken = readdirSync(dir)
    .map((f) => /^req-(\d+)\.txt$/.exec(f)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  return taken.length === 0 ? 1 : Math.max(...taken) + 1;
}

/** Starts the sink and resolves once it listens. Throws `listen-failed` when it cannot. */
export async function startCapture(options: CaptureOptions, events: CaptureEvents): Promise<CaptureSink> {
  const host = options.host ?? DEFAULT_CAPTURE_HOST;
  const outDir = resolve(options.out ?? DEFAULT_CAPTURE_DIR);
  try {
    mkdirSync(outDir, { recursive: true });
  } catch (error) {
    throw new FlowproofError(
      diagnostic("io-error", `cannot create ${outDir}: ${(error as Error).message}`, { hint: "pass --out with a directory you can write to" }),
      { cause: error },
    );
  }
  let next = nextNumber(outDir);
  let count = 0;
  const sockets = new Set<Socket>();

  const serve = (socket: Socket) => {
    sockets.add(socket);
    const parser = new RequestParser({ keepBodyBytes: LIMITS.captureDumpBytes.value });
    // Bytes after a request that closes the connection are not read.
    let ended = false;
    socket.on("data", (chunk: Buffer) => {
      if (ended) return;
      for (const event of parser.push(new Uint8Array(chunk))) {
        if (ended) break;
        if (event.kind === "continue") socket.write("HTTP/1.1 100 Continue\r\n\r\n");
        else if (event.kind === "error") {
          events.onProblem?.(`${socket.remoteAddress ?? "a client"}: ${event.message}; answered 400 and closed the connection`);
          socket.end(response("400 Bad Request", true, false));
          ended = true;
        } else {
          const req = event.request;
          const seq = next++;
          const file = join(outDir, `req-${String(seq).padStart(3, "0")}.txt`);
          const record = captureRecord(req, seq, file);
          writeFileAtomic(file, requestText(req, record));
          count++;
          events.onRequest({ record, text: printedText(req, record) });
          const connection = req.headers
            .filter(([n]) => n.toLowerCase() === "connection")
            .map(([, v]) => v.toLowerCase())
            .join(",");
          const http10 = req.version === "HTTP/1.0";
          const close = connection.includes("close") || (http10 && !connection.includes("keep-alive"));
          if (close) {
            socket.end(response("200 OK", true, http10));
            ended = true;
          } else socket.write(response("200 OK", false, http10));
        }
      }
    });
    socket.on("end", () => {
      if (!ended && !parser.idle)
        events.onProblem?.(`${socket.remoteAddress ?? "a client"} closed the connection in the middle of a request; nothing was saved for it`);
      socket.end();
    });
    // A client that resets its connection is its own business; the sink goes on serving others.
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
  };

  const server: Server = createServer(serve);
  await new Promise<void>((ok, fail) => {
    server.once("error", (error: NodeJS.ErrnoException) => fail(listenError(error, host, options.port)));
    server.listen({ host, port: options.port }, () => ok());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    host,
    port,
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    outDir,
    get count() {
      return count;
    },
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
}

function listenError(error: NodeJS.ErrnoException, host: string, port: number): FlowproofError {
  const where = `${host}:${port}`;
  const [message, hint] =
    error.code === "EADDRINUSE"
      ? [`${where} is already in use`, "pass another --port, or --port 0 to take a free one"]
      : error.code === "EACCES"
        ? [`listening on ${where} needs privileges flowproof does not have`, "pass a --port above 1023"]
        : error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND" || error.code === "EAI_NONAME"
          ? [`${host} is not an address of this machine`, "pass --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface)"]
          : [`cannot listen on ${where}: ${error.message}`, "check --host and --port"];
  return new FlowproofError(diagnostic("listen-failed", `capture: ${message}`, { hint }), { cause: error });
}
