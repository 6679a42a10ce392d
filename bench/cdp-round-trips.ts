// Measurement: DevTools round trips per step of the 30-step flow, by step kind.
//
//   node_modules/.bin/bun bench/cdp-round-trips.ts [--runs N] [--grid] [--detail off|low|full] [--steps]
//
// Serves bench/pages/ on 127.0.0.1, records bench/flows/bench.flow.yaml once (untimed), then
// replays it N times in this process with the connection tap (plugins/web/cdp/connection.ts,
// `cdpTap`) on. Each command is given to the step whose time window it was sent in (the window
// ends when the step's result is reported, and is as long as its duration_ms); commands between
// steps (the recorder's after-frame, a frame read back off the step path) are counted apart.
// Prints per step kind the median commands per step, the median step time, and which methods
// they were; `--steps` adds one line per step. With `--grid` it starts the two-node test grid
// (test/support/grid.ts) and replays there too, with the Chromium binary the nodes run.
// Exit codes: 0 after the figures, 1 when a replay fails, 2 on a bad argument.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { record, run } from "../src/index.ts";
import { cdpTap, type TappedCall } from "../plugins/web/cdp/connection.ts";
import { startServer } from "./app-server.ts";
import { median, wholeOption } from "./stats.ts";
import { gridUnavailable, startGrid } from "../test/support/grid.ts";

const FLOW_FILE = resolve(import.meta.dir, "flows", "bench.flow.yaml");
const USAGE = "bun bench/cdp-round-trips.ts [--runs N] [--grid] [--detail off|low|full] [--steps]";
const NODE_BROWSER = "/usr/lib/chromium/chromium";

type Kind = "assert" | "wait" | "type" | "select" | "check" | "click" | "press";

/** The kind of the flow file's step `text` (an `assert:` entry is an object). */
function kindOf(text: string | Record<string, unknown>): Kind {
  if (typeof text !== "string") return "assert";
  if (/^wait/i.test(text)) return "wait";
  if (/^(type|replace)/i.test(text)) return "type";
  if (/^select/i.test(text)) return "select";
  if (/^check/i.test(text)) return "check";
  if (/^press [a-z]+$/i.test(text)) return "press";
  return "click";
}

/** The flow's steps as written, in order. */
const FLOW_STEPS = (parseYaml(readFileSync(FLOW_FILE, "utf8")) as { steps: Array<string | Record<string, unknown>> }).steps;

interface StepSample {
  readonly intent: string;
  readonly kind: Kind;
  readonly ms: number;
  readonly calls: readonly TappedCall[];
}

interface RunSample {
  readonly steps: readonly StepSample[];
  /** Commands sent outside every step's window (launch, start page, between steps, close). */
  readonly outside: number;
  readonly wallMs: number;
}

async function replay(spec: string, env: Record<string, string | undefined>, detail: "off" | "low" | "full"): Promise<RunSample> {
  const calls: TappedCall[] = [];
  const windows: Array<{ intent: string; from: number; to: number; ms: number }> = [];
  cdpTap.onCall = (c) => calls.push(c);
  const t0 = performance.now();
  try {
    const result = await run({
      spec,
      env,
      recordingDetail: detail,
      onStep: (_i, _n, intent, r) => {
        const to = performance.now();
        windows.push({ intent, from: to - r.duration_ms, to, ms: r.duration_ms });
      },
    });
    if (!result.report.passed) throw new Error(`replay failed: ${result.report.error ?? "a step failed"} (bundle: ${result.run_dir})`);
  } finally {
    cdpTap.onCall = undefined;
  }
  const wallMs = performance.now() - t0;
  // A whole-millisecond duration may start up to 1 ms before the window's first command.
  const steps = windows.map((w, i) => ({
    intent: w.intent,
    kind: kindOf(FLOW_STEPS[i]!),
    ms: w.ms,
    calls: calls.filter((c) => c.sentAt >= w.from - 1 && c.sentAt <= w.to),
  }));
  const inside = new Set(steps.flatMap((s) => s.calls));
  return { steps, outside: calls.filter((c) => !inside.has(c)).length, wallMs };
}

/** Awaited round trips: commands sent while none of the step's earlier commands was still unanswered. */
function hopsOf(calls: readonly TappedCall[]): number {
  let hops = 0;
  let busyUntil = Number.NEGATIVE_INFINITY;
  for (const c of [...calls].sort((a, b) => a.sentAt - b.sentAt)) {
    if (c.sentAt >= busyUntil) hops++;
    busyUntil = Math.max(busyUntil, c.answeredAt);
  }
  return hops;
}

