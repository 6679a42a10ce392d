import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFirefox, type FirefoxBed } from "../../../test/support/firefox.ts";
import { startServer, type TestServer } from "../../../test/support/server.ts";
import { BidiEffects, countsAsEffect, FIREFOX_EFFECT_KINDS } from "./effects.ts";
import { BidiNavigation } from "./navigation.ts";
import { PAGE_EVENTS } from "./page-start.ts";

describe("which requests are an action's effect", () => {
  test("a script's requests, and a document's writes (a form post); never a page's images or a link's GET", () => {
    expect(countsAsEffect("GET", "", false)).toBe(true);
    expect(countsAsEffect("POST", "", false)).toBe(true);
    expect(countsAsEffect("POST", "document", true)).toBe(true);
    expect(countsAsEffect("GET", "document", true)).toBe(false);
    expect(countsAsEffect("GET", "image", false)).toBe(false);
    expect(countsAsEffect("POST", "image", false)).toBe(false);
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
        new Response(
          `<title>App</title><img src="/pixel.png"><button id="save" onclick="fetch('/api/orders/1234', { method: 'POST' }).then(() => location.href = '/done.html')">Save</button>`,
          { headers: { "content-type": "text/html" } },
        ),
    );
    server.setRoute("/api/orders/1234", () => new Response("{}", { headers: { "content-type": "application/json" } }));
    server.setRoute("/done.html", () => new Response("<title>Done</title>", { headers: { "content-type": "text/html" } }));
  });
  afterAll(async () => {
    await bed?.close();
    server?.stop();
  });

  test("observes the request a click sent and the page it led to, and is idle once both are done", async () => {
    const page = await bed.page(PAGE_EVENTS);
    const nav = new BidiNavigation(bed.connection, page);
    const offs = nav.listen();
    await nav.navigate(`${server.url}/app.html`, 10_000);
    const effects = new BidiEffects(bed.connection, page.context, nav);
    const watch = await effects.watch();
    expect(watch.kinds).toEqual(FIREFOX_EFFECT_KINDS);
    await page.evaluate("document.getElementById('save').click()");
    let reading = await watch.read();
    const until = Date.now() + 20_000;
    while (Date.now() < until && !(reading.effect.navigated && reading.idleMs > 200)) {
      await Bun.sleep(50);
      reading = await watch.read();
    }
    expect(reading.effect).toEqual({ navigated: "/done.html", requests: ["POST /api/orders/:id"] });
    await watch.stop();
    await effects.dispose();
    offs.forEach((o) => o());
  }, 60_000);
});
