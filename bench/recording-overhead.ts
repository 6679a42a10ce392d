// Recording benchmark: what run recording costs.
//
//   node_modules/.bin/bun bench/recording-overhead.ts [--runs N]
//
// 1. Replays bench/flows/bench.flow.yaml (30 steps) alternately with --recording-detail off, low
//    and full, N timed runs each after one untimed warm-up, and prints the median wall time of
//    full and low over off (browser launch included), the sum of step times, and how many of
//    full's frames were new captures (the rest reused an unchanged screen, docs/recording.md).
//    Targets: full ≤ 1.35× off, low ≤ 1.10× off.
// 2. recording.gif for 100 frames at 1280×800 (the full run's own frames, cycled): the frame
//    images are made by the frame worker as each frame is written, off the step path, and the
//    file is concatenated when the run ends. Prints both costs, and the old from-PNG-files path
//    (decoding included) for comparison. Target: ≤ 3 s for the GIF's cost.
// 3. One more full run with --video per round: what --video adds to a run's wall time.
// A measurement, not a test: exits 0 whatever the figures; 1 when a replay fails; 2 without Chromium.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { record, run } from "../src/index.ts";
import { startServer } from "./app-server.ts";
import { findBrowser } from "../plugins/web/launch.ts";
import { assembleGif, assembleGifChunks, gifFrameChunk } from "../src/recording/gif.ts";
import { decodePng } from "../src/recording/image.ts";
import { median } from "./stats.ts";

const BENCH_DIR = import.meta.dir;
const FLOW_FILE = resolve(BENCH_DIR, "flows", "bench.flow.yaml");
const GIF_FRAMES = 100;
const TARGETS = { full: 1.35, low: 1.1, gifMs: 3000 } as const;

