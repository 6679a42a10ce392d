// Preloaded by bench/start-up-profile.ts into a `flowproof run` process (`bun --preload`): notes
// when the process got here (Bun's own start), every DevTools command with its start and end,
// the web driver's open and close, when the browser process was spawned (from /proc) and when it
// announced DevTools (its profile's DevToolsActivePort file), and the process's exit, in ms since
// the process started, and writes them as JSON to $FLOWPROOF_PROFILE_OUT at exit. Measures;
// changes nothing it wraps. It loads nothing itself: the DevTools connection and the web driver are
// wrapped as the run's own import evaluates them (a Bun loader plugin appends one line to each), so
// the run's modules load when and in the order they would without it.
import { plugin } from "bun";
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Connection as ConnectionClass } from "../plugins/web/cdp/connection.ts";
import type { WebDriver as WebDriverClass } from "../plugins/web/driver.ts";

type Mark = readonly [at: number, what: string, end?: number];
const marks: Mark[] = [[performance.now(), "preload"]];
const out = process.env["FLOWPROOF_PROFILE_OUT"];

/** Ticks of a process's start (clock ticks since boot, 100 per second on Linux). */
const ticks = (pid: string) => Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19]);

/** The browser among this process's children: its start (ms since this process started, 10 ms resolution) and its profile directory. */
function browserChild(): { spawned: number; profile?: string } | undefined {
  try {
    const children = readdirSync("/proc/self/task").flatMap((t) => readFileSync(`/proc/self/task/${t}/children`, "utf8").trim().split(/\s+/).filter(Boolean));
    for (const pid of children) {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (!argv.some((a) => /chrom/i.test(a))) continue;
      const profile = argv.find((a) => a.startsWith("--user-data-dir="))?.slice("--user-data-dir=".length);
      return { spawned: (ticks(pid) - ticks("self")) * 10, ...(profile ? { profile } : {}) };
    }
  } catch {
    // gone, or no /proc: no mark
  }
  return undefined;
}

function wrapConnection(Connection: typeof ConnectionClass): void {
  const send = Connection.prototype.send;
  Connection.prototype.send = async function (this: ConnectionClass, ...args: Parameters<typeof send>) {
    const t = performance.now();
    try {
      return await send.apply(this, args);
    } finally {
      // The page script install is the one Runtime.evaluate / addScriptToEvaluateOnNewDocument with a large source.
      const params = args[1] as { source?: string; expression?: string } | undefined;
      const size = (params?.source ?? params?.expression ?? "").length;
      marks.push([t, `cdp ${String(args[0])}${size > 10_000 ? " (page script)" : ""}`, performance.now()]);
    }
  } as typeof send;
  const connect = Connection.connect.bind(Connection);
  Connection.connect = async (...args: Parameters<typeof connect>) => {
    const t = performance.now();
    const browser = browserChild();
    if (browser) {
      marks.push([browser.spawned, "browser spawned"]);
      try {
        // Chromium writes DevToolsActivePort as it starts listening, just before it announces the URL.
        if (browser.profile) marks.push([statSync(join(browser.profile, "DevToolsActivePort")).mtimeMs - performance.timeOrigin, "browser announced"]);
      } catch {
        // no such file: no mark
      }
    }
    try {
      return await connect(...args);
    } finally {
      marks.push([t, "connect", performance.now()]);
    }
  };
}

function wrapDriver(WebDriver: typeof WebDriverClass): void {
  const open = WebDriver.open.bind(WebDriver);
  WebDriver.open = async (...args: Parameters<typeof open>) => {
    const t = performance.now();
    try {
      return await open(...args);
    } finally {
      marks.push([t, "driver open", performance.now()]);
    }
  };
  const close = WebDriver.prototype.close;
  WebDriver.prototype.close = async function (this: WebDriverClass) {
    const t = performance.now();
    try {
      return await close.apply(this);
    } finally {
      marks.push([t, "driver close", performance.now()]);
    }
  };
}

const hooks = { Connection: wrapConnection, WebDriver: wrapDriver };
(globalThis as { __flowproofProfile?: typeof hooks }).__flowproofProfile = hooks;
plugin({
  name: "flowproof-start-up-profile",
  setup(build) {
    build.onLoad({ filter: /plugins[\\/]web[\\/](cdp[\\/]connection|driver)\.ts$/ }, (args) => {
      const name = args.path.endsWith("driver.ts") ? "WebDriver" : "Connection";
      const source = readFileSync(args.path, "utf8");
      return { contents: `${source}\n;(globalThis as any).__flowproofProfile?.${name}(${name});\n`, loader: "ts" };
    });
  },
});

process.on("exit", () => {
  marks.push([performance.now(), "exit"]);
  if (out) writeFileSync(out, JSON.stringify(marks));
});
