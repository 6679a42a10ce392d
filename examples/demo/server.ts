// The bundled "Acme Orders" demo app: static pages under public/, served on 127.0.0.1.
// Fully offline and stateless on the server (orders live in the browser's sessionStorage), so traces replay.
import { extname, join, resolve, sep } from "node:path";

const PUBLIC_DIR = resolve(import.meta.dir, "public");

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

export interface DemoServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:4173`. */
  readonly url: string;
  /** Stop listening and close open connections. */
  stop(): void;
}

/** Serve the demo app on 127.0.0.1; `port` 0 (the default) picks a free port. */
export async function startDemoServer(port = 0): Promise<DemoServer> {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port,
    async fetch(req) {
      if (req.method !== "GET" && req.method !== "HEAD") {
        return new Response("method not allowed", { status: 405, headers: { allow: "GET, HEAD" } });
      }
      return serveStatic(new URL(req.url).pathname);
    },
  });
  return {
    url: `http://127.0.0.1:${String(server.port)}`,
    stop() {
      server.stop(true);
    },
  };
}

async function serveStatic(pathname: string): Promise<Response> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape cannot name a page, so it is simply not found.
    return notFound();
  }
  const filePath = resolve(join(PUBLIC_DIR, decoded.endsWith("/") ? `${decoded}index.html` : decoded));
  // Encoded "..%2F" survives URL normalisation; refuse anything outside public/.
  if (!filePath.startsWith(PUBLIC_DIR + sep)) return notFound();
  const file = Bun.file(filePath);
  if (!(await file.exists())) return notFound();
  const type = CONTENT_TYPES[extname(filePath).toLowerCase()] ?? "application/octet-stream";
  return new Response(file, { headers: { "content-type": type, "cache-control": "no-store" } });
}

function notFound(): Response {
  return new Response("page not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
}

if (import.meta.main) {
  const arg = process.argv[2];
  const port = arg === undefined ? 0 : Number(arg);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`invalid port "${String(arg)}"; usage: bun examples/demo/server.ts [port]`);
    process.exit(2);
  }
  const { url } = await startDemoServer(port);
  console.log(`demo app on ${url}`);
}
