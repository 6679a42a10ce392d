import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { requireChromium } from "../../test/support/chromium.ts";
import { SessionPool } from "./session-pool.ts";
import { openMultiSurface, SurfaceActivationError, SurfaceSet, surfaceEntries, surfacesHeader } from "./surface-set.ts";
import type { OpenedSurface } from "./surface.ts";
import type { AppDriver } from "../plugins/api.ts";
import { parseTemplate } from "../grammar/index.ts";
import { builtinCatalog } from "../../test/support/surfaces.ts";
import { createRunContext } from "./project-plugins.ts";
import { NO_PLUGINS } from "../plugins/loader.ts";
import { Lifecycle } from "../plugins/lifecycle.ts";

/** The run context these tests open surfaces through: the built-in adapters, a lifecycle of the test's own. */
const context = createRunContext(NO_PLUGINS, new Lifecycle());

const NO_LAUNCH = { launchAt: () => ({ config: {}, context: {} }) };
const web = (url: string) => ({ kind: "web", ui: true, url, ...NO_LAUNCH });
const entry = (kind: string) => ({ kind, ui: kind !== "api", ...NO_LAUNCH });

let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  requireChromium();
  a = await startServer();
  b = await startServer();
});
afterAll(() => {
  a.stop();
  b.stop();
});

describe("SurfaceSet", () => {
  test("launches surfaces lazily, forwards to the active one and keeps each session alive", async () => {
    const pool = new SessionPool();
    let launched = 0;
    const multi = openMultiSurface(
      { one: web(`${a.url}/greeter.html`), two: web(`${b.url}/counter.html`) },
      (e) => {
        launched++;
        return pool.open(e.kind, "/tmp/x.flow.yaml", () => undefined, context);
      },
      () => pool.close(),
    );
    try {
      expect(await multi.start("one")).toEqual({ ok: true });
      expect(launched).toBe(1);
      expect(multi.set.baseUrl).toBe(`${a.url}/greeter.html`);
      expect((await multi.set.fill([{ tier: "native_id", provenance: "recorded", payload: { css: "#name" } }], "Ada")).ok).toBe(true);
      await multi.set.activate("two");
      expect(launched).toBe(2);
      expect((await multi.set.check([], { kind: "title", op: "equals", value: "Counter" })).pass).toBe(true);
      await multi.set.activate("one");
      expect(launched).toBe(2);
      // The first surface kept its page: the typed name is still there.
      expect(
        (await multi.set.check([{ tier: "native_id", provenance: "recorded", payload: { css: "#name" } }], { kind: "text_contains", text: "Ada" })).pass,
      ).toBe(true);
      await expect(multi.set.activate("three")).rejects.toBeInstanceOf(SurfaceActivationError);
      // A web surface can hold input for a capture, but the set never does: the recorder waits.
      expect(multi.set.holdInput(Promise.resolve())).toBe(false);
    } finally {
      await multi.surface.driver.close();
      await multi.surface.session.close();
    }
  });
  test("a surface whose page does not open fails its start with the reason", async () => {
    const pool = new SessionPool();
    const multi = openMultiSurface(
      { down: web("http://127.0.0.1:9/") },
      (e) => pool.open(e.kind, "/tmp/x.flow.yaml", () => undefined, context),
      () => pool.close(),
    );
    try {
      const r = await multi.start("down");
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.detail).toContain("surface `down` could not open http://127.0.0.1:9/");
    } finally {
      await multi.surface.driver.close();
      await multi.surface.session.close();
    }
  });
});

