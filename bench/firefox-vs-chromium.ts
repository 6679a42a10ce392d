// Performance benchmark: flowproof's 30-step replay in Firefox (WebDriver BiDi) beside Chromium (CDP).
//
//   node_modules/.bin/bun bench/firefox-vs-chromium.ts [--runs N] [--warmup W] [--baseline DIR]
//
// Serves bench/pages/ on 127.0.0.1, records bench/flows/bench.flow.yaml once in Chromium
// (untimed), then alternates N timed replays of that one trace in Chromium and in Firefox, each
// with the default recording (full detail) and with recording off. Every timed run includes its
// own browser launch and close, so the figures also show each engine's start-up, and the steps'
// sum without it, and the CPU time of each (this process and the browser's processes, sampled from
// /proc). `--baseline DIR` adds DIR's Firefox replays (another checkout) to the same rounds: before
// and after under the same load. Target: Firefox's replay within 1.5× of Chromium's. Exits 0 (figures printed),
// 1 when a replay fails, 2 when a browser is missing. See bench/README.md.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { findFirefox } from "../plugins/web/bidi/launch.ts";
import { findBrowser } from "../plugins/web/launch.ts";
import { record, run } from "../src/index.ts";
import { startServer } from "./app-server.ts";
import { loadAverage, machineBusy, median, wholeOption } from "./stats.ts";

const USAGE = "bun bench/firefox-vs-chromium.ts [--runs N] [--warmup W] [--baseline DIR]";
const FLOW_FILE = resolve(import.meta.dir, "flows", "bench.flow.yaml");
/** Firefox's replay (wall time, recording on) against Chromium's. */
const TARGET_RATIO = 1.5;

interface Sample {
  readonly wallMs: number;
  readonly stepsMs: number;
  readonly cpuMs: number;
}

type Run = typeof run;