function report(label: string, samples: readonly RunSample[], perStep: boolean): void {
  const first = samples[0]!;
  console.log(`\n${label}: ${samples.length} run(s), medians; wall ${Math.round(median(samples.map((s) => s.wallMs)))} ms`);
  console.log("kind     steps  calls/step  hops/step  ms/step  methods per step (median run)");
  const kinds: Kind[] = ["assert", "wait", "type", "select", "check", "click", "press"];
  let total = 0;
  let totalHops = 0;
  for (const kind of kinds) {
    const idx = first.steps.map((s, i) => (s.kind === kind ? i : -1)).filter((i) => i >= 0);
    if (idx.length === 0) continue;
    const perRun = samples.map((s) => idx.reduce((n, i) => n + s.steps[i]!.calls.length, 0) / idx.length);
    const ms = samples.map((s) => idx.reduce((n, i) => n + s.steps[i]!.ms, 0) / idx.length);
    const hops = samples.map((s) => idx.reduce((n, i) => n + hopsOf(s.steps[i]!.calls), 0) / idx.length);
    totalHops += median(hops) * idx.length;
    const methods = new Map<string, number[]>();
    samples.forEach((s, r) => {
      for (const i of idx)
        for (const c of s.steps[i]!.calls) {
          const m = methods.get(c.method) ?? samples.map(() => 0);
          m[r]! += 1 / idx.length;
          methods.set(c.method, m);
        }
    });
    const listed = [...methods.entries()]
      .map(([m, n]) => [m, median(n)] as const)
      .sort((a, b) => b[1] - a[1])
      .map(([m, n]) => `${m} ${n.toFixed(1)}`)
      .join(", ");
    total += median(perRun) * idx.length;
    console.log(
      `${kind.padEnd(8)} ${String(idx.length).padStart(5)}  ${median(perRun).toFixed(1).padStart(10)}  ${median(hops).toFixed(1).padStart(9)}  ${median(ms).toFixed(0).padStart(7)}  ${listed}`,
    );
  }
  console.log(
    `all 30 steps: ${Math.round(total)} commands, ${Math.round(totalHops)} awaited round trips, ${Math.round(median(samples.map((s) => s.steps.reduce((n, x) => n + x.ms, 0))))} ms; outside the steps: ${Math.round(median(samples.map((s) => s.outside)))} commands`,
  );
  const timeline = process.argv.indexOf("--timeline");
  if (timeline !== -1) {
    for (const n of process.argv[timeline + 1]!.split(",").map(Number)) {
      const st = first.steps[n - 1]!;
      const from = st.calls[0]?.sentAt ?? 0;
      console.log(`  step ${n} (${st.ms} ms): ${st.intent}`);
      for (const c of st.calls) console.log(`    ${(c.sentAt - from).toFixed(1).padStart(6)} → ${(c.answeredAt - from).toFixed(1).padStart(6)}  ${c.method}`);
    }
  }
  if (!perStep) return;
  first.steps.forEach((st, i) => {
    const calls = median(samples.map((s) => s.steps[i]!.calls.length));
    const ms = median(samples.map((s) => s.steps[i]!.ms));
    const hops = median(samples.map((s) => hopsOf(s.steps[i]!.calls)));
    console.log(
      `  ${String(i + 1).padStart(2)} ${String(calls).padStart(4)} calls ${String(hops).padStart(4)} hops ${String(ms).padStart(5)} ms  ${st.intent}  [${st.calls.map((c) => c.method).join(" ")}]`,
    );
  });
}

async function main(): Promise<number> {
  const runs = wholeOption("--runs", 3, USAGE, 1);
  const onGrid = process.argv.includes("--grid");
  const perStep = process.argv.includes("--steps");
  const d = process.argv.indexOf("--detail");
  const detail = (d === -1 ? "off" : process.argv[d + 1]) as "off" | "low" | "full";
  if (!["off", "low", "full"].includes(detail)) {
    console.error(`usage: ${USAGE}`);
    return 2;
  }
  if (onGrid && gridUnavailable()) {
    console.error(`bench: cannot start a grid: ${gridUnavailable()}`);
    return 2;
  }
  const server = startServer();
  const work = mkdtempSync(join(tmpdir(), "flowproof-bench-cdp-"));
  const grid = onGrid ? await startGrid({ nodes: 2 }) : undefined;
  try {
    const spec = join(work, "bench.flow.yaml");
    copyFileSync(FLOW_FILE, spec);
    const local = { ...process.env, BENCH_URL: server.url, FLOWPROOF_GRID_URL: "local", ...(onGrid ? { FLOWPROOF_CHROME: NODE_BROWSER } : {}) };
    const recorded = await record({ spec, env: local, author: "rules", recordingDetail: "off" });
    if (!recorded.ok) {
      console.error(`bench: recording failed: ${recorded.error ?? "unknown"}`);
      return 1;
    }
    const localSamples: RunSample[] = [];
    const gridSamples: RunSample[] = [];
    await replay(spec, local, detail); // warm-up
    for (let i = 0; i < runs; i++) {
      localSamples.push(await replay(spec, local, detail));
      if (grid) gridSamples.push(await replay(spec, { ...local, FLOWPROOF_GRID_URL: grid.url }, detail));
    }
    console.log(`DevTools commands per step, 30-step flow, recording ${detail}`);
    report("local", localSamples, perStep);
    if (grid) report("grid", gridSamples, perStep);
    return 0;
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    return 1;
  } finally {
    server.stop();
    await grid?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

process.exit(await main());
