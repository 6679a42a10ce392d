import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFirefox, type FirefoxBed } from "../../../test/support/firefox.ts";
import { startServer, type TestServer } from "../../../test/support/server.ts";
import { WEB_EFFECT_KINDS } from "../effects.ts";
import { TASK_ORIGINS_SCRIPT } from "../task-origins.ts";
import { bidiTap } from "./connection.ts";
import { BACKGROUND_BINDING_PRELOAD, BidiEffects, countsAsEffect, FIREFOX_EFFECT_KINDS } from "./effects.ts";
import { BidiNavigation } from "./navigation.ts";
import type { BidiPage } from "./page.ts";
import { PAGE_EVENTS, preloadOf } from "./page-start.ts";

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
    server.setRoute(
      "/panel.html",
      () =>
        new Response(
          `<title>Panel</title><input id="name"><section><button id="more" aria-expanded="false" onclick="this.setAttribute('aria-expanded', 'true'); document.getElementById('panel').hidden = false">More</button><div id="panel" hidden>Free</div></section><p id="clock">0</p><button id="warn" onclick="alert('Careful')">Warn</button>
<script>setInterval(() => {
  document.getElementById("clock").textContent = String(Date.now());
  if (window.routeNow && location.pathname !== "/routed") history.pushState({}, "", "/routed");
}, 20);</script>`,
          { headers: { "content-type": "text/html" } },
        ),
    );
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
    expect(FIREFOX_EFFECT_KINDS).toEqual(WEB_EFFECT_KINDS);
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

  /** A page with the preload scripts effects need (the task tags, the background-navigation binding), at the panel. */
  async function panelPage(): Promise<{ page: BidiPage; nav: BidiNavigation; offs: Array<() => void> }> {
    const page = await bed.page(PAGE_EVENTS);
    await bed.connection.send("script.addPreloadScript", { functionDeclaration: preloadOf(TASK_ORIGINS_SCRIPT), contexts: [page.context] });
    await bed.connection.send("script.addPreloadScript", { ...BACKGROUND_BINDING_PRELOAD, contexts: [page.context] });
    const nav = new BidiNavigation(bed.connection, page);
    const offs = nav.listen();
    await nav.navigate(`${server.url}/panel.html`, 10_000);
    return { page, nav, offs };
  }

  /** Reads `watch` until it has been idle `quietMs` (the page's own clock keeps the DOM busy, so idle is bounded by time too). */
  async function settled(watch: Awaited<ReturnType<BidiEffects["watch"]>>, ms = 800) {
    const until = Date.now() + ms;
    let reading = await watch.read();
    while (Date.now() < until) {
      await Bun.sleep(50);
      reading = await watch.read();
    }
    return reading;
  }

  test("observes the page's own kinds: the target's state, focus and the DOM near it, never the app's own timers and routing", async () => {
    const { page, nav, offs } = await panelPage();
    const effects = new BidiEffects(bed.connection, page.context, nav);
    const click = await effects.watch();
    // Trusted input, as a step gives it: the observer takes its target from the first input event.
    const at = await page.evaluate<{ x: number; y: number }>(
      "(() => { const r = document.getElementById('more').getBoundingClientRect(); return { x: r.x + 5, y: r.y + 5 }; })()",
    );
    await bed.connection.send("input.performActions", {
      context: page.context,
      actions: [
        {
          type: "pointer",
          id: "mouse",
          actions: [
            { type: "pointerMove", x: Math.round((at as { x: number }).x), y: Math.round((at as { y: number }).y) },
            { type: "pointerDown", button: 0 },
            { type: "pointerUp", button: 0 },
          ],
        },
      ],
    });
    // The app's router moves on its interval, scheduled at load: before the step.
    await page.evaluate("window.routeNow = true");
    const clicked = await settled(click);
    expect(clicked.effect).toEqual({ target: ["expanded"], focus: true, dom: "near" });
    expect(await page.evaluate<string>("location.pathname")).toBe("/routed");
    expect(clicked.withAppsOwn).toMatchObject({ navigated: "/routed", dom: "near" });
    await click.stop();
    const idle = await effects.watch();
    const still = await settled(idle, 300);
    expect(still.effect).toEqual({});
    expect(still.withAppsOwn?.dom).toBe("page");
    await idle.stop();
    await effects.dispose();
    offs.forEach((o) => o());
  }, 60_000);

  test("the round trip after an action's input is the watch's first reading: the step asks the page once, again only when an event came since", async () => {
    const page = await bed.page(PAGE_EVENTS);
    await bed.connection.send("script.addPreloadScript", { functionDeclaration: preloadOf(TASK_ORIGINS_SCRIPT), contexts: [page.context] });
    await bed.connection.send("script.addPreloadScript", { ...BACKGROUND_BINDING_PRELOAD, contexts: [page.context] });
    let effects: BidiEffects | undefined;
    const nav = new BidiNavigation(bed.connection, page, () => effects?.readAfterInput() ?? page.evaluate("0"));
    const offs = nav.listen();
    await nav.navigate(`${server.url}/panel.html`, 10_000);
    effects = new BidiEffects(bed.connection, page.context, nav);
    const at = (await page.evaluate(
      "(() => { const r = document.getElementById('more').getBoundingClientRect(); return [Math.round(r.x + 5), Math.round(r.y + 5)]; })()",
    )) as [number, number];
    const click = () =>
      bed.connection.send("input.performActions", {
        context: page.context,
        actions: [
          {
            type: "pointer",
            id: "mouse",
            actions: [
              { type: "pointerMove", x: at[0], y: at[1] },
              { type: "pointerDown", button: 0 },
              { type: "pointerUp", button: 0 },
            ],
          },
        ],
      });
    const calls: string[] = [];
    const first = await effects.watch();
    await click();
    bidiTap.onCall = (c) => calls.push(c.method);
    try {
      await nav.afterInput();
      expect(calls).toEqual(["script.callFunction"]);
      expect((await first.read()).effect.target).toEqual(["expanded"]);
      expect(calls).toEqual(["script.callFunction"]);
      await first.stop();
      // A request after the early reading: the first read asks the page again.
      calls.length = 0;
      const second = await effects.watch();
      await page.evaluate("document.getElementById('panel').hidden = true");
      await nav.afterInput();
      await page.evaluate("fetch('/done.html'), 0");
      const until = Date.now() + 10_000;
      let reading = await second.read();
      while (Date.now() < until && reading.effect.requests === undefined) {
        await Bun.sleep(20);
        reading = await second.read();
      }
      expect(reading.effect.requests).toEqual(["GET /done.html"]);
      expect(calls.filter((m) => m === "script.callFunction").length).toBeGreaterThanOrEqual(3); // install, early reading, a read after the request
      await second.stop();
    } finally {
      bidiTap.onCall = undefined;
    }
    await effects.dispose();
    offs.forEach((o) => o());
  }, 60_000);

  test("observes the dialog an action opened", async () => {
    const { page, nav, offs } = await panelPage();
    const answered = bed.connection.on("browsingContext.userPromptOpened", (p) => {
      if (p["context"] === page.context)
        void bed.connection.send("browsingContext.handleUserPrompt", { context: page.context, accept: true }).catch(() => undefined);
    });
    const effects = new BidiEffects(bed.connection, page.context, nav);
    const watch = await effects.watch();
    await page.evaluate("setTimeout(() => document.getElementById('warn').click(), 0), 0");
    const until = Date.now() + 10_000;
    let reading = await watch.read();
    while (Date.now() < until && reading.effect.dialog === undefined) {
      await Bun.sleep(50);
      reading = await watch.read();
    }
    expect(reading.effect.dialog).toBe("alert");
    await watch.stop();
    await effects.dispose();
    answered();
    offs.forEach((o) => o());
  }, 60_000);

  test("each watch stops the one before it, and starts even when that one's document is gone", async () => {
    const { page, nav, offs } = await panelPage();
    const effects = new BidiEffects(bed.connection, page.context, nav);
    const clickMore = async () => {
      const at = await page.evaluate<{ x: number; y: number }>(
        "(() => { const r = document.getElementById('more').getBoundingClientRect(); return { x: Math.round(r.x + 5), y: Math.round(r.y + 5) }; })()",
      );
      const { x, y } = at as { x: number; y: number };
      await bed.connection.send("input.performActions", {
        context: page.context,
        actions: [
          {
            type: "pointer",
            id: "mouse",
            actions: [
              { type: "pointerMove", x, y },
              { type: "pointerDown", button: 0 },
              { type: "pointerUp", button: 0 },
            ],
          },
        ],
      });
    };
    const first = await effects.watch();
    await clickMore();
    expect((await first.read()).effect.target).toEqual(["expanded"]);
    await first.stop();
    // A new document: the ended observer's handle went with the old one.
    await nav.navigate(`${server.url}/panel.html`, 10_000);
    const second = await effects.watch();
    await clickMore();
    expect((await second.read()).effect.target).toEqual(["expanded"]);
    await second.stop();
    // Disposing stops the last observer too: nothing of it stays hooked into the page.
    const hooked = () => page.evaluate<boolean>("window.__flowproofTasks.around !== undefined");
    expect(await hooked()).toBe(true);
    await effects.dispose();
    const until = Date.now() + 10_000;
    while (Date.now() < until && (await hooked())) await Bun.sleep(20);
    expect(await hooked()).toBe(false);
    offs.forEach((o) => o());
  }, 60_000);
});
