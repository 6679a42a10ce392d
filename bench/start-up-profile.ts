// Where a whole `flowproof run` process spends its time, phase by phase.
//
//   node_modules/.bin/bun bench/start-up-profile.ts [--runs N] [--modes off,full,video] [--baseline DIR]
//
// Records bench/flows/bench.flow.yaml once, then runs `flowproof run` as a process of its own N
// times per mode (--recording-detail off, the default full, --video) with profile-preload.ts
// preloaded, and prints the median of each phase: Bun's start, up to the browser's spawn, Chromium's
// launch (to DevTools announced), what the run still loads once the browser is up (with the
// browser started early, modules, flow and plugins go on loading meanwhile), the DevTools
// connection, what the run still loads after it (the early browser's socket opens early), opening the page (context, target, page setup, page script), the first navigation,
// the steps, closing the page, and what follows (the browser's stop, the run bundle's
// result.json, report.html, GIF) up to the exit. With --baseline DIR (another checkout, e.g. the
// commit before a change, with node_modules linked) its runs alternate with this checkout's, so
// both are measured under the same load. Also the bare costs: an empty Bun process, the CLI's
// static module graph (`--version`), and Node loading playwright-core. A measurement: exits 0
// whatever the figures, 1 when a run fails.
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startServer } from "./app-server.ts";
import { findBrowser } from "../plugins/web/launch.ts";
import { loadAverage, median, wholeOption } from "./stats.ts";

const ROOT = resolve(import.meta.dir, "..");
const CLI = join(ROOT, "src", "cli", "main.ts");
const PRELOAD = join(import.meta.dir, "profile-preload.ts");
const bun = process.execPath;

type Mark = [number, string, number?];

const ALL_MODES = {
  off: ["off", ["--recording-detail", "off"]],
  full: ["full (default)", []],
  video: ["--video", ["--video"]],
} as const satisfies Record<string, readonly [string, readonly string[]]>;

const PHASES = [
  "Bun start (to the first preloaded line)",
  "to the browser's spawn (modules, flow and plugins, unless the browser starts early)",
  "Chromium launch (spawn to DevTools announced)",
  "announced to the run's connection (what still loads once the browser is up)",
  "DevTools connection",
  "connection to the page's opening (what still loads once connected)",
  "page open: context, target, page setup, page script",
  "first navigation",
  "steps (sum of step durations)",
  "in the run, outside steps (checkpoints, frames, gaps)",
  "page close",
  "after the page: browser stop, bundle writing, exit hooks",
  "process exit (last JS to the parent seeing it)",
  "total wall time",
] as const;

/** Runs a process to its exit (asynchronously: the bench's own server must keep answering). */
function timed(argv: string[], env: Record<string, string | undefined>, cwd: string): Promise<{ ms: number; status: number | null; stderr: string }> {
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(argv[0]!, argv.slice(1), { env, cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("exit", (status) => done({ ms: performance.now() - t0, status, stderr }));
  });
}

async function medianOf(n: number, argv: string[], env: Record<string, string | undefined>, cwd: string): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) xs.push((await timed(argv, env, cwd)).ms);
  return median(xs);
}

function phases(marks: Mark[], wall: number, stepsMs: number): number[] {
  const first = (what: string) => marks.find((m) => m[1] === what);
  const preload = first("preload")![0];
  const spawned = first("browser spawned")?.[0] ?? Number.NaN;
  const connect = first("connect")!;
  // The announcement, read from a file's time, is never before the spawn nor after the connection;
  // without the file yet (Chromium writes it after the announcement), the connection followed it at once.
  const announced = Math.min(Math.max(first("browser announced")?.[0] ?? connect[0], spawned), connect[0]);
  const open = first("driver open")!;
  const navigate = marks.find((m) => m[1] === "cdp Page.navigate" && m[0] >= open[2]!)!;
  const close = marks.filter((m) => m[1] === "driver close").at(-1)!;
  const exit = first("exit")![0];
  const navEnd = navigate[2]!;
  return [
    preload,
    spawned - preload,
    announced - spawned,
    connect[0] - announced,
    connect[2]! - connect[0],
    open[0] - connect[2]!,
    open[2]! - open[0],
    navEnd - open[2]!,
    stepsMs,
    close[0] - navEnd - stepsMs,
    close[2]! - close[0],
    exit - close[2]!,
    wall - exit,
    wall,
  ];
}

