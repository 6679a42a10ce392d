// Benchmark: the vision surface on the test bed (the Tk form on a hidden Xvfb display, served by
// x11vnc, shown by TigerVNC's viewer on a second display; test/support/vision-bed.ts). Prints the
// median time to OCR the viewer's 700×480 window (target ≤ 600 ms), the median time of a 7-step
// scripted interaction through the vision driver, session start (OCR worker) included, and the
// median wall time of `flowproof run` replaying the same 7 steps as a flow through the real CLI
// (a process of its own: start-up, OCR worker, attach, the steps, frames and the run bundle;
// target ≤ 8 s). Assertions are polled and actions retried as the engine does.
//
//   flock /tmp/flowproof-heavy.lock node_modules/.bin/bun bench/vision-ocr.ts [--ocr-runs N] [--runs N] [--cli-runs N] [--json]
//
// Exit codes: 0 after printing the figures; 1 when a run fails; 2 when a tool of the bed is
// missing (the message names the apt-get command) or an argument is wrong. Run it on an idle machine.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import type { AppDriver, Attempt, Expectation, Selector } from "../src/plugins/api.ts";
import { decodeFramePng } from "../plugins/vision/frame.ts";
import { OcrEngine } from "../plugins/vision/ocr/engine.ts";
import { readModel } from "../plugins/vision/ocr/model.ts";
import { VisionSession } from "../plugins/vision/session.ts";
import { readScene } from "../plugins/vision/view.ts";
import { runCli } from "../test/support/cli.ts";
import { tmpProject } from "../test/support/tmp-project.ts";
import { DESKTOP, PAY_FLOW, requireVisionTools, startVisionBed } from "../test/support/vision-bed.ts";
import { median, wholeOption } from "./stats.ts";

const USAGE = "bun bench/vision-ocr.ts [--ocr-runs N] [--runs N] [--cli-runs N] [--json]";
const OCR_RUNS = wholeOption("--ocr-runs", 9, USAGE, 1);
const RUNS = wholeOption("--runs", 5, USAGE, 1);
const CLI_RUNS = wholeOption("--cli-runs", 5, USAGE, 1);
const JSON_OUT = process.argv.includes("--json");
const OCR_TARGET_MS = 600;
const FLOW_TARGET_MS = 8_000;
const BOUND_MS = 10_000;

const text = (t: string, extra: Record<string, unknown> = {}): Selector[] => [{ tier: "text_anchor", provenance: "rules", payload: { text: t, ...extra } }];
const CONFIG = { window: { title: "TigerVNC", width: DESKTOP.width, height: DESKTOP.height, x: 0, y: 0 } };
const CLICK = { button: "left", clickCount: 1 } as const;

async function act(name: string, fn: () => Promise<Attempt>): Promise<void> {
  const deadline = Date.now() + BOUND_MS;
  for (;;) {
    const r = await fn();
    if (r.ok) return;
    if (!r.retryable || Date.now() > deadline) throw new Error(`${name}: ${r.failed}: ${r.detail}`);
    await Bun.sleep(50);
  }
}

async function holds(driver: AppDriver, name: string, expectation: Expectation): Promise<void> {
  const deadline = Date.now() + BOUND_MS;
  for (;;) {
    const r = await driver.check([], expectation);
    if (r.pass) return;
    if (Date.now() > deadline) throw new Error(`${name}: read ${JSON.stringify(r.actual)}`);
    await Bun.sleep(50);
  }
}

/** The 7 steps; run `k` pays the invoice `k mod 3 + 1`. Answers each step's duration. */
async function flow(driver: AppDriver, k: number): Promise<number[]> {
  const n = (k % 3) + 1;
  const steps: [string, () => Promise<void>][] = [
    ['Type ACME Ltd into the "Payee" field', () => act("payee", () => driver.fill(text("Payee", { role: "field" }), "ACME Ltd"))],
    ['Type 42.50 into the "Amount" field', () => act("amount", () => driver.fill(text("Amount", { role: "field" }), "42.50"))],
    ['Click "Save"', () => act("save", () => driver.click(text("Save"), CLICK))],
    ["page shows Saved ACME Ltd, 42.50", () => holds(driver, "saved", { kind: "text_contains", text: "Saved ACME Ltd, 42.50" })],
    [`Click the ${n} "Pay"`, () => act("pay", () => driver.click(text("Pay", { nth: n }), CLICK))],
    [`page shows Paid 100${n}`, () => holds(driver, "paid", { kind: "text_contains", text: `Paid 100${n}` })],
    ['Click "Clear"', () => act("clear", () => driver.click(text("Clear"), CLICK))],
  ];
  const out: number[] = [];
  for (const [, run] of steps) {
    const t0 = performance.now();
    await run();
    out.push(performance.now() - t0);
  }
  return out;
}

