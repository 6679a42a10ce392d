// The benchmarks' app under test: bench/pages/ plus one JSON endpoint the sign-up form posts to.
import { extname, join, resolve, sep } from "node:path";

export const PAGES_DIR = resolve(import.meta.dir, "pages");

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
};

export function startServer(): { url: string; stop(): void } {
  let nextId = 1001;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const { pathname } = new URL(req.url);
      if (pathname === "/api/signup" && req.method === "POST") {
        const body = (await req.json()) as Record<string, unknown>;
        const plan = String(body["plan"] ?? "");
        return Response.json({
          id: `A-${nextId++}`,
          name: `${String(body["first"] ?? "")} ${String(body["last"] ?? "")}`.trim(),
          plan: plan.charAt(0).toUpperCase() + plan.slice(1),
        });
      }
      const rel = pathname.endsWith("/") ? `${pathname}index.html` : pathname;
      let file: string;
      try {
        file = resolve(join(PAGES_DIR, decodeURIComponent(rel)));
      } catch {
        return new Response("bad path", { status: 400 });
      }
      if (!file.startsWith(PAGES_DIR + sep) || !(await Bun.file(file).exists())) return new Response(`not found: ${pathname}`, { status: 404 });
      return new Response(Bun.file(file), {
        headers: { "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" },
      });
    },
  });
  return { url: `http://127.0.0.1:${String(server.port)}`, stop: () => server.stop(true) };
}