/** CPU ticks (10 ms) of this process's descendants, per process (pid and start time), from /proc; empty without it. */
function descendantTicks(into: Map<string, number>): void {
  const walk = (pid: number) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      into.set(`${pid}@${fields[19]}`, Number(fields[11]) + Number(fields[12]));
      for (const task of readdirSync(`/proc/${pid}/task`))
        for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) walk(Number(child));
    } catch {
      // gone meanwhile
    }
  };
  try {
    for (const task of readdirSync("/proc/self/task"))
      for (const child of readFileSync(`/proc/self/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) walk(Number(child));
  } catch {
    // no /proc
  }
}

/**
 * CPU time while `work` runs: this process (every thread, the frame worker's too) and the browser's
 * processes, whose times are sampled every 25 ms (a process's last few ms before it exits are missed).
 */
async function withCpu<T>(work: () => Promise<T>): Promise<{ value: T; cpuMs: number }> {
  const ticks = new Map<string, number>();
  const own = process.cpuUsage();
  const timer = setInterval(() => descendantTicks(ticks), 25);
  try {
    const value = await work();
    descendantTicks(ticks);
    const mine = process.cpuUsage(own);
    let children = 0;
    for (const t of ticks.values()) children += t;
    return { value, cpuMs: (mine.user + mine.system) / 1000 + children * 10 };
  } finally {
    clearInterval(timer);
  }
}

async function replay(runner: Run, spec: string, env: Record<string, string | undefined>, browser: "chromium" | "firefox", off: boolean): Promise<Sample> {
  const started = performance.now();
  const { value: result, cpuMs } = await withCpu(() =>
    runner({ spec, env: { ...env, FLOWPROOF_BROWSER: browser }, ...(off ? { recordingDetail: "off" as const } : {}) }),
  );
  const wallMs = performance.now() - started;
  if (!result.report.passed) {
    const failed = result.report.steps.find((s) => s.status !== "passed");
    console.error(`bench: the ${browser} replay failed at ${failed?.id ?? "?"}: ${JSON.stringify(failed).slice(0, 400)}`);
    process.exit(1);
  }
  return { wallMs, stepsMs: result.report.steps.reduce((a, s) => a + (s.duration_ms ?? 0), 0), cpuMs };
}

async function main(): Promise<number> {
  const runs = wholeOption("--runs", 3, USAGE, 1);
  const warmup = wholeOption("--warmup", 1, USAGE);
  const at = process.argv.indexOf("--baseline");
  const baselineDir = at > 0 ? process.argv[at + 1] : undefined;
  if (at > 0 && !baselineDir) {
    console.error(`usage: ${USAGE}`);
    return 2;
  }
  const baseline = baselineDir ? ((await import(resolve(baselineDir, "src", "index.ts"))) as { run: Run }).run : undefined;
  const chrome = findBrowser(process.env, { headless: true }).path;
  const firefox = findFirefox(process.env).path;
  if (!chrome || !firefox) {
    console.error(`bench: ${chrome ? "Firefox" : "Chromium"} not found; install it (Debian: apt-get install ${chrome ? "firefox-esr" : "chromium"}).`);
    return 2;
  }
  console.error(`bench: Chromium ${chrome}, Firefox ${firefox}`);
  const server = startServer();
  const work = mkdtempSync(join(tmpdir(), "flowproof-bench-"));
  try {
    const spec = join(work, "bench.flow.yaml");
    copyFileSync(FLOW_FILE, spec);
    const env = { ...process.env, BENCH_URL: server.url };
    const recorded = await record({ spec, env: { ...env, FLOWPROOF_BROWSER: "chromium" }, author: "rules" });
    if (!recorded.ok) {
      console.error(`bench: recording failed: ${recorded.error ?? "unknown"}`);
      return 1;
    }
    const samples: Record<string, Sample[]> = { chromium: [], "chromium (rec off)": [], firefox: [], "firefox (rec off)": [] };
    if (baseline) Object.assign(samples, { "firefox, baseline": [], "firefox (rec off), baseline": [] });
    const busy = [await machineBusy()];
    for (let round = -warmup; round < runs; round++) {
      const got: Record<string, Sample> = {
        chromium: await replay(run, spec, env, "chromium", false),
        "chromium (rec off)": await replay(run, spec, env, "chromium", true),
      };
      // With a baseline, the order of this checkout and the baseline alternates from round to round.
      const firefox = async (label: string, runner: Run) => {
        got[`firefox${label}`] = await replay(runner, spec, env, "firefox", false);
        got[`firefox (rec off)${label}`] = await replay(runner, spec, env, "firefox", true);
      };
      if (baseline && round % 2 !== 0) await firefox(", baseline", baseline);
      await firefox("", run);
      if (baseline && round % 2 === 0) await firefox(", baseline", baseline);
      console.error(
        `bench: ${round < 0 ? "warm-up" : `run ${round + 1}/${runs}`}: ${Object.entries(got)
          .map(([k, v]) => `${k} ${Math.round(v.wallMs)} ms`)
          .join(", ")}`,
      );
      if (round >= 0) for (const [k, v] of Object.entries(got)) samples[k]!.push(v);
    }
    busy.push(await machineBusy());
    console.log(
      `machine: load average ${loadAverage()}; CPU busy before/after the runs ${busy.map((b) => (b === undefined ? "?" : `${Math.round(b * 100)}%`)).join("/")}`,
    );
    const med = (k: string, f: keyof Sample) => median(samples[k]!.map((s) => s[f]));
    console.log(`flowproof replay, Firefox beside Chromium — 30-step flow recorded in Chromium, ${runs} timed run(s) each, medians (ms)`);
    console.log(`${"".padEnd(30)}${"wall".padStart(8)}${"steps".padStart(8)}${"CPU".padStart(8)}`);
    for (const k of Object.keys(samples))
      console.log(`${k.padEnd(30)}${(["wallMs", "stepsMs", "cpuMs"] as const).map((f) => String(Math.round(med(k, f))).padStart(8)).join("")}`);
    const ratio = med("firefox", "wallMs") / med("chromium", "wallMs");
    const stepsRatio = med("firefox", "stepsMs") / med("chromium", "stepsMs");
    console.log(
      `Firefox / Chromium: ${ratio.toFixed(2)}× wall, ${stepsRatio.toFixed(2)}× steps (target ≤ ${TARGET_RATIO}× wall: ${ratio <= TARGET_RATIO ? "met" : "NOT met"})`,
    );
    return 0;
  } finally {
    server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

process.exit(await main());
