// Preloaded by bench/start-up-profile.ts into a `flowproof run` process (`bun --preload`): notes
// when the process got here (Bun's own start), every DevTools command with its start and end,
// the web driver's open and close, when the browser process was spawned (from /proc), and the
// process's exit, in ms since the process started, and
// writes them as JSON to $FLOWPROOF_PROFILE_OUT at exit. Measures; changes nothing it wraps.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

type Mark = readonly [at: number, what: string, end?: number];
const marks: Mark[] = [[performance.now(), "preload"]];
const out = process.env["FLOWPROOF_PROFILE_OUT"];

const { Connection } = await import("../plugins/web/cdp/connection.ts");
const { WebDriver } = await import("../plugins/web/driver.ts");
marks.push([performance.now(), "preload imported the web driver"]);

const send = Connection.prototype.send;
Connection.prototype.send = async function (this: import("../plugins/web/cdp/connection.ts").Connection, ...args: Parameters<typeof send>) {
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

/** Start time (ms since this process started) of the newest child process: the browser, spawned by the launcher. */
function newestChildStart(): number | undefined {
  try {
    const ticks = (pid: string) => Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19]);
    const children = readdirSync("/proc/self/task").flatMap((t) => readFileSync(`/proc/self/task/${t}/children`, "utf8").trim().split(/\s+/).filter(Boolean));
    const newest = Math.max(...children.map(ticks));
    // Clock ticks since boot (100 per second on Linux), so 10 ms resolution; this process's own start is 0.
    return Number.isFinite(newest) ? (newest - ticks("self")) * 10 : undefined;
  } catch {
    return undefined;
  }
}

const connect = Connection.connect.bind(Connection);
Connection.connect = async (...args: Parameters<typeof connect>) => {
  const t = performance.now();
  const spawned = newestChildStart();
  if (spawned !== undefined) marks.push([spawned, "browser spawned"]);
  try {
    return await connect(...args);
  } finally {
    marks.push([t, "connect", performance.now()]);
  }
};

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
WebDriver.prototype.close = async function (this: import("../plugins/web/driver.ts").WebDriver) {
  const t = performance.now();
  try {
    return await close.apply(this);
  } finally {
    marks.push([t, "driver close", performance.now()]);
  }
};

process.on("exit", () => {
  marks.push([performance.now(), "exit"]);
  if (out) writeFileSync(out, JSON.stringify(marks));
});
