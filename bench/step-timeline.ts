// Measurement: where each step of the 30-step flow spends its wall time, and what lies between steps.
//
//   node_modules/.bin/bun bench/step-timeline.ts [--runs N] [--detail off|low|full|video] [--steps] [--calls] [--browser chromium|firefox] [--browser-args "--a --b"]
//
// Serves bench/pages/ on 127.0.0.1, records bench/flows/bench.flow.yaml once (untimed), then
// replays it N times in this process (after one warm-up) with two taps on: the browser connection's
// tap (DevTools: plugins/web/cdp/connection.ts, `cdpTap`; Firefox's WebDriver BiDi:
// plugins/web/bidi/connection.ts, `bidiTap`) and a timer tap that wraps this process's
// setTimeout and names, from the call stack, which module set each timer that fired. Each step's
// window (its duration_ms, ending when its result is reported) is split, in this order of
// precedence, into:
//   capture      a Page.captureScreenshot (or screencast; BiDi: browsingContext.captureScreenshot) round trip was unanswered
//   round trips  another command to the browser was unanswered
//   timers       a timer the flowproof code set was running (a sleep, a poll interval, a quiet window), by module
//   other        none of these: this process working (or waiting on something untapped)
// The gaps between steps (the recorder's after-frame and before-frame, checkpoints) are split the
// same way. `--browser-args` adds Chromium flags to the flow (its `browser.args`). Prints per step kind, then the totals, then with `--steps` one line per step,
// and with `--calls` the commands each kind of step sends (how many per step, and their time), named by what they ask the page.
// A measurement, not a test: exits 0 after the figures, 1 when a replay fails, 2 on a bad argument.
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { record, run } from "../src/index.ts";
import { cdpTap, type TappedCall } from "../plugins/web/cdp/connection.ts";
import { bidiTap } from "../plugins/web/bidi/connection.ts";
import { startServer } from "./app-server.ts";
import { loadAverage, median, wholeOption } from "./stats.ts";

const FLOW_FILE = resolve(import.meta.dir, "flows", "bench.flow.yaml");
const ROOT = resolve(import.meta.dir, "..");
const USAGE = 'bun bench/step-timeline.ts [--runs N] [--detail off|low|full|video] [--steps] [--calls] [--browser chromium|firefox] [--browser-args "--a --b"]';
const FLOW_STEPS = (parseYaml(readFileSync(FLOW_FILE, "utf8")) as { steps: Array<string | Record<string, unknown>> }).steps;

type Kind = "assert" | "wait" | "type" | "select" | "check" | "click" | "press";
function kindOf(text: string | Record<string, unknown>): Kind {
  if (typeof text !== "string") return "assert";
  if (/^wait/i.test(text)) return "wait";
  if (/^(type|replace)/i.test(text)) return "type";
  if (/^select/i.test(text)) return "select";
  if (/^check/i.test(text)) return "check";
  if (/^press [a-z]+$/i.test(text)) return "press";
  return "click";
}

interface Span {
  readonly from: number;
  readonly to: number;
}
interface FiredTimer extends Span {
  readonly owner: string;
  readonly delay: number;
}

/** Every timer with a delay that fired while the tap was on: who set it, when, for how long. */
const fired: FiredTimer[] = [];
let tapping = false;
const realSetTimeout = globalThis.setTimeout;

/** The first flowproof module (src/ or plugins/) on the stack, as `path:line`. */
function ownerOf(stack: string | undefined): string {
  for (const line of (stack ?? "").split("\n").slice(2)) {
    const m = /(\/(?:src|plugins)\/[^:)\s]+):(\d+)/.exec(line);
    if (m && !m[1]!.includes("/bench/")) return `${m[1]!.slice(1)}:${m[2]}`;
  }
  return "(elsewhere)";
}