async function main(): Promise<number> {
  const usage = "bun bench/start-up-profile.ts [--runs N] [--modes off,full,video] [--baseline DIR]";
  const runs = wholeOption("--runs", 3, usage, 1);
  const at = (flag: string) => process.argv.indexOf(flag);
  const modeNames = (at("--modes") > 0 ? (process.argv[at("--modes") + 1] ?? "") : "off,full,video").split(",");
  if (!modeNames.every((m) => Object.hasOwn(ALL_MODES, m))) {
    console.error(`bench: --modes takes off, full and video, comma-separated\nusage: ${usage}`);
    return 2;
  }
  const baselineDir = at("--baseline") > 0 ? resolve(process.argv[at("--baseline") + 1] ?? "") : undefined;
  const CHECKOUTS = [["", CLI] as const, ...(baselineDir ? [[" (baseline)", join(baselineDir, "src", "cli", "main.ts")] as const] : [])];
  const MODES = modeNames.flatMap((m) =>
    CHECKOUTS.map(([suffix, cli]) => [`${ALL_MODES[m as keyof typeof ALL_MODES][0]}${suffix}`, ALL_MODES[m as keyof typeof ALL_MODES][1], cli] as const),
  );
  const chrome = findBrowser(process.env, { headless: true }).path;
  if (!chrome) {
    console.error("bench: no Chromium found");
    return 2;
  }
  const work = mkdtempSync(join(tmpdir(), "flowproof-profile-"));
  const server = startServer();
  try {
    const spec = join(work, "bench.flow.yaml");
    copyFileSync(resolve(import.meta.dir, "flows", "bench.flow.yaml"), spec);
    const env = { ...process.env, BENCH_URL: server.url, FLOWPROOF_CHROME: chrome };
    const rec = await timed([bun, CLI, "record", spec, "--author", "rules", "--recording-detail", "off"], env, work);
    if (rec.status !== 0) {
      console.error(`bench: recording failed\n${rec.stderr}`);
      return 1;
    }
    const empty = join(work, "empty.js");
    writeFileSync(empty, "");
    const bare = {
      bun: await medianOf(5, [bun, empty], env, work),
      version: await medianOf(5, [bun, CLI, "--version"], env, work),
      node: await medianOf(3, ["node", "-e", ""], env, work),
      playwright: await medianOf(3, ["node", "-e", "require('playwright-core')"], { ...env, NODE_PATH: join(ROOT, "node_modules") }, work),
    };
    const table = new Map<string, number[][]>();
    const load = loadAverage();
    for (let i = 0; i < runs; i++) {
      for (const [name, flags, cli] of MODES) {
        const out = join(work, "profile.json");
        const r = await timed([bun, "--preload", PRELOAD, cli, "run", spec, ...flags], { ...env, FLOWPROOF_PROFILE_OUT: out }, work);
        if (r.status !== 0) {
          console.error(`bench: run (${name}) failed\n${r.stderr}`);
          return 1;
        }
        const runsDir = join(work, ".flowproof", "runs");
        const result = JSON.parse(readFileSync(join(runsDir, readdirSync(runsDir)[0]!, "result.json"), "utf8")) as { steps: { duration_ms: number }[] };
        rmSync(runsDir, { recursive: true, force: true });
        const steps = result.steps.reduce((a, s) => a + s.duration_ms, 0);
        const marks = (JSON.parse(readFileSync(out, "utf8")) as Mark[]).sort((a, b) => a[0] - b[0]);
        table.set(name, [...(table.get(name) ?? []), phases(marks, r.ms, steps)]);
      }
    }
    const f = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "n/a");
    const lines = [
      `Profile of a whole \`flowproof run\` process, 30-step flow, medians of ${runs} run(s) per mode, ms`,
      `browser: ${chrome}; Bun ${Bun.version}; load average (1, 5, 15 min) before: ${load}, after: ${loadAverage()}`,
      "",
      `| phase | ${MODES.map(([n]) => n).join(" | ")} |`,
      `|---|${MODES.map(() => "---:").join("|")}|`,
      ...PHASES.map((p, i) => `| ${p} | ${MODES.map(([n]) => f(median(table.get(n)!.map((row) => row[i]!)))).join(" | ")} |`),
      "",
      "Bare costs, medians:",
      `- an empty Bun process: ${f(bare.bun)} ms; \`flowproof --version\` (the CLI's static module graph): ${f(bare.version)} ms`,
      `- an empty Node process: ${f(bare.node)} ms; Node loading playwright-core: ${f(bare.playwright)} ms`,
      ...(baselineDir ? [`baseline: ${baselineDir}, its runs alternating with this checkout's`] : []),
      "The preload loads nothing itself: it wraps the DevTools connection and the web driver as the run loads them.",
    ];
    console.log(lines.join("\n"));
    return 0;
  } finally {
    server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

process.exit(await main());
