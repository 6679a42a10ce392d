import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { requireChromium } from "../../test/support/chromium.ts";
import { SessionPool, sharesBrowser } from "./session-pool.ts";
import { SpecError } from "../diagnostics/diagnostic.ts";
import { createRunContext } from "./project-plugins.ts";
import { NO_PLUGINS } from "../plugins/loader.ts";
import { Lifecycle } from "../plugins/lifecycle.ts";

/** The run context these tests open surfaces through: the built-in adapters, a lifecycle of the test's own. */
const context = createRunContext(NO_PLUGINS, new Lifecycle());

let server: TestServer;

/** Main browser processes started by this test process (helpers carry `--type=`). */
function browsersOfThisProcess(): number[] {
  const out: number[] = [];
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const text = readFileSync(`/proc/${e}/stat`, "utf8");
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) !== process.pid || fields[0] === "Z") continue;
      const args = readFileSync(`/proc/${e}/cmdline`, "utf8").split("\0");
      if (args.some((a) => a.startsWith("--remote-debugging-port")) && !args.some((a) => a.startsWith("--type="))) out.push(Number(e));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
beforeAll(async () => {
  requireChromium();
  server = await startServer();
});
afterAll(() => server.stop());

describe("SessionPool", () => {
  test("gives each flow its own isolated context from one shared browser", async () => {
    const pool = new SessionPool();
    try {
      const a = await pool.open("web", "/tmp/a.flow.yaml", () => undefined, context);
      const b = await pool.open("web", "/tmp/b.flow.yaml", () => undefined, context);
      await a.driver.navigate(`${server.url}/cookies.html`, 10_000);
      await b.driver.navigate(`${server.url}/greeter.html`, 10_000);
      expect((await a.driver.check([], { kind: "title", op: "equals", value: "Greeter" })).pass).toBe(false);
      expect((await b.driver.check([], { kind: "title", op: "equals", value: "Greeter" })).pass).toBe(true);
      // Closing a flow's surface leaves the shared browser running for the next flow.
      await a.driver.close();
      await a.session.close();
      const c = await pool.open("web", "/tmp/c.flow.yaml", () => undefined, context);
      expect((await c.driver.navigate(`${server.url}/greeter.html`, 10_000)).ok).toBe(true);
    } finally {
      await pool.close();
    }
  });
  test("the run's env decides whether its flows share a browser, not the process's", () => {
    expect(sharesBrowser({})).toBe(true);
    expect(sharesBrowser({ FLOWPROOF_NO_SHARED_BROWSER: "" })).toBe(false);
    expect(sharesBrowser({ FLOWPROOF_NO_SHARED_BROWSER: "1" })).toBe(false);
    process.env["FLOWPROOF_NO_SHARED_BROWSER"] = "1";
    try {
      expect(sharesBrowser({ PATH: "/usr/bin" })).toBe(true);
    } finally {
      delete process.env["FLOWPROOF_NO_SHARED_BROWSER"];
    }
  });

  test("FLOWPROOF_NO_SHARED_BROWSER gives each flow a browser of its own, closed with the flow", async () => {
    const pool = new SessionPool({ shared: sharesBrowser({ FLOWPROOF_NO_SHARED_BROWSER: "1" }) });
    const a = await pool.open("web", "/tmp/a.flow.yaml", () => undefined, context);
    const b = await pool.open("web", "/tmp/b.flow.yaml", () => undefined, context);
    try {
      // Closing a's session stops a's browser (a shared session's close would be a no-op).
      await a.session.close();
      // a's browser is gone; b's is its own and still answers.
      const gone = await a.driver.navigate(`${server.url}/greeter.html`, 2_000).then(
        (r) => r.ok,
        () => false,
      );
      expect(gone).toBe(false);
      expect((await b.driver.navigate(`${server.url}/greeter.html`, 10_000)).ok).toBe(true);
    } finally {
      await a.driver.close().catch(() => undefined);
      await b.driver.close();
      await b.session.close();
      await pool.close();
    }
  });

  test("a shared browser that died is replaced by a fresh one for the next flow", async () => {
    const pool = new SessionPool();
    try {
      const a = await pool.open("web", "/tmp/a.flow.yaml", () => undefined, context);
      expect((await a.driver.navigate(`${server.url}/greeter.html`, 10_000)).ok).toBe(true);
      const browser = browsersOfThisProcess();
      expect(browser.length).toBe(1);
      // A step waiting on the page when the browser dies: an assertion polled until it holds.
      const waiting = (async () => {
        for (;;) {
          const r = await a.driver.check([], { kind: "title", op: "equals", value: "Never" });
          if (r.pass) return;
          await Bun.sleep(20);
        }
      })();
      waiting.catch(() => undefined);
      await Bun.sleep(200);
      const killedAt = performance.now();
      process.kill(browser[0]!, "SIGKILL");
      // The flow on the dead browser errors at once, saying so.
      await expect(waiting).rejects.toThrow("the browser is gone: the browser process was killed (SIGKILL)");
      const ms = Math.round(performance.now() - killedAt);
      console.log(`browser killed -> waiting step errored in ${ms} ms`);
      expect(ms).toBeLessThan(2_000);
      await a.driver.close();
      const b = await pool.open("web", "/tmp/b.flow.yaml", () => undefined, context);
      expect((await b.driver.navigate(`${server.url}/greeter.html`, 10_000)).ok).toBe(true);
      expect((await b.driver.check([], { kind: "title", op: "equals", value: "Greeter" })).pass).toBe(true);
      expect(browsersOfThisProcess()).not.toContain(browser[0]!);
      await b.driver.close();
    } finally {
      await pool.close();
    }
    expect(browsersOfThisProcess()).toEqual([]);
  });

  test("a flow that opens just as the shared browser dies starts on a fresh one", async () => {
    const pool = new SessionPool();
    try {
      const a = await pool.open("web", "/tmp/a.flow.yaml", () => undefined, context);
      await a.driver.close();
      const [dead] = browsersOfThisProcess();
      process.kill(dead!, "SIGKILL");
      // Opened before the lost connection is noticed.
      const b = await pool.open("web", "/tmp/b.flow.yaml", () => undefined, context);
      expect((await b.driver.navigate(`${server.url}/greeter.html`, 10_000)).ok).toBe(true);
      expect(browsersOfThisProcess()).not.toContain(dead!);
      await b.driver.close();
    } finally {
      await pool.close();
    }
  });

  test("an unknown app kind is a SpecError naming the available ones", async () => {
    await expect(new SessionPool().open("nope", "/tmp/x.flow.yaml", () => undefined, context)).rejects.toBeInstanceOf(SpecError);
  });
});