function parseRuns(argv: readonly string[]): number {
  const i = argv.findIndex((a) => a === "--runs" || a.startsWith("--runs="));
  if (i === -1) return 5;
  const raw = argv[i]!.includes("=") ? argv[i]!.split("=")[1] : argv[i + 1];
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`bench: --runs needs a whole number ≥ 1, not ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return n;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const times = (x: number) => `${x.toFixed(2)}×`;
const met = (ok: boolean) => (ok ? "met" : "MISSED");
/** The 1, 5 and 15 minute load averages: the figures mean little on a busy machine. */
const loadAverage = () => {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
};

interface Sample {
  wallMs: number;
  stepsMs: number;
  frames: string[];
  runDir: string;
}

async function main(): Promise<number> {
  const runs = parseRuns(process.argv.slice(2));
  const chrome = findBrowser(process.env, { headless: true }).path;
  if (!chrome) {
    console.error("bench: no Chromium found; set FLOWPROOF_CHROME or install chromium");
    return 2;
  }
  const server = startServer();
  const work = mkdtempSync(join(tmpdir(), "flowproof-recbench-"));
  try {
    const spec = join(work, "bench.flow.yaml");
    copyFileSync(FLOW_FILE, spec);
    const env = { ...process.env, BENCH_URL: server.url };
    const recorded = await record({ spec, env, author: "rules", recordingDetail: "off" });
    if (!recorded.ok) {
      console.error(`bench: recording failed: ${recorded.error ?? "unknown"}`);
      return 1;
    }
    const once = async (detail: "off" | "low" | "full", video = false): Promise<Sample> => {
      const t0 = performance.now();
      const result = await run({ spec, env, recordingDetail: detail, video });
      const wallMs = performance.now() - t0;
      if (!result.report.passed) throw new Error(`replay failed (${detail}): ${result.run_dir}`);
      const stepsMs = result.report.steps.reduce((a, s) => a + s.duration_ms, 0);
      return { wallMs, stepsMs, frames: (result.report.recording?.frames ?? []).map((f) => join(result.run_dir, f.file)), runDir: result.run_dir };
    };
    const off: Sample[] = [];
    const low: Sample[] = [];
    const full: Sample[] = [];
    const video: Sample[] = [];
    const loadBefore = loadAverage();
    for (let round = -1; round < runs; round++) {
      const a = await once("off");
      const l = await once("low");
      const b = await once("full");
      const c = await once("full", true);
      if (round >= 0) {
        off.push(a);
        low.push(l);
        full.push(b);
        video.push(c);
      }
      console.error(
        `bench: ${round < 0 ? "warm-up" : `run ${round + 1}/${runs}`}: off ${a.wallMs.toFixed(0)} ms (steps ${a.stepsMs}), low ${l.wallMs.toFixed(0)} ms, full ${b.wallMs.toFixed(0)} ms (steps ${b.stepsMs}, ${b.frames.length} frames), full+video ${c.wallMs.toFixed(0)} ms`,
      );
    }
    const wallVideo = median(video.map((s) => s.wallMs));
    const wallOff = median(off.map((s) => s.wallMs));
    const wallFull = median(full.map((s) => s.wallMs));
    const wallLow = median(low.map((s) => s.wallMs));
    const stepsOff = median(off.map((s) => s.stepsMs));
    const stepsFull = median(full.map((s) => s.stepsMs));
    // A reused frame is the earlier capture's file, linked under its own offset: count the pictures.
    const captures = new Set(full.at(-1)!.frames.map((f) => statSync(f).ino)).size;

    const frames = full.at(-1)!.frames;
    const offsets = Array.from({ length: GIF_FRAMES }, (_, i) => i * 500);
    const decoded = frames.map((f) => decodePng(readFileSync(f)));
    const size = decoded[0]!;
    // What the frame worker adds per frame with --video (the frame is already decoded there).
    const t1 = performance.now();
    const chunks = offsets.map((_, i) => gifFrameChunk(decoded[i % decoded.length]!));
    const chunkMs = performance.now() - t1;
    // What the end of the run waits for.
    const t2 = performance.now();
    const gif = assembleGifChunks(offsets, chunks);
    const assembleMs = performance.now() - t2;
    const t3 = performance.now();
    await assembleGif(offsets, (i) => decodePng(readFileSync(frames[i % frames.length]!)));
    const fromFilesMs = performance.now() - t3;

    console.log(`flowproof recording — 30-step flow, ${runs} timed run(s) each, medians; load average ${loadBefore} before, ${loadAverage()} after`);
    console.log(`  wall time (launch included): off ${wallOff.toFixed(0)} ms, low ${wallLow.toFixed(0)} ms, full ${wallFull.toFixed(0)} ms`);
    console.log(`  full / off: ${times(wallFull / wallOff)} (target ≤ ${times(TARGETS.full)}): ${met(wallFull / wallOff <= TARGETS.full)}`);
    console.log(`  low / off:  ${times(wallLow / wallOff)} (target ≤ ${times(TARGETS.low)}): ${met(wallLow / wallOff <= TARGETS.low)}`);
    console.log(`  sum of step times:           off ${stepsOff.toFixed(0)} ms, full ${stepsFull.toFixed(0)} ms → overhead ${pct(stepsFull / stepsOff - 1)}`);
    console.log(`  frames per full run: ${frames.length}, of which new captures: ${captures} (the rest reuse an unchanged screen)`);
    console.log(
      `  GIF: ${GIF_FRAMES} frames at ${size.width}×${size.height} → ${(gif.length / 1024).toFixed(0)} KiB: frame images ${chunkMs.toFixed(0)} ms (${(chunkMs / GIF_FRAMES).toFixed(1)} ms each, in the frame worker) + assembly ${assembleMs.toFixed(0)} ms = ${(chunkMs + assembleMs).toFixed(0)} ms (target ≤ ${TARGETS.gifMs} ms: ${met(chunkMs + assembleMs <= TARGETS.gifMs)}); from PNG files, decoding included: ${fromFilesMs.toFixed(0)} ms`,
    );
    console.log(`  --video on a full run: ${wallVideo.toFixed(0)} ms vs ${wallFull.toFixed(0)} ms → adds ${pct(wallVideo / wallFull - 1)}`);
    return 0;
  } finally {
    server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

process.exit(await main());
