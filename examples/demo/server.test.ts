import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startDemoServer, type DemoServer } from "./server.ts";

let demo: DemoServer;
beforeAll(async () => {
  demo = await startDemoServer();
});
afterAll(() => demo.stop());

describe("startDemoServer", () => {
  test("listens on loopback with a base URL without a trailing slash", () => {
    expect(demo.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test.each([
    ["/", "<title>Acme Orders</title>"],
    ["/index.html", 'placeholder="Your name"'],
    ["/new-order.html", 'value="Place order"'],
    ["/orders.html", '<table aria-label="Orders">'],
  ])("serves %s as HTML", async (path, marker) => {
    const res = await fetch(`${demo.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toContain(marker);
  });

  test("serves the stylesheet as CSS", async () => {
    const res = await fetch(`${demo.url}/style.css`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/css; charset=utf-8");
  });

  test("returns 404 for a missing page and for paths outside public/", async () => {
    expect((await fetch(`${demo.url}/nope.html`)).status).toBe(404);
    expect((await fetch(`${demo.url}/..%2Fserver.ts`)).status).toBe(404);
  });

  test("refuses writes with 405", async () => {
    const res = await fetch(`${demo.url}/orders.html`, { method: "POST", body: "x" });
    expect(res.status).toBe(405);
  });

  test("prints its URL when run as a script", async () => {
    const proc = Bun.spawn([process.execPath, `${import.meta.dir}/server.ts`, "0"], { stdout: "pipe", stderr: "pipe" });
    try {
      const reader = proc.stdout.getReader();
      const { value } = await reader.read();
      const line = new TextDecoder().decode(value);
      expect(line).toMatch(/^demo app on http:\/\/127\.0\.0\.1:\d+\n/);
      const url = line.trim().slice("demo app on ".length);
      expect((await fetch(`${url}/orders.html`)).status).toBe(200);
    } finally {
      proc.kill();
      await proc.exited;
    }
  });
});
