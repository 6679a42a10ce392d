import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFirefox, type FirefoxBed } from "../../../test/support/firefox.ts";
import { startServer, type TestServer } from "../../../test/support/server.ts";
import { interceptFirefoxRequests } from "./mocks.ts";

let bed: FirefoxBed;
let server: TestServer;
let served = 0;
beforeAll(async () => {
  bed = await startFirefox();
  server = await startServer();
  server.setRoute("/app.html", () => new Response("<title>App</title>", { headers: { "content-type": "text/html" } }));
  server.setRoute("/api/real", () => {
    served++;
    return new Response("real", { headers: { "content-type": "text/plain" } });
  });
});
afterAll(async () => {
  await bed?.close();
  server?.stop();
});

test("answers a matching request from its rule (JSON, status), lets every other one through, and stops when told", async () => {
  const page = await bed.page(["network.beforeRequestSent"]);
  const stop = await interceptFirefoxRequests(bed.connection, page.context, [
    { url_contains: "/api/rates", body: { rate: 1.23 } },
    { url_contains: "/api/missing", method: "POST", status: 404, body: "gone" },
  ]);
  await bed.connection.send("browsingContext.navigate", { context: page.context, url: `${server.url}/app.html`, wait: "complete" });
  const read = (path: string, method = "GET") =>
    page.evaluate(
      `fetch(${JSON.stringify(path)}, { method: ${JSON.stringify(method)} }).then(async (r) => [r.status, r.headers.get("content-type"), await r.text()])`,
    );
  expect(await read("/api/rates")).toEqual([200, "application/json", '{"rate":1.23}']);
  expect(await read("/api/missing", "POST")).toEqual([404, "text/plain; charset=utf-8", "gone"]);
  expect(await read("/api/real")).toEqual([200, "text/plain", "real"]);
  expect(served).toBe(1);
  stop();
  // Once stopped, nothing is paused any more: the page's own server answers (here: no such route).
  const after = (await read("/api/rates")) as [number];
  expect(after[0]).not.toBe(200);
}, 60_000);

test("no rules install no intercept", async () => {
  const page = await bed.page();
  const stop = await interceptFirefoxRequests(bed.connection, page.context, []);
  stop();
  await bed.connection.send("browsingContext.navigate", { context: page.context, url: `${server.url}/app.html`, wait: "complete" });
  expect(await page.evaluate("document.title")).toBe("App");
}, 60_000);
