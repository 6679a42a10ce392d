// Whole-process benchmark: `flowproof run` against a Playwright script, each a process of its own.
//
//   node_modules/.bin/bun bench/whole-process.ts [--runs N] [--warmup W] [--baseline DIR] [--executable] [--firefox] [--json]
//
// Serves bench/pages/ on 127.0.0.1, records bench/flows/bench.flow.yaml once (untimed), then runs,
// interleaved in each round (the order rotates from round to round), the same 30 steps as:
//   flowproof: `bun src/cli/main.ts run` with --recording-detail off, low, the default (full), --video;
//   Playwright: `node` running playwright-process.ts (bundled for Node): bare, with tracing
//   (screenshots + snapshots), with video (WebM).
// With --baseline DIR (another flowproof checkout, e.g. the commit before a change), its four
// flowproof runs join the same rounds, so before and after are measured under the same load.
// With --firefox, `flowproof run --browser firefox --recording-detail off` joins them too (and the
// baseline's, with --baseline).
// Each time is the wall time from spawning the process to its exit: runtime start, module loading,
// browser launch, the flow, closing and writing the evidence; beside it the CPU time of the process
// and every descendant it waited for (the browser, ffmpeg), which a loaded machine disturbs less. Prints medians and the ratios of the
// issue's pairs. A measurement, not a test: exits 0 whatever the figures; 1 when a run fails; 2
// when Chromium, Node or ffmpeg (Playwright's video) is missing.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startServer } from "./app-server.ts";
import { findBrowser } from "../plugins/web/launch.ts";
import { checkFlowMatchesSteps } from "./flow-drift.ts";
import { buildExecutable } from "../scripts/build.ts";
import { loadAverage, machineBusy, median, wholeOption } from "./stats.ts";

const ROOT = resolve(import.meta.dir, "..");
const FLOW_FILE = resolve(import.meta.dir, "flows", "bench.flow.yaml");
const CLI = join(ROOT, "src", "cli", "main.ts");
const USAGE = "bun bench/whole-process.ts [--runs N] [--warmup W] [--baseline DIR] [--executable] [--firefox] [--json]";

interface Contender {
  readonly name: string;
  readonly command: (ctx: Ctx) => readonly string[];
}
interface Ctx {
  readonly spec: string;
  readonly chrome: string;
  readonly startUrl: string;
  readonly pwScript: string;
  readonly out: string;
}

const bun = process.execPath;
const fp =
  (...flags: string[]) =>
  (ctx: Ctx) => [bun, CLI, "run", ctx.spec, ...flags];
/** The same flowproof run from another checkout. */
const baseline = (root: string, flags: readonly string[]) => (ctx: Ctx) => [bun, join(root, "src", "cli", "main.ts"), "run", ctx.spec, ...flags];
const pw = (mode: string) => (ctx: Ctx) => ["node", ctx.pwScript, mode, ctx.chrome, ctx.startUrl, ctx.out];

const FLOWPROOF_FLAGS: Readonly<Record<string, readonly string[]>> = {
  "fp off": ["--recording-detail", "off"],
  "fp low": ["--recording-detail", "low"],
  "fp full": [],
  "fp video": ["--video"],
};

const CONTENDERS: readonly Contender[] = [
  ...Object.entries(FLOWPROOF_FLAGS).map(([name, flags]) => ({ name, command: fp(...flags) })),
  { name: "PW bare", command: pw("bare") },
  { name: "PW tracing", command: pw("tracing") },
  { name: "PW video", command: pw("video") },
];

/** The issue's pairs: flowproof figure, Playwright figure, target ratio. */
const PAIRS = [
  ["fp off", "PW bare", 0.4],
  ["fp low", "PW bare", undefined],
  ["fp full", "PW tracing", 0.6],
  ["fp video", "PW video", 0.8],
] as const;

/**
 * Runs a process to its exit: its wall time, and its CPU time with every descendant it waited for
 * (the browser and its helpers, ffmpeg): the figure a loaded machine disturbs least.
 */
