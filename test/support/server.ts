// Static test server for fixture pages: Bun.serve on 127.0.0.1, port 0 (Playwright's test server, shrunk).
// Test support only: no retries, no fixed sleeps; tests wait on `waitForRequest` instead.
import { extname, join, resolve, sep } from "node:path";

/** Serves the fixture pages unless a test passes its own root. */
export const DEFAULT_PAGES_ROOT = resolve(import.meta.dir, "../fixtures/pages");

export type RouteHandler = (req: Request) => Response | Promise<Response>;

export interface TestServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Answer `path` (a pathname such as `/api/rates`) with `handler` instead of a file. Replaces any earlier route. */
  setRoute(path: string, handler: RouteHandler): void;
  /** Hold every later response for `path` by `ms` before sending it; `0` removes the delay. */
  delay(path: string, ms: number): void;
  /**
   * Resolve with the next request for `path` (pathname only, query ignored).
   * The request is a clone taken before any handler ran, so its body is still readable.
   * Rejects if the server stops first.
   */
  waitForRequest(path: string): Promise<Request>;
  /** Stop listening, close open connections and reject pending `waitForRequest` calls. */
  stop(): void;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".png": "image/png",
  ".csv": "text/csv; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
};

/** The Content-Type served for a file name, by extension; unknown extensions are `application/octet-stream`. */
export function contentTypeFor(fileName: string): string {
  return CONTENT_TYPES[extname(fileName).toLowerCase()] ?? "application/octet-stream";
}

interface Waiter {
  resolve(req: Request): void;
  reject(err: Error): void;
}

/** Start a server for files under `root`. Always loopback, always an ephemeral port. */
export async function startServer(root: string = DEFAULT_PAGES_ROOT): Promise<TestServer> {
  const rootDir = resolve(root);
  const routes = new Map<string, RouteHandler>();
  const delaysMs = new Map<string, number>();
  const waiters = new Map<string, Waiter[]>();

  const serveFile = async (pathname: string): Promise<Response> => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      // A malformed escape can never name a fixture file, so it is simply not found.
      return notFound(pathname);
    }
    const relative = decoded.endsWith("/") ? `${decoded}index.html` : decoded;
    const filePath = resolve(join(rootDir, relative));
    // Encoded "..%2F" survives URL normalisation; refuse anything that escapes the root.
    if (filePath !== rootDir && !filePath.startsWith(rootDir + sep)) return notFound(pathname);
    const file = Bun.file(filePath);
    if (!(await file.exists())) return notFound(pathname);
    return new Response(file, {
      headers: { "content-type": contentTypeFor(filePath), "cache-control": "no-store" },
    });
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const { pathname } = new URL(req.url);
      const pending = waiters.get(pathname);
      if (pending !== undefined) {
        waiters.delete(pathname);
        for (const w of pending) w.resolve(req.clone());
      }
      const handler = routes.get(pathname);
      const response = handler !== undefined ? await handler(req) : await serveFile(pathname);
      const ms = delaysMs.get(pathname);
      if (ms !== undefined) await Bun.sleep(ms);
      return response;
    },
  });

  return {
    url: `http://127.0.0.1:${String(server.port)}`,
    setRoute(path, handler) {
      routes.set(normalisePath(path), handler);
    },
    delay(path, ms) {
      if (ms <= 0) delaysMs.delete(normalisePath(path));
      else delaysMs.set(normalisePath(path), ms);
    },
    waitForRequest(path) {
      const key = normalisePath(path);
      return new Promise<Request>((resolveReq, rejectReq) => {
        const list = waiters.get(key) ?? [];
        list.push({ resolve: resolveReq, reject: rejectReq });
        waiters.set(key, list);
      });
    },
    stop() {
      server.stop(true);
      for (const [path, list] of waiters) {
        for (const w of list) w.reject(new Error(`test server stopped before a request for ${path} arrived`));
      }
      waiters.clear();
    },
  };
}

function normalisePath(path: string): string {
  return path.startsWith("/") ? path : `/${path}`;
}

function notFound(pathname: string): Response {
  return new Response(`not found: ${pathname}`, {
    status: 404,
    headers: { "content-type": CONTENT_TYPES[".txt"] ?? "text/plain" },
  });
}
