// Performance benchmark: flowproof's 30-step replay in Firefox (WebDriver BiDi) beside Chromium (CDP).
//
//   node_modules/.bin/bun bench/firefox-vs-chromium.ts [--runs N] [--warmup W]
//
// Serves bench/pages/ on 127.0.0.1, records bench/flows/bench.flow.yaml once in Chromium
// (untimed), then alternates N timed replays of that one trace in Chromium and in Firefox, each
// with the default recording (full detail) and with recording off. Every timed run includes its
// own browser launch and close, so the figures also show each engine's start-up, and the steps'
// sum without it. Target: Firefox's replay within 1.5× of Chromium's. Exits 0 (figures printed),
// 1 when a replay fails, 2 when a browser is missing. See bench/README.md.
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { findFirefox } from "../plugins/web/bidi/launch.ts";
import { findBrowser } from "../plugins/web/launch.ts";
import { record, run } from "../src/index.ts";
import { startServer } from "./app-server.ts";
import { median, wholeOption } from "./stats.ts";

const USAGE = "bun bench/firefox-vs-chromium.ts [--runs N] [--warmup W]";
const FLOW_FILE = resolve(import.meta.dir, "flows", "bench.flow.yaml");
/** Firefox's replay (wall time, recording on) against Chromium's. */
const TARGET_RATIO = 1.5;

interface Sample {
  readonly wallMs: number;
  readonly stepsMs: number;
}

async function replay(spec: string, env: Record<string, string | undefined>, browser: "chromium" | "firefox", off: boolean): Promise<Sample> {
  const started = performance.now();
  const result = await run({ spec, env: { ...env, FLOWPROOF_BROWSER: browser }, ...(off ? { recordingDetail: "off" as const } : {}) });
  const wallMs = performance.now() - started;
  if (!result.report.passed) {
    const failed = result.report.steps.find((s) => s.status !== "passed");
    console.error(`bench: the ${browser} replay failed at ${failed?.id ?? "?"}: ${JSON.stringify(failed).slice(0, 400)}`);
    process.exit(1);
  }
  return { wallMs, stepsMs: result.report.steps.reduce((a, s) => a + (s.duration_ms ?? 0), 0) };
}

async function main(): Promise<number> {
  const runs = wholeOption("--runs", 3, USAGE, 1);
  const warmup = wholeOption("--warmup", 1, USAGE);
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
    for (let round = -warmup; round < runs; round++) {
      const got = {
        chromium: await replay(spec, env, "chromium", false),
        "chromium (rec off)": await replay(spec, env, "chromium", true),
        firefox: await replay(spec, env, "firefox", false),
        "firefox (rec off)": await replay(spec, env, "firefox", true),
      };
      console.error(
        `bench: ${round < 0 ? "warm-up" : `run ${round + 1}/${runs}`}: ${Object.entries(got)
          .map(([k, v]) => `${k} ${Math.round(v.wallMs)} ms`)
          .join(", ")}`,
      );
      if (round >= 0) for (const [k, v] of Object.entries(got)) samples[k]!.push(v);
    }
    const med = (k: string, f: keyof Sample) => median(samples[k]!.map((s) => s[f]));
    console.log(`flowproof replay, Firefox beside Chromium — 30-step flow recorded in Chromium, ${runs} timed run(s) each, medians (ms)`);
    console.log(`${"".padEnd(22)}${"wall".padStart(8)}${"steps".padStart(8)}`);
    for (const k of Object.keys(samples))
      console.log(`${k.padEnd(22)}${String(Math.round(med(k, "wallMs"))).padStart(8)}${String(Math.round(med(k, "stepsMs"))).padStart(8)}`);
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