async function exec(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<{ ms: number; cpuMs: number; code: number | null; stderr: string }> {
  const t0 = performance.now();
  const child = Bun.spawn([...argv], { cwd, env, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  const ms = performance.now() - t0;
  const cpu = child.resourceUsage()?.cpuTime;
  return { ms, cpuMs: cpu ? Number(cpu.total) / 1000 : Number.NaN, code, stderr };
}

/** Playwright's video needs its ffmpeg: a browsers directory whose ffmpeg-<revision> is the system's. */
function playwrightFfmpeg(dir: string): string | undefined {
  const ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].find((p) => existsSync(p));
  if (!ffmpeg) return undefined;
  const browsers = JSON.parse(readFileSync(join(ROOT, "node_modules", "playwright-core", "browsers.json"), "utf8")) as {
    browsers: { name: string; revision: string }[];
  };
  const revision = browsers.browsers.find((b) => b.name === "ffmpeg")?.revision;
  if (!revision) return undefined;
  mkdirSync(join(dir, `ffmpeg-${revision}`), { recursive: true });
  symlinkSync(ffmpeg, join(dir, `ffmpeg-${revision}`, "ffmpeg-linux"));
  return dir;
}

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "n/a");

async function main(): Promise<number> {
  const runs = wholeOption("--runs", 5, USAGE, 1);
  const warmup = wholeOption("--warmup", 1, USAGE);
  const json = process.argv.includes("--json");
  const b = process.argv.indexOf("--baseline");
  const baselineRoot = b === -1 ? undefined : resolve(process.argv[b + 1] ?? "");
  if (baselineRoot !== undefined && !existsSync(join(baselineRoot, "src", "cli", "main.ts"))) {
    console.error(`usage: ${USAGE} (--baseline needs a flowproof checkout: no src/cli/main.ts in ${baselineRoot})`);
    return 2;
  }
  const withExecutable = process.argv.includes("--executable");
  const firefox = process.argv.includes("--firefox") ? ([["fp firefox off", ["--browser", "firefox", "--recording-detail", "off"]]] as const) : [];
  const flowproofFlags = [...Object.entries(FLOWPROOF_FLAGS), ...firefox];
  const contenders: Contender[] = [
    ...CONTENDERS,
    ...firefox.map(([name, flags]) => ({ name, command: fp(...flags) })),
    ...(baselineRoot ? flowproofFlags.map(([name, flags]) => ({ name: `baseline ${name.slice(3)}`, command: baseline(baselineRoot, flags) })) : []),
  ];
  const chrome = findBrowser(process.env, { headless: true }).path;
  if (!chrome) {
    console.error("bench: no Chromium found; set FLOWPROOF_CHROME or install chromium");
    return 2;
  }
  checkFlowMatchesSteps(FLOW_FILE);
  const work = mkdtempSync(join(tmpdir(), "flowproof-wholebench-"));
  const browsersPath = playwrightFfmpeg(join(work, "pw-browsers"));
  if (!browsersPath) {
    console.error("bench: Playwright's video needs ffmpeg (Debian/Ubuntu: apt-get install ffmpeg)");
    return 2;
  }
  const server = startServer();
  try {
    const spec = join(work, "bench.flow.yaml");
    copyFileSync(FLOW_FILE, spec);
    const pwScript = join(work, "playwright-process.cjs");
    const built = await Bun.build({
      entrypoints: [join(import.meta.dir, "playwright-process.ts")],
      target: "node",
      format: "cjs",
      external: ["playwright-core"],
    });
    if (!built.success || !built.outputs[0]) throw new Error(`bundling playwright-process.ts failed: ${built.logs.join("\n")}`);
    await Bun.write(pwScript, built.outputs[0]);
    if (withExecutable) {
      const exe = await buildExecutable("linux-x64", join(work, "exe"));
      if (!exe.ok) throw new Error(`building the executable failed: ${exe.detail}`);
      contenders.push(
        { name: "exe off", command: (ctx) => [exe.path, "run", ctx.spec, "--recording-detail", "off"] },
        { name: "exe full", command: (ctx) => [exe.path, "run", ctx.spec] },
      );
    }
    const env = {
      ...process.env,
      BENCH_URL: server.url,
      FLOWPROOF_CHROME: chrome,
      NODE_PATH: join(ROOT, "node_modules"),
      PLAYWRIGHT_BROWSERS_PATH: browsersPath,
    };
    const recorded = await exec([bun, CLI, "record", spec, "--author", "rules", "--recording-detail", "off"], env, work);
    if (recorded.code !== 0) {
      console.error(`bench: recording failed:\n${recorded.stderr}`);
      return 1;
    }
    const nodeVersion = (await new Response(Bun.spawn(["node", "--version"]).stdout).text()).trim();
    const { version } = (await import("playwright-core/package.json", { with: { type: "json" } })).default as { version: string };
    const loadBefore = loadAverage();
    const busyBefore = await machineBusy();
    const samples = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
    const cpuSamples = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
    for (let round = -warmup; round < runs; round++) {
      const shift = ((round % contenders.length) + contenders.length) % contenders.length;
      const order = [...contenders.slice(shift), ...contenders.slice(0, shift)];
      const line: string[] = [];
      for (const c of order) {
        const out = join(work, "out");
        mkdirSync(out, { recursive: true });
        const r = await exec(c.command({ spec, chrome, startUrl: `${server.url}/index.html`, pwScript, out }), env, work);
        if (r.code !== 0) {
          console.error(`bench: ${c.name} failed (exit ${r.code}):\n${r.stderr.trim().split("\n").slice(-8).join("\n")}`);
          return 1;
        }
        // Every run starts from the same state: no earlier run bundles, no earlier videos or traces.
        rmSync(out, { recursive: true, force: true });
        rmSync(join(work, ".flowproof", "runs"), { recursive: true, force: true });
        if (round >= 0) {
          samples.get(c.name)!.push(r.ms);
          cpuSamples.get(c.name)!.push(r.cpuMs);
        }
        line.push(`${c.name} ${ms(r.ms)}`);
      }
      console.error(`bench: ${round >= 0 ? `round ${round + 1}/${runs}` : "warm-up"}: ${line.join(", ")}`);
    }
    const busyAfter = await machineBusy();
    const med = (name: string) => median(samples.get(name)!);
    const cpu = (name: string) => median(cpuSamples.get(name)!);
    const pct = (x: number | undefined) => (x === undefined ? "unknown" : `${(100 * x).toFixed(0)}%`);
    const lines: string[] = [];
    lines.push(`Whole processes, 30-step flow, ${runs} interleaved round(s) after ${warmup} warm-up, medians of wall time (spawn to exit), ms`);
    lines.push(`browser: ${chrome}; ${navigator.hardwareConcurrency} CPU(s); Bun ${Bun.version}; Node ${nodeVersion}; playwright-core ${version}`);
    lines.push(`load average (1, 5, 15 min) before: ${loadBefore}, after: ${loadAverage()}`);
    lines.push(`machine busy (other processes) in the second before: ${pct(busyBefore)}, after: ${pct(busyAfter)}`);
    lines.push("");
    lines.push("| contender | wall, median | wall, min–max | CPU time, median |");
    lines.push("|---|---:|---:|---:|");
    for (const c of contenders) {
      const xs = samples.get(c.name)!;
      lines.push(`| ${c.name} | ${ms(med(c.name))} | ${ms(Math.min(...xs))}–${ms(Math.max(...xs))} | ${ms(cpu(c.name))} |`);
    }
    lines.push("");
    lines.push("| flowproof | Playwright | wall ratio | target | status | CPU ratio |");
    lines.push("|---|---|---:|---:|---|---:|");
    const pairs = [
      ...PAIRS,
      ...(withExecutable
        ? ([
            ["exe off", "PW bare", 0.4],
            ["exe full", "PW tracing", 0.6],
          ] as const)
        : []),
    ];
    for (const [a, b, target] of pairs) {
      const r = med(a) / med(b);
      lines.push(
        `| ${a} | ${b} | ${r.toFixed(2)}× | ${target === undefined ? "—" : `≤ ${target}×`} | ${target === undefined ? "" : r <= target ? "met" : "MISSED"} | ${(cpu(a) / cpu(b)).toFixed(2)}× |`,
      );
    }
    if (baselineRoot) {
      lines.push("");
      lines.push(`baseline: ${baselineRoot}, in the same rounds`);
      lines.push("");
      lines.push("| flowproof | wall: baseline | this checkout | change | CPU: baseline | this checkout | change |");
      lines.push("|---|---:|---:|---:|---:|---:|---:|");
      const change = (now: number, before: number) => `${(((now - before) / before) * 100).toFixed(0)} %`;
      for (const [a] of [...PAIRS, ...firefox]) {
        const name = `baseline ${a.slice(3)}`;
        lines.push(
          `| ${a.slice(3)} | ${ms(med(name))} | ${ms(med(a))} | ${change(med(a), med(name))} | ${ms(cpu(name))} | ${ms(cpu(a))} | ${change(cpu(a), cpu(name))} |`,
        );
      }
    }
    console.log(lines.join("\n"));
    if (json) console.log(JSON.stringify({ wall: Object.fromEntries(samples), cpu: Object.fromEntries(cpuSamples) }));
    return 0;
  } finally {
    server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

process.exit(await main());