try {
  requireVisionTools();
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

/** Records the flow once, then times `flowproof run` through the real CLI: wall time and the sum of step times. */
async function cliReplays(display: string): Promise<{ wallMs: number[]; stepsMs: number[] }> {
  const project = tmpProject("flowproof-vision-bench-");
  try {
    const spec = project.write("pay.flow.yaml", PAY_FLOW);
    const cli = (args: string[]) => runCli(args, { cwd: project.dir, env: { DISPLAY: display } });
    const rec = await cli(["record", spec, "--author", "rules"]);
    if (rec.code !== 0) throw new Error(`record failed (exit ${rec.code}): ${rec.stdout}${rec.stderr}`);
    const wallMs: number[] = [];
    const stepsMs: number[] = [];
    for (let k = 0; k < CLI_RUNS; k++) {
      const t = performance.now();
      const run = await cli(["run", spec, "--json"]);
      wallMs.push(performance.now() - t);
      if (run.code !== 0) throw new Error(`run ${k + 1} failed (exit ${run.code}): ${run.stdout}${run.stderr}`);
      const report = JSON.parse(readFileSync((JSON.parse(run.stdout) as { report_path: string }).report_path, "utf8")) as { steps: { duration_ms: number }[] };
      stepsMs.push(report.steps.reduce((sum, st) => sum + st.duration_ms, 0));
    }
    return { wallMs, stepsMs };
  } finally {
    project.remove();
  }
}

const load = loadavg()[0]!;
const bed = await startVisionBed();
let failed = false;
try {
  // OCR alone: the viewer's window, read from scratch each time (no reuse).
  const t0 = performance.now();
  const ocr = await OcrEngine.start((await readModel()).bytes);
  const startMs = performance.now() - t0;
  const probe = new VisionSession({ display: bed.viewDisplay });
  const driver = await probe.launch(CONFIG, { baseDir: process.cwd(), log: () => undefined });
  const frame = decodeFramePng((await driver.captureFrame!()).png);
  await driver.close();
  await probe.close();
  await readScene(ocr, frame);
  const ocrMs: number[] = [];
  for (let i = 0; i < OCR_RUNS; i++) {
    const t = performance.now();
    await readScene(ocr, frame);
    ocrMs.push(performance.now() - t);
  }
  await ocr.terminate();

  // The 7-step flow, as a replay runs it: a session (its OCR worker) per run, attach, the steps.
  const flowMs: number[] = [];
  const stepMs: number[][] = [];
  for (let k = 0; k < RUNS; k++) {
    const t = performance.now();
    const session = new VisionSession({ display: bed.viewDisplay });
    try {
      const d = await session.launch(CONFIG, { baseDir: process.cwd(), log: () => undefined });
      stepMs.push(await flow(d, k));
      await d.close();
    } finally {
      await session.close();
    }
    flowMs.push(performance.now() - t);
  }

  const cli = await cliReplays(bed.viewDisplay);

  const ocrMedian = median(ocrMs);
  const flowMedian = median(flowMs);
  const stepMedians = stepMs[0]!.map((_, i) => median(stepMs.map((r) => r[i]!)));
  const verdict = (ms: number, target: number) => (ms <= target ? `within the ${target} ms target` : `OVER the ${target} ms target`);
  console.log(`vision bench on ${frame.width}×${frame.height} (load average ${load.toFixed(2)} before the bed started)`);
  console.log(`  OCR worker start:            ${startMs.toFixed(0)} ms`);
  console.log(`  OCR of the window (median of ${OCR_RUNS}): ${ocrMedian.toFixed(0)} ms — ${verdict(ocrMedian, OCR_TARGET_MS)}`);
  console.log(`  7-step flow (median of ${RUNS}, session start included): ${flowMedian.toFixed(0)} ms — ${verdict(flowMedian, FLOW_TARGET_MS)}`);
  console.log(`  step medians: ${stepMedians.map((ms) => ms.toFixed(0)).join(", ")} ms`);
  const cliMedian = median(cli.wallMs);
  console.log(
    `  \`flowproof run\` of the 7-step flow (median of ${CLI_RUNS}, process wall time): ${cliMedian.toFixed(0)} ms — ${verdict(cliMedian, FLOW_TARGET_MS)}; its steps ${median(cli.stepsMs).toFixed(0)} ms`,
  );
  console.log(`  load average after: ${loadavg()[0]!.toFixed(2)}`);
  if (JSON_OUT) console.log(JSON.stringify({ ocrMs, startMs, flowMs, stepMs, cliWallMs: cli.wallMs, cliStepsMs: cli.stepsMs }));
} catch (error) {
  failed = true;
  console.error(`the vision bench failed: ${(error as Error).message}`);
} finally {
  await bed.stop();
}
process.exit(failed ? 1 : 0);
