// Cost of step effects on replay: the 30-step bench flow (bench/flows/bench.flow.yaml) recorded
// once, then replayed alternately with its recorded effects checked and with the same trace marked
// `effects: "off"` (nothing observed, nothing compared).
//
//   node_modules/.bin/bun bench/effects-overhead.ts [--runs N] [--warmup W]
//
// Prints the median replay wall time of each, the overhead in percent and the machine's load
// average before and after (a busy machine blurs a few percent). Exits 1 when a replay fails, 2
// when Chromium is missing. Run it on an idle machine (see bench/README.md).
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { record, run } from "../src/index.ts";
import { findBrowser } from "../plugins/web/launch.ts";
import { startServer } from "./app-server.ts";
import { median, wholeOption } from "./stats.ts";

const USAGE = "bun bench/effects-overhead.ts [--runs N] [--warmup W]";
const FLOW_FILE = resolve(import.meta.dir, "flows", "bench.flow.yaml");

async function main(): Promise<number> {
  const runs = Math.max(1, wholeOption("--runs", 5, USAGE));
  const warmup = wholeOption("--warmup", 1, USAGE);
  if (!findBrowser(process.env, { headless: true }).path) {
    console.error("bench: no Chromium found; set FLOWPROOF_CHROME or install chromium");
    return 2;
  }
  const loadBefore = loadavg();
  const server = startServer();
  const work = mkdtempSync(join(tmpdir(), "flowproof-effects-bench-"));
  try {
    const spec = join(work, "bench.flow.yaml");
    copyFileSync(FLOW_FILE, spec);
    const env = { ...process.env, BENCH_URL: server.url };
    const recorded = await record({ spec, env, author: "rules", recordingDetail: "off" });
    if (!recorded.ok || !recorded.trace_path) {
      console.error(`bench: recording failed: ${recorded.error ?? "unknown"}`);
      return 1;
    }
    const lines = readFileSync(recorded.trace_path, "utf8").trim().split("\n");
    const effects = lines.slice(1).filter((l) => (JSON.parse(l) as { effect?: unknown }).effect !== undefined).length;
    const offTrace = join(work, "bench.effects-off.trace.jsonl");
    writeFileSync(offTrace, [JSON.stringify({ ...JSON.parse(lines[0]!), effects: "off" }), ...lines.slice(1)].join("\n") + "\n");
    const on: number[] = [];
    const off: number[] = [];
    const replay = async (trace: string) => {
      const t0 = performance.now();
      const r = await run({ spec, trace, env, recordingDetail: "off" });
      const ms = performance.now() - t0;
      if (!r.report.passed) throw new Error(`replay failed: ${r.report.error ?? r.report.steps.find((s) => s.status !== "passed")?.detail ?? "unknown"}`);
      return ms;
    };
    for (let round = -warmup; round < runs; round++) {
      // Alternate which goes first, so a trend in machine load favours neither.
      const first = round % 2 === 0;
      const a = first ? await replay(recorded.trace_path) : undefined;
      const b = await replay(offTrace);
      const c = first ? a! : await replay(recorded.trace_path);
      if (round < 0) continue;
      on.push(c);
      off.push(b);
    }
    const mOn = median(on);
    const mOff = median(off);
    const pct = ((mOn - mOff) / mOff) * 100;
    console.log(`steps with a recorded effect: ${effects} of ${lines.length - 1}`);
    console.log(`replay, effects checked:  median ${mOn.toFixed(0)} ms  (${on.map((x) => x.toFixed(0)).join(", ")})`);
    console.log(`replay, effects off:      median ${mOff.toFixed(0)} ms  (${off.map((x) => x.toFixed(0)).join(", ")})`);
    console.log(`overhead: ${pct >= 0 ? "+" : ""}${pct.toFixed(1)} % (target: within 5 %)`);
    const load = (l: readonly number[]) => l.map((x) => x.toFixed(2)).join(" ");
    console.log(`load average (1, 5, 15 min) on ${cpus().length} cores: before ${load(loadBefore)}, after ${load(loadavg())}`);
    return 0;
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    return 1;
  } finally {
    server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

process.exit(await main());
