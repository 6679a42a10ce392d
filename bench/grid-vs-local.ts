// Performance benchmark: the 30-step replay on a Selenium Grid against local Chromium.
//
//   node_modules/.bin/bun bench/grid-vs-local.ts [--runs N] [--warmup W]
//
// Starts a local two-node grid (test/support/grid.ts: needs java, chromedriver and the
// @nightwatch/selenium-server jar), serves bench/pages/ on 127.0.0.1, records
// bench/flows/bench.flow.yaml once locally (untimed), then alternates N timed replays of the same
// trace: locally, with the browser binary the grid's nodes run (Chromium), and on the grid
// (`FLOWPROOF_GRID_URL`). Every timed run includes its own browser start (a launch locally, a
// W3C session on the grid) and close, at the default recording detail (a frame per step) and with
// recording off (the steps alone, where a hop per command weighs most). Prints medians of the whole run and of the 30 steps alone,
// and the steps' ratio grid/local against the target (≤ 1.3×: the grid adds a hop per command,
// not a browser start per step; the one session start per flow is shown on its own line). Exits 1
// when a replay fails, 2 when the grid cannot start. The grid is stopped before the bench exits.
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { record, run } from "../src/index.ts";
import { startServer } from "./app-server.ts";
import { loadAverage, median, wholeOption } from "./stats.ts";
import { gridUnavailable, startGrid } from "../test/support/grid.ts";

const FLOW_FILE = resolve(import.meta.dir, "flows", "bench.flow.yaml");
const USAGE = "bun bench/grid-vs-local.ts [--runs N] [--warmup W]";
/** The 30 steps on the grid over the same steps locally: the grid adds a hop, not a browser start per step. */
const TARGET_RATIO = 1.3;
/** The browser binary the grid's nodes run (test/support/grid.ts); local runs use the same one. */
const NODE_BROWSER = "/usr/lib/chromium/chromium";

interface Sample {
  readonly wallMs: number;
  readonly stepsMs: number;
}

type Detail = "full" | "off";
/** The details measured: the default replay (a frame per step) and recording off (the steps alone, most sensitive to a hop). */
const DETAILS: readonly Detail[] = ["full", "off"];

async function replay(spec: string, env: Record<string, string | undefined>, detail: Detail): Promise<Sample> {
  const t0 = performance.now();
  const result = await run({ spec, env, recordingDetail: detail });
  const wallMs = performance.now() - t0;
  const r = result.report;
  if (!r.passed) {
    const bad = r.steps.find((s) => s.status !== "passed");
    throw new Error(
      `replay failed: ${r.error ?? (bad ? `step ${bad.id} (${bad.intent}) ${bad.status}: ${bad.detail ?? ""}` : "unknown")} (bundle: ${result.run_dir})`,
    );
  }
  return { wallMs, stepsMs: r.steps.reduce((n, s) => n + s.duration_ms, 0) };
}

async function main(): Promise<number> {
  const runs = wholeOption("--runs", 5, USAGE, 1);
  const warmup = wholeOption("--warmup", 1, USAGE);
  const missing = gridUnavailable();
  if (missing) {
    console.error(`bench: cannot start a grid: ${missing}`);
    return 2;
  }
  console.error("bench: starting a two-node Selenium Grid…");
  const grid = await startGrid({ nodes: 2 });
  const server = startServer();
  const work = mkdtempSync(join(tmpdir(), "flowproof-bench-grid-"));
  try {
    const spec = join(work, "bench.flow.yaml");
    copyFileSync(FLOW_FILE, spec);
    const local = { ...process.env, BENCH_URL: server.url, FLOWPROOF_CHROME: NODE_BROWSER, FLOWPROOF_GRID_URL: "local" };
    const onGrid = { ...local, FLOWPROOF_GRID_URL: grid.url };
    const recorded = await record({ spec, env: local, author: "rules", recordingDetail: "off" });
    if (!recorded.ok) {
      console.error(`bench: recording failed: ${recorded.error ?? "unknown"}`);
      return 1;
    }
    const samples = new Map<string, Sample[]>();
    const keep = (key: string, sample: Sample) => samples.set(key, [...(samples.get(key) ?? []), sample]);
    for (let round = -warmup; round < runs; round++) {
      for (const detail of DETAILS) {
        const a = await replay(spec, local, detail);
        const b = await replay(spec, onGrid, detail);
        if (round >= 0) {
          keep(`local ${detail}`, a);
          keep(`grid ${detail}`, b);
        }
      }
    }
    const ms = (n: number) => `${Math.round(n)}`.padStart(7);
    console.log(`flowproof replay on a Selenium Grid vs local Chromium — 30-step flow, ${runs} timed run(s) each, medians (ms); load ${loadAverage()}`);
    for (const detail of DETAILS) {
      const of = (where: string, pick: (s: Sample) => number) => median((samples.get(`${where} ${detail}`) ?? []).map(pick));
      const [lw, gw] = [of("local", (s) => s.wallMs), of("grid", (s) => s.wallMs)];
      const [ls, gs] = [of("local", (s) => s.stepsMs), of("grid", (s) => s.stepsMs)];
      const ratio = gs / ls;
      console.log(`\nrecording ${detail}${detail === "full" ? " (the default replay)" : ""}`);
      console.log(`                      local     grid   grid/local`);
      console.log(`whole run          ${ms(lw)}  ${ms(gw)}   ${(gw / lw).toFixed(2)}×`);
      console.log(`30 steps           ${ms(ls)}  ${ms(gs)}   ${(gs / ls).toFixed(2)}×`);
      console.log(`start + close      ${ms(lw - ls)}  ${ms(gw - gs)}`);
      console.log(
        `target: the 30 steps ≤ ${TARGET_RATIO}× local — ${ratio <= TARGET_RATIO ? "met" : "NOT met"} (${ratio.toFixed(2)}×); a session start per flow comes on top (start + close)`,
      );
    }
    return 0;
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    return 1;
  } finally {
    server.stop();
    await grid.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

process.exit(await main());
