import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { contentTypeFor, startServer, type TestServer } from "./server.ts";

let server: TestServer | undefined;
afterEach(() => {
  server?.stop();
  server = undefined;
});

describe("startServer", () => {
  test("serves fixture pages from test/fixtures/pages by default", async () => {
    server = await startServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.url}/greeter.html`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toContain('id="greet"');
  });

  test("serves files from a given root with content types by extension", async () => {
    const root = mkdtempSync(join(tmpdir(), "flowproof-server-"));
    try {
      writeFileSync(join(root, "report.csv"), "a,b\n1,2\n");
      writeFileSync(join(root, "index.html"), "<h1>home</h1>");
      server = await startServer(root);
      const csv = await fetch(`${server.url}/report.csv`);
      expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(await csv.text()).toBe("a,b\n1,2\n");
      const home = await fetch(`${server.url}/`);
      expect(await home.text()).toBe("<h1>home</h1>");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("answers a route with its handler instead of a file", async () => {
    server = await startServer();
    server.setRoute("/api/rates", () => Response.json({ rate: 1.23 }));
    const res = await fetch(`${server.url}/api/rates?currency=EUR`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ rate: 1.23 });
  });

  test("returns 404 for a missing file", async () => {
    server = await startServer();
    const res = await fetch(`${server.url}/no-such-page.html`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("not found: /no-such-page.html");
  });

  test("refuses an encoded path that escapes the root", async () => {
    server = await startServer();
    const res = await fetch(`${server.url}/..%2F..%2F..%2Fpackage.json`);
    expect(res.status).toBe(404);
  });

  test("resolves waitForRequest with a readable clone of the next request", async () => {
    server = await startServer();
    server.setRoute("/api/orders", async (req) => Response.json({ echoed: await req.text() }));
    const seen = server.waitForRequest("api/orders");
    const res = await fetch(`${server.url}/api/orders`, { method: "POST", body: "qty=2" });
    expect(await res.json()).toEqual({ echoed: "qty=2" });
    const req = await seen;
    expect(req.method).toBe("POST");
    expect(await req.text()).toBe("qty=2");
  });

  test("holds a delayed path's response for at least the delay", async () => {
    server = await startServer();
    server.delay("/greeter.html", 150);
    const startMs = performance.now();
    const res = await fetch(`${server.url}/greeter.html`);
    expect(res.status).toBe(200);
    expect(performance.now() - startMs).toBeGreaterThanOrEqual(140);
  });

  test("rejects pending waitForRequest calls when stopped", async () => {
    const s = await startServer();
    const pending = s.waitForRequest("/never.html");
    s.stop();
    await expect(pending).rejects.toThrow("test server stopped before a request for /never.html arrived");
  });
});

describe("contentTypeFor", () => {
  test.each([
    ["page.html", "text/html; charset=utf-8"],
    ["app.js", "text/javascript; charset=utf-8"],
    ["style.css", "text/css; charset=utf-8"],
    ["data.json", "application/json; charset=utf-8"],
    ["shot.PNG", "image/png"],
    ["report.csv", "text/csv; charset=utf-8"],
    ["notes.txt", "text/plain; charset=utf-8"],
    ["blob.bin", "application/octet-stream"],
  ])("maps %s to %s", (name, type) => {
    expect(contentTypeFor(name)).toBe(type);
  });
});