globalThis.setTimeout = ((fn: (...a: unknown[]) => void, delay?: number, ...args: unknown[]) => {
  if (!tapping || !delay || delay <= 0) return realSetTimeout(fn, delay, ...args);
  const from = performance.now();
  const owner = ownerOf(new Error().stack);
  return realSetTimeout(
    (...a: unknown[]) => {
      fired.push({ from, to: performance.now(), owner, delay });
      fn(...a);
    },
    delay,
    ...args,
  );
}) as typeof setTimeout;

/** A window's milliseconds split by what was going on; `timers` keyed by owner. */
interface Split {
  capture: number;
  roundTrips: number;
  timers: Map<string, number>;
  other: number;
  total: number;
}

const CAPTURE_METHODS = new Set(["Page.captureScreenshot", "Page.screencastFrameAck", "Page.startScreencast", "browsingContext.captureScreenshot"]);

/** A command's name for the `--calls` table: a page API call by its method, a page expression by its start, anything else by its protocol method. */
function labelOf(method: string, params: Readonly<Record<string, unknown>> | undefined): string {
  const code = String(params?.["expression"] ?? params?.["functionDeclaration"] ?? "");
  if (!code) return method;
  const api = /globalThis\.__flowproof\.(\w+)\(/.exec(code);
  if (api) return `${method} page.${api[1]}`;
  if (code.includes("requestAnimationFrame")) return `${method} (next frame)`;
  const inner = /await \(([\s\S]*)\n\); return v/.exec(code)?.[1] ?? code;
  return `${method} ${inner.replace(/\s+/g, " ").slice(0, 48)}`;
}

interface LabelledCall extends TappedCall {
  readonly label: string;
}

/** Splits [from, to) in 0.25 ms slices by precedence: capture, round trip, timer, other. */
function split(from: number, to: number, calls: readonly TappedCall[], timers: readonly FiredTimer[]): Split {
  const out: Split = { capture: 0, roundTrips: 0, timers: new Map(), other: 0, total: Math.max(0, to - from) };
  const cap = calls.filter((c) => CAPTURE_METHODS.has(c.method) && c.answeredAt > from && c.sentAt < to);
  const rt = calls.filter((c) => !CAPTURE_METHODS.has(c.method) && c.answeredAt > from && c.sentAt < to);
  const tm = timers.filter((t) => t.to > from && t.from < to);
  const slice = 0.25;
  for (let t = from; t < to; t += slice) {
    const inside = (s: Span) => s.from <= t && t < s.to;
    if (cap.some((c) => c.sentAt <= t && t < c.answeredAt)) out.capture += slice;
    else if (rt.some((c) => c.sentAt <= t && t < c.answeredAt)) out.roundTrips += slice;
    else {
      const timer = tm.find(inside);
      if (timer) out.timers.set(timer.owner, (out.timers.get(timer.owner) ?? 0) + slice);
      else out.other += slice;
    }
  }
  return out;
}

interface StepSample {
  readonly intent: string;
  readonly kind: Kind;
  readonly inStep: Split;
  /** The gap from this step's end to the next step's start (or to run()'s return after the last). */
  readonly after: Split;
  /** The commands sent inside the step's window: label and milliseconds until answered. */
  readonly calls: ReadonlyArray<readonly [string, number]>;
}

async function replay(spec: string, env: Record<string, string | undefined>, detail: string): Promise<{ steps: StepSample[]; wallMs: number }> {
  const calls: LabelledCall[] = [];
  const windows: Array<{ intent: string; from: number; to: number }> = [];
  fired.length = 0;
  cdpTap.onCall = (c) => calls.push({ ...c, label: c.method });
  bidiTap.onCall = (c) => calls.push({ ...c, sessionId: undefined, label: labelOf(c.method, c.params) });
  tapping = true;
  const t0 = performance.now();
  let end: number;
  try {
    const result = await run({
      spec,
      env,
      ...(detail === "video" ? { video: true } : { recordingDetail: detail as "off" | "low" | "full" }),
      onStep: (_i, _n, intent, r) => {
        const to = performance.now();
        windows.push({ intent, from: to - r.duration_ms, to });
      },
    });
    end = performance.now();
    if (!result.report.passed) throw new Error(`replay failed: ${result.report.error ?? "a step failed"} (bundle: ${result.run_dir})`);
  } finally {
    cdpTap.onCall = undefined;
    bidiTap.onCall = undefined;
    tapping = false;
  }
  const steps = windows.map((w, i) => ({
    intent: w.intent,
    kind: kindOf(FLOW_STEPS[i]!),
    inStep: split(w.from, w.to, calls, fired),
    after: split(w.to, windows[i + 1]?.from ?? end, calls, fired),
    calls: calls.filter((c) => c.sentAt >= w.from && c.sentAt < w.to).map((c) => [c.label, c.answeredAt - c.sentAt] as const),
  }));
  return { steps, wallMs: end - t0 };
}

const f = (x: number) => x.toFixed(0).padStart(6);

/** Medians over runs of one figure of a set of steps. */
function med(samples: readonly StepSample[][], idx: readonly number[], pick: (s: StepSample) => number): number {
  return median(samples.map((steps) => idx.reduce((n, i) => n + pick(steps[i]!), 0)));
}

function owners(samples: readonly StepSample[][], which: "inStep" | "after"): string[] {
  const all = new Set<string>();
  for (const steps of samples) for (const s of steps) for (const k of s[which].timers.keys()) all.add(k);
  return [...all].sort();
}

function table(samples: readonly StepSample[][], which: "inStep" | "after", heading: string): void {
  const first = samples[0]!;
  const timerOwners = owners(samples, which);
  console.log(`\n${heading}`);
  console.log(`| steps | n | total | capture | round trips | timers | other | timers by module (ms) |`);
  console.log(`|---|---:|---:|---:|---:|---:|---:|---|`);
  const kinds: Array<Kind | "all"> = ["assert", "wait", "type", "select", "check", "click", "press", "all"];
  for (const kind of kinds) {
    const idx = first.map((s, i) => (kind === "all" || s.kind === kind ? i : -1)).filter((i) => i >= 0);
    if (idx.length === 0) continue;
    const timers = (s: StepSample) => [...s[which].timers.values()].reduce((a, b) => a + b, 0);
    const byOwner = timerOwners
      .map((o) => [o, med(samples, idx, (s) => s[which].timers.get(o) ?? 0)] as const)
      .filter(([, ms]) => ms >= 0.5)
      .map(([o, ms]) => `${o} ${ms.toFixed(0)}`)
      .join(", ");
    console.log(
      `| ${kind} | ${idx.length} | ${f(med(samples, idx, (s) => s[which].total))} | ${f(med(samples, idx, (s) => s[which].capture))} | ${f(med(samples, idx, (s) => s[which].roundTrips))} | ${f(med(samples, idx, timers))} | ${f(med(samples, idx, (s) => s[which].other))} | ${byOwner} |`,
    );
  }
}

function perStep(samples: readonly StepSample[][]): void {
  console.log("\nPer step, medians (in the step | in the gap after it), ms: total, capture, round trips, timers, other");
  samples[0]!.forEach((s, i) => {
    const m = (which: "inStep" | "after", pick: (x: Split) => number) => median(samples.map((steps) => pick(steps[i]![which])));
    const timers = (x: Split) => [...x.timers.values()].reduce((a, b) => a + b, 0);
    const cols = (w: "inStep" | "after") =>
      [m(w, (x) => x.total), m(w, (x) => x.capture), m(w, (x) => x.roundTrips), m(w, timers), m(w, (x) => x.other)]
        .map((x) => x.toFixed(0).padStart(4))
        .join(" ");
    console.log(`  ${String(i + 1).padStart(2)} ${cols("inStep")} | ${cols("after")}  ${s.intent}`);
  });
}

/** Per step kind: each command label's calls per step and milliseconds per step (means over runs and the kind's steps). */
function callTable(samples: readonly StepSample[][]): void {
  console.log("\nCommands sent inside the steps, per step of each kind (means over the runs): calls, ms until answered (overlapping calls both count)");
  const kinds: Kind[] = ["assert", "wait", "type", "select", "check", "click", "press"];
  for (const kind of kinds) {
    const steps = samples.flatMap((run) => run.filter((s) => s.kind === kind));
    if (steps.length === 0) continue;
    const by = new Map<string, { n: number; ms: number }>();
    for (const s of steps)
      for (const [label, ms] of s.calls) {
        const e = by.get(label) ?? { n: 0, ms: 0 };
        e.n++;
        e.ms += ms;
        by.set(label, e);
      }
    const total = [...by.values()].reduce((a, e) => a + e.n, 0) / steps.length;
    console.log(`  ${kind} (${steps.length / samples.length} steps): ${total.toFixed(1)} calls per step`);
    for (const [label, e] of [...by.entries()].sort((a, b) => b[1].ms - a[1].ms))
      console.log(`    ${(e.n / steps.length).toFixed(2).padStart(6)} × ${(e.ms / steps.length).toFixed(1).padStart(7)} ms  ${label}`);
  }
}

async function main(): Promise<number> {
  const runs = wholeOption("--runs", 5, USAGE, 1);
  const d = process.argv.indexOf("--detail");
  const detail = d === -1 ? "off" : (process.argv[d + 1] ?? "");
  const b = process.argv.indexOf("--browser");
  const browser = b === -1 ? "chromium" : (process.argv[b + 1] ?? "");
  if (!["off", "low", "full", "video"].includes(detail) || !["chromium", "firefox"].includes(browser)) {
    console.error(`usage: ${USAGE}`);
    return 2;
  }
  const server = startServer();
  const work = mkdtempSync(join(tmpdir(), "flowproof-bench-timeline-"));
  try {
    const spec = join(work, "bench.flow.yaml");
    copyFileSync(FLOW_FILE, spec);
    const a = process.argv.indexOf("--browser-args");
    const browserArgs = a === -1 ? [] : (process.argv[a + 1] ?? "").split(" ").filter(Boolean);
    if (browserArgs.length > 0) appendFileSync(spec, `browser:\n  args: ${JSON.stringify(browserArgs)}\n`);
    const env = { ...process.env, BENCH_URL: server.url, FLOWPROOF_BROWSER: "chromium" };
    // Recorded in Chromium, replayed in the browser asked for (as bench/firefox-vs-chromium.ts does).
    const recorded = await record({ spec, env, author: "rules", recordingDetail: "off" });
    env.FLOWPROOF_BROWSER = browser;
    if (!recorded.ok) {
      console.error(`bench: recording failed: ${recorded.error ?? "unknown"}`);
      return 1;
    }
    const loadBefore = loadAverage();
    await replay(spec, env, detail); // warm-up
    const samples: StepSample[][] = [];
    const walls: number[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await replay(spec, env, detail);
      samples.push(r.steps);
      walls.push(r.wallMs);
    }
    console.log(`Step timeline, 30-step flow in ${browser}, recording ${detail}, ${runs} run(s) in one process after a warm-up, medians, ms`);
    console.log(`load average (1, 5, 15 min) before: ${loadBefore}, after: ${loadAverage()}; run() wall time, median: ${median(walls).toFixed(0)}`);
    if (browserArgs.length > 0) console.log(`Chromium flags added: ${browserArgs.join(" ")}`);
    console.log(`timers are named by the flowproof module line that set them (paths from ${ROOT})`);
    table(samples, "inStep", "Inside the steps (each step's duration_ms)");
    table(samples, "after", "Between steps (from a step's end to the next step's start; after the last, to run()'s return)");
    if (process.argv.includes("--steps")) perStep(samples);
    if (process.argv.includes("--calls")) callTable(samples);
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
