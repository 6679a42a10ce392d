import { readFileSync } from "node:fs";
import { afterAll, describe, expect, test } from "bun:test";
import { FlowproofError } from "../../../src/plugins/api.ts";
import { requireFirefox } from "../../../test/support/firefox.ts";
import { descendants, isAlive } from "../../../test/support/processes.ts";
import { FirefoxSession, firefoxRefusals } from "./session.ts";

describe("what Firefox refuses, before the first step", () => {
  test("Chromium-only keys and what flowproof does not do in Firefox yet are named; a plain flow is taken", () => {
    expect(firefoxRefusals({ viewport: { width: 800, height: 600 }, clock: { at: "2026-01-15T12:00:00Z" } })).toEqual([]);
    expect(
      firefoxRefusals({ endpoint: "http://127.0.0.1:9222", args: ["--lang=de"], downloads_dir: "/tmp/d", mock: [{ url_contains: "/api" }], session: {} }),
    ).toEqual(["`browser.endpoint` (a running Chromium's DevTools URL)", "`browser.args` (Chromium flags)"]);
    expect(firefoxRefusals({}, { FLOWPROOF_GRID_URL: "http://grid:4444" })).toEqual([
      "a Selenium Grid (`browser.grid`, --grid, FLOWPROOF_GRID_URL; docs/grid.md)",
    ]);
    expect(firefoxRefusals({ grid: "http://grid:4444" }, { FLOWPROOF_GRID_URL: "local" })).toEqual([]);
  });
});

describe("the run's Firefox", () => {
  const session = new FirefoxSession();
  afterAll(() => session.close());

  test("a flow with a key Firefox does not take is refused naming Firefox and the key, before any browser starts", async () => {
    const error = await session.launch({ args: ["--lang=de"] }, { baseDir: ".", log: () => undefined }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlowproofError);
    expect((error as FlowproofError).code).toBe("unsupported-step");
    expect((error as Error).message).toContain("in Firefox");
    expect((error as Error).message).toContain("`browser.args`");
  });

  test("a missing Firefox is a no-browser error with the install command", async () => {
    const error = await new FirefoxSession()
      .launch({}, { baseDir: ".", log: () => undefined, env: { FLOWPROOF_FIREFOX: "/nonexistent/firefox" } })
      .catch((e: unknown) => e);
    expect((error as FlowproofError).code).toBe("no-browser");
    expect((error as FlowproofError).diagnostics?.[0]?.hint).toContain("apt-get install firefox-esr");
  });

  test("flows share one Firefox, each in its own user context; closing the session stops it", async () => {
    requireFirefox();
    const ctx = { baseDir: ".", log: () => undefined };
    // The Firefox processes this test process started (other test processes run browsers too);
    // those of a browser it started before (another file's) are not the session's.
    const firefoxPids = () =>
      descendants(process.pid).filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("flowproof-firefox-");
        } catch {
          return false;
        }
      });
    // Matched by process group: a browser started before may start more processes meanwhile.
    const group = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ")[2];
      } catch {
        return undefined;
      }
    };
    const others = new Set(firefoxPids().map(group));
    const a = await session.launch({}, ctx);
    const b = await session.launch({}, ctx);
    await a.navigate("data:text/html,<p>a</p>", 10_000);
    await b.navigate("data:text/html,<p>b</p>", 10_000);
    expect((await a.check([], { kind: "text_contains", text: "a" })).pass).toBe(true);
    expect((await b.check([], { kind: "text_contains", text: "b" })).pass).toBe(true);
    expect(a.appInfo?.()).toEqual({ engine: "firefox" });
    const pids = firefoxPids().filter((pid) => !others.has(group(pid)));
    expect(pids.length).toBeGreaterThan(0);
    await a.close();
    await b.close();
    await session.close();
    const until = Date.now() + 10_000;
    while (Date.now() < until && pids.some(isAlive)) await Bun.sleep(50);
    expect(pids.filter(isAlive)).toEqual([]);
  }, 60_000);
});
