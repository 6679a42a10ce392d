import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startFirefox, type FirefoxBed } from "../../../test/support/firefox.ts";
import { startServer, type TestServer } from "../../../test/support/server.ts";
import { BidiPage } from "./page.ts";
import { cookieMatches, FirefoxStorage } from "./storage.ts";

describe("cookieMatches", () => {
  test("domain and path match as a browser sends cookies", () => {
    expect(cookieMatches({ domain: "127.0.0.1", path: "/" }, "http://127.0.0.1:8080/a/b")).toBe(true);
    expect(cookieMatches({ domain: ".example.com", path: "/" }, "https://shop.example.com/")).toBe(true);
    expect(cookieMatches({ domain: "example.com", path: "/app" }, "https://example.com/apple")).toBe(false);
    expect(cookieMatches({ domain: "example.com", path: "/app" }, "https://example.com/app/x")).toBe(true);
    expect(cookieMatches({ domain: "other.com", path: "/" }, "https://example.com/")).toBe(false);
  });
});

describe("in Firefox", () => {
  let bed: FirefoxBed;
  let server: TestServer;
  beforeAll(async () => {
    bed = await startFirefox();
    server = await startServer();
    server.setRoute(
      "/app.html",
      () =>
        new Response("<title>App</title>", {
          headers: { "content-type": "text/html", "set-cookie": "sid=abc; HttpOnly; Path=/" },
        }),
    );
  });
  afterAll(async () => {
    await bed?.close();
    server?.stop();
  });

  async function storage() {
    const { userContext } = await bed.connection.send<{ userContext: string }>("browser.createUserContext", {});
    const { context } = await bed.connection.send<{ context: string }>("browsingContext.create", { type: "tab", userContext });
    const page = new BidiPage(bed.connection, context);
    return { page, store: new FirefoxStorage(page, userContext) };
  }

  test("seeds the session before the first document, judges cookie facts without values, sets and clears", async () => {
    const { page, store } = await storage();
    const unseed = await store.seed(
      { session: { cookies: [{ name: "token", value: "s3cret" }], local_storage: { cart: '["sku-1"]' } } },
      `${server.url}/app.html`,
    );
    await bed.connection.send("browsingContext.navigate", { context: page.context, url: `${server.url}/app.html`, wait: "complete" });
    await unseed();
    expect(await page.evaluate("[localStorage.getItem('cart'), document.cookie]")).toEqual(['["sku-1"]', "token=s3cret"]);
    const log: string[] = [];
    expect(await store.check({ kind: "cookie", name: "sid", fact: "http_only" }, (l) => log.push(l))).toEqual({
      pass: true,
      actual: 'cookie "sid" is httpOnly',
    });
    expect(await store.check({ kind: "cookie", name: "token", fact: "persistent" }, (l) => log.push(l))).toEqual({
      pass: false,
      actual: 'cookie "token" is a session cookie (no Expires or Max-Age)',
    });
    const count = await store.check({ kind: "cookie_count", count: 2 }, () => undefined);
    expect(count.pass).toBe(true);
    expect(count.actual).not.toContain("s3cret");
    expect(await store.setCookie("theme", "dark")).toEqual({ ok: true, value: undefined });
    expect(await page.evaluate("document.cookie.split('; ').sort()")).toEqual(["theme=dark", "token=s3cret"]);
    expect(await store.clear("cookies")).toEqual({ ok: true, value: undefined });
    expect((await store.check({ kind: "cookie_count", count: 0 }, () => undefined)).pass).toBe(true);
    expect(await store.clear("local")).toEqual({ ok: true, value: undefined });
    expect(await page.evaluate("localStorage.length")).toBe(0);
  }, 60_000);

  test("a page without an http origin has no cookies to check or set", async () => {
    const { page, store } = await storage();
    await bed.connection.send("browsingContext.navigate", { context: page.context, url: "data:text/html,<p>x</p>", wait: "complete" });
    expect((await store.check({ kind: "cookie", name: "sid", fact: "exists" }, () => undefined)).pass).toBe(false);
    expect(await store.setCookie("a", "b")).toMatchObject({ ok: false, failed: "unsupported", retryable: false });
  }, 60_000);

  test("seeds localStorage for a local file, whose origin Firefox reports as null", async () => {
    const dir = mkdtempSync(join(tmpdir(), "flowproof-ff-file-"));
    try {
      const file = join(dir, "page.html");
      writeFileSync(file, "<title>Local</title><p>local</p>");
      const url = pathToFileURL(file).href;
      const { page, store } = await storage();
      const unseed = await store.seed({ session: { local_storage: { greeting: "hello" } } }, url);
      await bed.connection.send("browsingContext.navigate", { context: page.context, url, wait: "complete" });
      await unseed();
      expect(await page.evaluate("[location.origin, localStorage.getItem('greeting')]")).toEqual(["null", "hello"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
