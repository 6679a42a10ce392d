// Performance benchmark: flowproof replay vs an equivalent playwright-core script.
//
//   node_modules/.bin/bun bench/replay-vs-playwright.ts [--runs N] [--warmup W] [--json]
//
// Serves bench/pages/ on 127.0.0.1 (port 0), records bench/flows/bench.flow.yaml once (untimed),
// then alternates N timed replays of: flowproof (`run` library function) with its default
// recording (full detail) and with recording off, Playwright using `fill`, and Playwright using
// `pressSequentially` (real keystrokes, the like-for-like typing comparison).
// Every timed run includes its own browser launch and close. Prints a table and exits 0; exits 1
// when a replay fails (the figures would be meaningless) and 2 when Chromium is missing.
// See bench/README.md for what each figure means.
import { existsSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { record, run } from "../src/index.ts";
import { PAGES_DIR, startServer } from "./app-server.ts";
import { findBrowser } from "../plugins/web/launch.ts";
import { loadAverage, machineBusy, median } from "./stats.ts";
import { STEPS, type Kind, type Mode } from "./playwright-steps.ts";
import { checkFlowMatchesSteps } from "./flow-drift.ts";

// ---------------------------------------------------------------------------------------------
// Options and environment

const BENCH_DIR = import.meta.dir;
const FLOW_FILE = resolve(BENCH_DIR, "flows", "bench.flow.yaml");

const CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];
/** flowproof's page viewport; the Playwright context uses the same so layout is identical. */
const VIEWPORT = { width: 1280, height: 800 } as const;

/** Machine CPU share (outside the bench's own runs) above which the figures are flagged as noisy. */
const BUSY_WARN = 0.1;

/** Wall-time targets against Playwright (fill): flowproof as run by default (full recording), and with recording off. */
const TARGETS = { clickMs: 15, typingMsPerChar: 4, wallRatio: 1.0, wallRatioOff: 0.6 } as const;

function parseArgs(argv: readonly string[]): { runs: number; warmup: number; json: boolean } {
  let runs = 5;
  let warmup = 1;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (name: string): number => {
      const raw = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[++i];
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 0 || (name === "--runs" && n < 1))
        usage(`${name} needs a whole number${name === "--runs" ? " ≥ 1" : ""}, not ${JSON.stringify(raw)}`);
      return n;
    };
    if (a === "--runs" || a.startsWith("--runs=")) runs = value("--runs");
    else if (a === "--warmup" || a.startsWith("--warmup=")) warmup = value("--warmup");
    else if (a === "--json") json = true;
    else if (a === "--help" || a === "-h") usage();
    else usage(`unknown argument ${JSON.stringify(a)}`);
  }
  return { runs, warmup, json };
}