describe("surfacesHeader / surfaceEntries", () => {
  const url = (raw: string) => {
    const t = parseTemplate(raw);
    if (!t.ok) throw new Error(raw);
    return t.value;
  };
  const catalog = builtinCatalog();
  test("the header keeps url and browser as written; entries resolve them, an api surface gets neither", () => {
    const header = surfacesHeader(
      {
        shop: { app: "web", url: url("${SHOP}/cart"), keys: { browser: { viewport: { width: 390, height: 700 } } } },
        backend: { app: "api", keys: {} },
      },
      catalog,
    );
    expect(header).toEqual({
      shop: { name: "shop", adapter: "web", url: "${SHOP}/cart", browser: { viewport: { width: 390, height: 700 } } },
      backend: { name: "backend", adapter: "api" },
    });
    const secrets = new Map<string, string>();
    const entries = surfaceEntries(header, { top: { browser: { user_agent: "flow-level" }, mock: [{ url_contains: "/x" }] }, spec: {} }, catalog, {
      flowPath: "/tmp/x.flow.yaml",
      env: { SHOP: "http://127.0.0.1:9" },
      secrets,
    });
    expect(entries["shop"]).toMatchObject({ kind: "web", ui: true, url: "http://127.0.0.1:9/cart" });
    // The surface's own `browser:` wins outright over the flow's; the flow's `mock:` applies to every web surface.
    expect(entries["shop"]!.launchAt(new Map()).config).toEqual({ browser: { viewport: { width: 390, height: 700 } }, mock: [{ url_contains: "/x" }] });
    expect(entries["backend"]).toMatchObject({ kind: "api", ui: false });
    expect(entries["backend"]!.launchAt(new Map()).config).toEqual({});
  });
  test("a Windows app surface: command, title and geometry as written in the header; the command resolves ${captured.x} when the surface starts, never before", () => {
    const header = surfacesHeader(
      {
        gui: {
          app: "windows",
          keys: {
            command: '"Z:\\apps\\fixture.exe" --title=Order-${captured.order} --key=${KEY}',
            window_title: "Order-${captured.order}",
            window: { width: 420, height: 560, x: 0, y: 0 },
          },
        },
        notes: { app: "notepad", keys: {} },
      },
      catalog,
    );
    expect(header).toEqual({
      gui: {
        name: "gui",
        adapter: "windows",
        command: '"Z:\\apps\\fixture.exe" --title=Order-${captured.order} --key=${KEY}',
        window_title: "Order-${captured.order}",
        geometry: { width: 420, height: 560, x: 0, y: 0 },
      },
      notes: { name: "notes", adapter: "notepad" },
    });
    const secrets = new Map<string, string>();
    const entries = surfaceEntries(header, { top: {}, spec: {} }, catalog, { flowPath: "/tmp/x.flow.yaml", env: { KEY: "k-123" }, secrets });
    expect(entries["gui"]?.kind).toBe("windows");
    expect(secrets.size).toBe(0);
    expect(entries["gui"]?.launchAt(new Map([["order", "4711"]])).config).toEqual({
      command: '"Z:\\apps\\fixture.exe" --title=Order-4711 --key=k-123',
      window_title: "Order-4711",
      window: { width: 420, height: 560, x: 0, y: 0 },
    });
    // The environment value joins the secrets (redacted from every message); the capture does not.
    expect([...secrets.values()]).toEqual(["k-123"]);
    expect(entries["notes"]?.launchAt(new Map()).config).toEqual({});
    // A capture no earlier block made: the surface does not start, and the error names what is missing.
    expect(() => entries["gui"]?.launchAt(new Map())).toThrow(SurfaceActivationError);
    expect(() => entries["gui"]?.launchAt(new Map())).toThrow("surface `gui` cannot start: ${captured.order} was never remembered");
  });
});

describe("SurfaceSet.surfaceFacts", () => {
  test("reports what each opened surface records of itself, and nothing for an unopened or silent one", async () => {
    const driver = (facts?: Record<string, unknown>) => ({ ...(facts ? { appInfo: () => facts } : {}), close: async () => {} }) as unknown as AppDriver;
    const drivers: Record<string, AppDriver> = {
      gui: driver({ backend: "win32", geometry: { x: 0, y: 0, width: 400, height: 300 } }),
      backend: driver(),
      later: driver({ backend: "uia" }),
    };
    const opened: OpenedSurface[] = [];
    const set = new SurfaceSet({ gui: entry("windows"), backend: entry("api"), later: entry("windows") }, async (entry) => {
      const name = entry.kind === "api" ? "backend" : opened.length === 0 ? "gui" : "later";
      const surface = { driver: drivers[name]!, session: { launch: async () => drivers[name]!, close: async () => {} } } as unknown as OpenedSurface;
      opened.push(surface);
      return surface;
    });
    await set.activate("gui");
    await set.activate("backend");
    expect(set.surfaceFacts()).toEqual({ gui: { backend: "win32", geometry: { x: 0, y: 0, width: 400, height: 300 } } });
  });
});

describe("SurfaceSet.screenChanged", () => {
  test("answers the active surface's own signal, and yes after every switch to another surface or from one without a signal", async () => {
    const answers: Record<string, boolean[]> = { a: [false, false, false], b: [false] };
    const driver = (name: string) =>
      ({ ...(answers[name] ? { screenChanged: async () => answers[name]!.shift() ?? true } : {}), close: async () => {} }) as unknown as AppDriver;
    const names = ["a", "b", "c"];
    let next = 0;
    const set = new SurfaceSet({ a: entry("windows"), b: entry("windows"), c: entry("windows") }, async () => {
      const d = driver(names[next++]!);
      return { driver: d, session: { launch: async () => d, close: async () => {} } } as unknown as OpenedSurface;
    });
    expect(await set.screenChanged()).toBe(true); // nothing active yet
    await set.activate("a");
    expect(await set.screenChanged()).toBe(true); // first look at a
    expect(await set.screenChanged()).toBe(false); // a unchanged
    await set.activate("b");
    expect(await set.screenChanged()).toBe(true); // switched: the previous frame shows a
    await set.activate("a");
    expect(await set.screenChanged()).toBe(true); // switched back
    expect(await set.screenChanged()).toBe(true); // a's own signal ran out: yes
    await set.activate("c");
    expect(await set.screenChanged()).toBe(true);
    expect(await set.screenChanged()).toBe(true); // c has no signal
  });
});
