import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFirefox, type FirefoxBed } from "../../../test/support/firefox.ts";
import { startServer, type TestServer } from "../../../test/support/server.ts";
import { BidiNavigation, NAVIGATION_EVENTS, withinMs } from "./navigation.ts";

let bed: FirefoxBed;
let server: TestServer;
beforeAll(async () => {
  bed = await startFirefox();
  server = await startServer();
  server.setRoute("/a.html", () => new Response('<title>A</title><a href="/b.html">to b</a>', { headers: { "content-type": "text/html" } }));
  server.setRoute("/b.html", () => new Response("<title>B</title><p>B page</p>", { headers: { "content-type": "text/html" } }));
  server.setRoute("/boom.html", () => new Response("<title>Boom</title>", { status: 503, headers: { "content-type": "text/html" } }));
  server.setRoute("/dl.html", () => new Response('<a href="/file.csv">get</a>', { headers: { "content-type": "text/html" } }));
  server.setRoute("/file.csv", () => new Response("a\n", { headers: { "content-type": "text/csv", "content-disposition": "attachment; filename=f.csv" } }));
  server.setRoute("/slow.html", () => new Promise<Response>(() => undefined));
});
afterAll(async () => {
  await bed?.close();
  server?.stop();
});

async function opened() {
  const page = await bed.page([...NAVIGATION_EVENTS, "browsingContext.downloadWillBegin"]);
  const nav = new BidiNavigation(bed.connection, page);
  const offs = nav.listen();
  return { page, nav, off: () => offs.forEach((o) => o()) };
}

test("withinMs answers the value, or undefined once the time is up", async () => {
  expect(await withinMs(Promise.resolve(1), 1000)).toBe(1);
  expect(await withinMs(new Promise(() => undefined), 10)).toBeUndefined();
});

test("opens a page; a server error and an unreachable address fail for good, naming the URL", async () => {
  const { page, nav, off } = await opened();
  expect(await nav.navigate(`${server.url}/a.html`, 10_000)).toEqual({ ok: true, value: undefined });
  expect(await page.evaluate("document.title")).toBe("A");
  const boom = await nav.navigate(`${server.url}/boom.html`, 10_000);
  expect(boom).toMatchObject({ ok: false, failed: "not-found", retryable: false });
  // In Chromium's words.
  expect(boom.ok ? "" : boom.detail).toBe(
    `${server.url}/boom.html answered HTTP 503 Service Unavailable: the app under test is running but could not serve the page (its log says why)`,
  );
  const gone = await nav.navigate("http://127.0.0.1:9/nothing", 10_000);
  expect(gone).toMatchObject({ ok: false, failed: "not-found", retryable: false });
  expect(gone.ok ? "" : gone.detail).toContain("http://127.0.0.1:9/nothing");
  off();
}, 60_000);

test("a server that never answers fails the navigation at its bound", async () => {
  const { nav, off } = await opened();
  const started = performance.now();
  const r = await nav.navigate(`${server.url}/slow.html`, 1500);
  expect(r).toMatchObject({ ok: false, failed: "attached", retryable: false });
  expect(performance.now() - started).toBeLessThan(10_000);
  off();
}, 60_000);

test("follows a navigation input started, and goes back and forward through history", async () => {
  const { page, nav, off } = await opened();
  await nav.navigate(`${server.url}/a.html`, 10_000);
  const seen: string[] = [];
  const stop = nav.onNavigated((url) => seen.push(url));
  await page.evaluate("document.querySelector('a').click()");
  await nav.afterInput();
  await nav.settle();
  expect(await page.evaluate("document.title")).toBe("B");
  expect(seen.some((u) => u.endsWith("/b.html"))).toBe(true);
  stop();
  expect(await nav.history("back", 10_000)).toEqual({ ok: true, value: undefined });
  expect(await page.evaluate("document.title")).toBe("A");
  expect(await nav.history("forward", 10_000)).toEqual({ ok: true, value: undefined });
  expect(await page.evaluate("document.title")).toBe("B");
  expect(await nav.reload(10_000)).toEqual({ ok: true, value: undefined });
  expect(await page.evaluate("document.title")).toBe("B");
  off();
}, 60_000);

test("a navigation that turns into a download ends there, without waiting for a document", async () => {
  const { page, nav, off } = await opened();
  await nav.navigate(`${server.url}/dl.html`, 10_000);
  await page.evaluate("document.querySelector('a').click()");
  const started = performance.now();
  await nav.afterInput();
  await nav.settle(20_000);
  expect(performance.now() - started).toBeLessThan(10_000);
  expect(nav.loading).toBe(false);
  expect(nav.takeStalled()).toBeUndefined();
  off();
}, 60_000);

test("going back past the flow's first page, or forward with nothing gone back from, fails in Chromium's words", async () => {
  const { nav, off } = await opened();
  await nav.navigate(`${server.url}/a.html`, 10_000);
  expect(await nav.history("back", 10_000)).toEqual({
    ok: false,
    failed: "not-found",
    detail: "there is no earlier page to go back to in this flow's history",
    retryable: false,
  });
  expect(await nav.history("forward", 10_000)).toEqual({
    ok: false,
    failed: "not-found",
    detail: "there is no later page to go forward to (nothing was gone back from)",
    retryable: false,
  });
  off();
}, 60_000);