function usage(problem?: string): never {
  const text =
    "usage: bun bench/replay-vs-playwright.ts [--runs N] [--warmup W] [--json]\n  --runs N    timed replays of each contender (default 5)\n  --warmup W  untimed rounds first (default 1)\n  --json      also print the raw samples as JSON at the end";
  if (problem) {
    console.error(`bench: ${problem}\n${text}`);
    process.exit(2);
  }
  console.log(text);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// One timed run of each contender

interface Sample {
  /** Wall time including browser launch and close. */
  readonly wallMs: number;
  /** Per-step durations, ms, in flow order. */
  readonly stepMs: readonly number[];
}

class BenchFailure extends Error {}

async function runFlowproof(spec: string, env: Record<string, string | undefined>, recording: "default" | "off"): Promise<Sample> {
  const t0 = performance.now();
  const result = await run({ spec, env, ...(recording === "off" ? { recordingDetail: "off" as const } : {}) });
  const wallMs = performance.now() - t0;
  const r = result.report;
  if (!r.passed) {
    const bad = r.steps.find((s) => s.status !== "passed");
    throw new BenchFailure(
      `flowproof replay failed: ${r.error ?? (bad ? `step ${bad.id} (${bad.intent}) ${bad.status}: ${bad.detail ?? ""}` : "unknown")} (bundle: ${result.run_dir})`,
    );
  }
  return { wallMs, stepMs: r.steps.map((s) => s.duration_ms) };
}

async function runPlaywright(executablePath: string, url: string, mode: Mode): Promise<Sample> {
  const t0 = performance.now();
  const browser = await chromium.launch({ executablePath, args: CHROME_ARGS });
  const stepMs: number[] = [];
  try {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    await page.goto(url);
    for (const [i, step] of STEPS.entries()) {
      const s = performance.now();
      try {
        await step.pw(page, mode);
      } catch (error) {
        throw new BenchFailure(
          `Playwright (${mode}) failed at step ${i + 1} (${step.text}): ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
        );
      }
      stepMs.push(performance.now() - s);
    }
  } finally {
    await browser.close();
  }
  return { wallMs: performance.now() - t0, stepMs };
}

// ---------------------------------------------------------------------------------------------
// Statistics and printing

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
/** Least-squares fit duration = fixed + perChar × chars over pooled (chars, ms) samples. */
function fit(points: ReadonlyArray<readonly [number, number]>): { fixed: number; perChar: number } {
  const n = points.length;
  const mx = sum(points.map((p) => p[0])) / n;
  const my = sum(points.map((p) => p[1])) / n;
  const sxx = sum(points.map((p) => (p[0] - mx) ** 2));
  const sxy = sum(points.map((p) => (p[0] - mx) * (p[1] - my)));
  const perChar = sxx === 0 ? Number.NaN : sxy / sxx;
  return { fixed: my - perChar * mx, perChar };
}

const ms = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "n/a");
const span = (samples: readonly Sample[]) => `${ms(Math.min(...samples.map((s) => s.wallMs)), 0)}–${ms(Math.max(...samples.map((s) => s.wallMs)), 0)}`;
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : "n/a");

function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>, rightAlignFrom = 1): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => (c >= rightAlignFrom ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

function indicesOf(kinds: readonly Kind[]): number[] {
  return STEPS.flatMap((s, i) => (kinds.includes(s.kind) ? [i] : []));
}

/** Per run: total ms of the chosen steps; then the median over runs. */
const medianOfRunTotals = (samples: readonly Sample[], idx: readonly number[]) => median(samples.map((s) => sum(idx.map((i) => s.stepMs[i]!))));
/** Pooled median over every (run, step) sample of the chosen steps. */
const pooledStepMedian = (samples: readonly Sample[], idx: readonly number[]) => median(samples.flatMap((s) => idx.map((i) => s.stepMs[i]!)));

function report(
  fp: readonly Sample[],
  fpOff: readonly Sample[],
  pwFill: readonly Sample[],
  pwKeys: readonly Sample[],
  runs: number,
  chrome: string,
  version: string,
  busy: readonly [number | undefined, number | undefined],
): void {
  const out: string[] = [];
  const allIdx = STEPS.map((_, i) => i);
  const clickIdx = indicesOf(["click"]);
  const typeIdx = indicesOf(["type", "replace"]);
  const chars = sum(typeIdx.map((i) => STEPS[i]!.chars ?? 0));

  const fpWall = median(fp.map((s) => s.wallMs));
  const fillWall = median(pwFill.map((s) => s.wallMs));
  const keysWall = median(pwKeys.map((s) => s.wallMs));
  const offWall = median(fpOff.map((s) => s.wallMs));
  const fpSteps = medianOfRunTotals(fp, allIdx);
  const offSteps = medianOfRunTotals(fpOff, allIdx);
  const fillSteps = medianOfRunTotals(pwFill, allIdx);
  const keysSteps = medianOfRunTotals(pwKeys, allIdx);

  out.push("");
  out.push(`flowproof replay vs playwright-core ${version} — 30-step flow, ${runs} timed run(s) each, medians (ms)`);
  const cpus = navigator.hardwareConcurrency;
  const pct = (x: number | undefined) => (x === undefined ? "unknown" : `${(100 * x).toFixed(0)}%`);
  out.push(`browser: ${chrome}; machine: ${cpus} logical CPU(s), ${process.platform}/${process.arch}, Bun ${Bun.version}`);
  out.push(`machine busy (other processes) in the second before the timed runs: ${pct(busy[0])}, in the second after: ${pct(busy[1])}`);
  out.push(`load average (1, 5, 15 min) at the end: ${loadAverage()}`);
  if (busy.some((b) => b !== undefined && b > BUSY_WARN))
    out.push(`WARNING: the machine was busy with other work; the figures are noisy — rerun on an idle machine before drawing conclusions.`);
  out.push("");
  const overhead = (samples: readonly Sample[]) => ms(median(samples.map((s) => s.wallMs - sum(s.stepMs))));
  out.push(
    table(
      ["measure", "flowproof", "fp rec off", "PW fill", "PW keys", "fp / PW fill", "off / PW fill", "fp / PW keys"],
      [
        [
          "wall time (launch + flow + close)",
          ms(fpWall),
          ms(offWall),
          ms(fillWall),
          ms(keysWall),
          ratio(fpWall, fillWall),
          ratio(offWall, fillWall),
          ratio(fpWall, keysWall),
        ],
        [
          "replay excl. launch (sum of 30 steps)",
          ms(fpSteps),
          ms(offSteps),
          ms(fillSteps),
          ms(keysSteps),
          ratio(fpSteps, fillSteps),
          ratio(offSteps, fillSteps),
          ratio(fpSteps, keysSteps),
        ],
        ["  wall time min–max", span(fp), span(fpOff), span(pwFill), span(pwKeys), "", "", ""],
        ["launch + open + close + report (wall − steps)", overhead(fp), overhead(fpOff), overhead(pwFill), overhead(pwKeys), "", "", ""],
      ],
    ),
  );
  out.push("  flowproof = the default replay (full-detail recording: redacted frames before and after each step);");
  out.push("  fp rec off = the same replay with --recording-detail off (no frames).");
  out.push("  PW fill = idiomatic Playwright (locator.fill sets the value, no keystrokes); PW keys = same script typing with");
  out.push("  locator.pressSequentially (one keystroke per character, like flowproof). Both replays exclude the initial page load.");

  // Per-click and per-character figures.
  const fpClick = pooledStepMedian(fp, clickIdx);
  const pwClick = pooledStepMedian(pwFill, clickIdx);
  const perChar = (samples: readonly Sample[]) => median(samples.map((s) => sum(typeIdx.map((i) => s.stepMs[i]!)) / chars));
  const points = (samples: readonly Sample[]) => samples.flatMap((s) => typeIdx.map((i) => [STEPS[i]!.chars ?? 0, s.stepMs[i]!] as const));
  const fpFit = fit(points(fp));
  const keysFit = fit(points(pwKeys));
  const fillFit = fit(points(pwFill));
  out.push("");
  out.push(
    table(
      ["per-action figure", "flowproof", "PW keys", "PW fill", "fp / PW (comparable)"],
      [
        [`click step, median of ${clickIdx.length} steps × runs`, ms(fpClick), ms(pooledStepMedian(pwKeys, clickIdx)), ms(pwClick), ratio(fpClick, pwClick)],
        [
          `typing, ms/char (${typeIdx.length} steps, ${chars} chars, incl. step overhead)`,
          ms(perChar(fp), 2),
          ms(perChar(pwKeys), 2),
          ms(perChar(pwFill), 2),
          ratio(perChar(fp), perChar(pwKeys)),
        ],
        [
          "typing, marginal ms/char (least-squares slope)",
          ms(fpFit.perChar, 2),
          ms(keysFit.perChar, 2),
          ms(fillFit.perChar, 2),
          ratio(fpFit.perChar, keysFit.perChar),
        ],
        ["typing, fixed cost per type step (intercept)", ms(fpFit.fixed), ms(keysFit.fixed), ms(fillFit.fixed), ratio(fpFit.fixed, keysFit.fixed)],
      ],
    ),
  );
  out.push("  Click figures compare against PW fill's click steps (clicks are identical in both PW variants).");
  out.push("  Typing compares against PW keys (pressSequentially): flowproof types real keystrokes; fill is not keystrokes.");

  // Targets.
  const targetRows: string[][] = [
    ["click step median", `≤ ${TARGETS.clickMs} ms`, `${ms(fpClick)} ms`, fpClick <= TARGETS.clickMs ? "met" : "MISSED"],
    ["typing", `≤ ${TARGETS.typingMsPerChar} ms/char`, `${ms(perChar(fp), 2)} ms/char`, perChar(fp) <= TARGETS.typingMsPerChar ? "met" : "MISSED"],
    [
      "30-step flow wall time, default (full recording)",
      `≤ ${TARGETS.wallRatio}× Playwright (fill)`,
      ratio(fpWall, fillWall),
      fpWall / fillWall <= TARGETS.wallRatio ? "met" : "MISSED",
    ],
    [
      "30-step flow wall time, recording off",
      `≤ ${TARGETS.wallRatioOff}× Playwright (fill)`,
      ratio(offWall, fillWall),
      offWall / fillWall <= TARGETS.wallRatioOff ? "met" : "MISSED",
    ],
  ];
  out.push("");
  out.push(table(["target", "goal", "flowproof", "status"], targetRows, 99));

  // Per kind.
  const kinds: Kind[] = ["type", "replace", "select", "check", "click", "press", "assert", "wait"];
  out.push("");
  out.push("time by step kind (median over runs of the per-run total, ms)");
  out.push(
    table(
      ["kind", "steps", "flowproof", "PW fill", "PW keys", "fp share", "fp / PW fill"],
      kinds.map((k) => {
        const idx = indicesOf([k]);
        const f = medianOfRunTotals(fp, idx);
        return [
          k,
          String(idx.length),
          ms(f),
          ms(medianOfRunTotals(pwFill, idx)),
          ms(medianOfRunTotals(pwKeys, idx)),
          `${((100 * f) / fpSteps).toFixed(0)}%`,
          ratio(f, medianOfRunTotals(pwFill, idx)),
        ];
      }),
    ),
  );

  // Per step.
  out.push("");
  out.push("per step (median ms; flowproof step times are whole milliseconds as reported by `run`)");
  out.push(
    table(
      ["#", "kind", "step", "flowproof", "PW fill", "PW keys"],
      STEPS.map((s, i) => [
        String(i + 1),
        s.kind,
        s.text.length > 62 ? `${s.text.slice(0, 61)}…` : s.text,
        ms(median(fp.map((x) => x.stepMs[i]!))),
        ms(median(pwFill.map((x) => x.stepMs[i]!))),
        ms(median(pwKeys.map((x) => x.stepMs[i]!))),
      ]),
      3,
    ),
  );
  out.push("");
  console.log(out.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
  const { runs, warmup, json } = parseArgs(process.argv.slice(2));
  // What a headless flowproof run takes (the headless shell when installed, as Playwright's headless default is).
  const chrome = findBrowser(process.env, { headless: true }).path ?? "/usr/bin/chromium";
  if (!existsSync(chrome)) {
    console.error(
      `bench: Chromium not found at ${chrome}.\n  Install it (Debian/Ubuntu: apt-get install chromium) or set FLOWPROOF_CHROME to a Chrome/Chromium executable.\n  The benchmark never downloads a browser.`,
    );
    return 2;
  }
  // flowproof's launcher reads FLOWPROOF_CHROME from the process environment: both contenders use this binary.
  process.env["FLOWPROOF_CHROME"] = chrome;
  console.error(`bench: browser ${chrome}`);
  checkFlowMatchesSteps(FLOW_FILE);

  const server = startServer();
  const work = mkdtempSync(join(tmpdir(), "flowproof-bench-"));
  try {
    const spec = join(work, "bench.flow.yaml");
    copyFileSync(FLOW_FILE, spec);
    const env = { ...process.env, BENCH_URL: server.url };
    const startUrl = `${server.url}/index.html`;
    const { version } = (await import("playwright-core/package.json", { with: { type: "json" } })).default as { version: string };

    console.error(`bench: serving ${PAGES_DIR} at ${server.url}; recording the flowproof trace (untimed)…`);
    const recorded = await record({ spec, env, author: "rules" });
    if (!recorded.ok) {
      console.error(`bench: recording failed: ${recorded.error ?? "unknown"}`);
      return 1;
    }

    const fp: Sample[] = [];
    const fpOff: Sample[] = [];
    const pwFill: Sample[] = [];
    const pwKeys: Sample[] = [];
    let busyBefore: number | undefined;
    for (let round = -warmup; round < runs; round++) {
      const timed = round >= 0;
      if (round === 0) busyBefore = await machineBusy();
      const a = await runFlowproof(spec, env, "default");
      const d = await runFlowproof(spec, env, "off");
      const b = await runPlaywright(chrome, startUrl, "fill");
      const c = await runPlaywright(chrome, startUrl, "keys");
      if (timed) {
        fp.push(a);
        fpOff.push(d);
        pwFill.push(b);
        pwKeys.push(c);
      }
      console.error(
        `bench: ${timed ? `run ${round + 1}/${runs}` : "warm-up"}: flowproof ${ms(a.wallMs, 0)} ms (steps ${ms(sum(a.stepMs), 0)}), rec off ${ms(d.wallMs, 0)} ms (steps ${ms(sum(d.stepMs), 0)}), PW fill ${ms(b.wallMs, 0)} ms (steps ${ms(sum(b.stepMs), 0)}), PW keys ${ms(c.wallMs, 0)} ms (steps ${ms(sum(c.stepMs), 0)})`,
      );
    }
    report(fp, fpOff, pwFill, pwKeys, runs, chrome, version, [busyBefore, await machineBusy()]);
    if (json)
      console.log(
        JSON.stringify({
          steps: STEPS.map((s) => ({ text: s.text, kind: s.kind, chars: s.chars })),
          flowproof: fp,
          flowproof_recording_off: fpOff,
          playwright_fill: pwFill,
          playwright_keys: pwKeys,
        }),
      );
    return 0;
  } catch (error) {
    if (error instanceof BenchFailure) {
      console.error(`bench: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

process.exit(await main());
