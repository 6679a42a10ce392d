import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { claimEarlyBrowser, dropEarlyBrowser, earlyRequestOf, hasEarlyBrowser, launchKey, prestartBrowser } from "./prestart.ts";
import type { LaunchedBrowser } from "./launch.ts";
import { requireChromium } from "../../test/support/chromium.ts";
import { descendants, isAlive } from "../../test/support/processes.ts";

const WEB = 'name: Sign up\napp: web\nurl: http://127.0.0.1:1/\nsteps:\n  - Click "Go"\n';

describe("earlyRequestOf: which browser a flow file surely needs", () => {
  test("a web flow: Chromium, headless unless asked", () => {
    expect(earlyRequestOf({ flow: WEB }, {}, false)).toEqual({ engine: "chromium", headed: false });
    expect(earlyRequestOf({ flow: `# a comment\napp: "web"   # the browser\n${WEB.replace("app: web\n", "")}` }, {}, true)).toEqual({
      engine: "chromium",
      headed: true,
    });
  });

  test("no browser for a flow that is not a web flow, or not certainly one", () => {
    expect(earlyRequestOf({ flow: "name: Orders\napp: api\nsteps:\n  - GET /orders\n" }, {}, false)).toBeUndefined();
    expect(earlyRequestOf({ flow: "name: Orders\nsteps: []\n" }, {}, false)).toBeUndefined();
    // A multi-surface flow, and an `app:` that is not at the top level.
    expect(earlyRequestOf({ flow: "name: Two\napps:\n  shop:\n    app: web\n" }, {}, false)).toBeUndefined();
    expect(earlyRequestOf({ flow: "name: X\nsteps:\n  app: web\n" }, {}, false)).toBeUndefined();
  });

  test("the engine: FLOWPROOF_BROWSER over the flow's browser.name over the suite's", () => {
    const firefoxFlow = `${WEB}browser:\n  name: firefox\n  viewport: { width: 390, height: 844 }\n`;
    expect(earlyRequestOf({ flow: firefoxFlow }, {}, false)?.engine).toBe("firefox");
    expect(earlyRequestOf({ flow: `${WEB}browser: { name: "firefox" }\n` }, {}, false)?.engine).toBe("firefox");
    expect(earlyRequestOf({ flow: firefoxFlow }, { FLOWPROOF_BROWSER: "chromium" }, false)?.engine).toBe("chromium");
    expect(earlyRequestOf({ flow: WEB, suite: "browser:\n  name: firefox\n" }, {}, false)?.engine).toBe("firefox");
    // The flow's own block wins outright over the suite's default.
    expect(earlyRequestOf({ flow: `${WEB}browser:\n  viewport: { width: 390, height: 844 }\n`, suite: "browser:\n  name: firefox\n" }, {}, false)?.engine).toBe(
      "chromium",
    );
    expect(earlyRequestOf({ flow: WEB }, { FLOWPROOF_BROWSER: "webkit" }, false)).toBeUndefined();
  });

  test("no early browser for a grid, a running browser's endpoint or a private browser's flags", () => {
    expect(earlyRequestOf({ flow: WEB }, { FLOWPROOF_GRID_URL: "http://grid:4444" }, false)).toBeUndefined();
    expect(earlyRequestOf({ flow: WEB }, { FLOWPROOF_GRID_URL: "local" }, false)?.engine).toBe("chromium");
    expect(earlyRequestOf({ flow: `${WEB}browser:\n  grid: http://grid:4444\n` }, {}, false)).toBeUndefined();
    expect(earlyRequestOf({ flow: `${WEB}browser:\n  grid: http://grid:4444\n` }, { FLOWPROOF_GRID_URL: "local" }, false)?.engine).toBe("chromium");
    expect(earlyRequestOf({ flow: `${WEB}browser:\n  endpoint: ws://127.0.0.1:9222/x\n` }, {}, false)).toBeUndefined();
    expect(earlyRequestOf({ flow: `${WEB}browser:\n  args: ["--lang=de"]\n` }, {}, false)).toBeUndefined();
    expect(earlyRequestOf({ flow: WEB, suite: "browser:\n  args: [--lang=de]\n" }, {}, false)).toBeUndefined();
  });
});

describe("the early browser, handed over or stopped (real Chromium)", () => {
  afterEach(() => dropEarlyBrowser());

  test("a claim with the same engine, executable and mode takes the running browser", async () => {
    const chrome = requireChromium();
    expect(prestartBrowser({ engine: "chromium", headed: false }, { FLOWPROOF_CHROME: chrome })).toBe(true);
    expect(hasEarlyBrowser()).toBe(true);
    const browser = await claimEarlyBrowser<LaunchedBrowser>(launchKey("chromium", chrome, false));
    expect(browser).toBeDefined();
    try {
      expect(hasEarlyBrowser()).toBe(false);
      expect(browser!.exitReason).toBeUndefined();
      expect(isAlive(browser!.pid)).toBe(true);
      expect(browser!.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//);
      // Claimed once: a second claim launches its own.
      expect(await claimEarlyBrowser(launchKey("chromium", chrome, false))).toBeUndefined();
    } finally {
      await browser!.close();
    }
    expect(isAlive(browser!.pid)).toBe(false);
  }, 60_000);

  test("a claim for another browser stops the early one at once and gets nothing", async () => {
    const chrome = requireChromium();
    prestartBrowser({ engine: "chromium", headed: false }, { FLOWPROOF_CHROME: chrome });
    const spawned = await spawnedPid();
    expect(await claimEarlyBrowser(launchKey("chromium", chrome, true))).toBeUndefined();
    await dropEarlyBrowser(); // waits for the stop under way
    expect(isAlive(spawned)).toBe(false);
  }, 60_000);

  test("an early browser nothing claims is stopped, its profile removed, even one still starting", async () => {
    const chrome = requireChromium();
    prestartBrowser({ engine: "chromium", headed: false }, { FLOWPROOF_CHROME: chrome });
    const spawned = await spawnedPid();
    const profile = profileOf(spawned);
    expect(profile).toBeDefined();
    await dropEarlyBrowser();
    expect(isAlive(spawned)).toBe(false);
    expect(existsSync(profile!)).toBe(false);
    expect(hasEarlyBrowser()).toBe(false);
  }, 60_000);

  test("nothing starts when no such browser is installed", () => {
    expect(prestartBrowser({ engine: "chromium", headed: false }, { FLOWPROOF_CHROME: "/no/such/chrome" })).toBe(false);
    expect(hasEarlyBrowser()).toBe(false);
  });
});

/** The pid of the browser this process spawned last (its child), once it shows in /proc. */
async function spawnedPid(): Promise<number> {
  const until = Date.now() + 30_000;
  for (;;) {
    const browser = descendants(process.pid).find((p) => profileOf(p) !== undefined);
    if (browser !== undefined) return browser;
    if (Date.now() > until) throw new Error("no browser was spawned");
    await Bun.sleep(10);
  }
}

function profileOf(pid: number): string | undefined {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return argv.find((a) => a.startsWith("--user-data-dir="))?.slice("--user-data-dir=".length);
  } catch {
    return undefined;
  }
}
