// Benchmark: a 10-step desktop flow pair replayed by the flowproof windows-x64 executable under
// Wine: 4 steps in Wine's notepad, then 6 in the Win32 fixture app (test/fixtures/win32/fixture.c).
// Each flow is recorded once, then replayed --runs times (default 3); prints the median of every
// step's duration (from result.json), of each flow's total, and of the whole process (executable
// start under Wine included).
//
//   node_modules/.bin/bun bench/windows-wine.ts [--runs N] [--json]
//
// Exit codes: 0 after printing the figures; 1 when a recording or replay fails; 2 when Wine,
// Xvfb or mingw is missing (the message names the apt-get command) or an argument is wrong.
// Run it on an idle machine: Wine on two cores is sensitive to anything else running.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { compileWin32, flowproofExecutable, requireWineTools, startWineBed, winPath, type WineRun } from "../test/support/wine.ts";

function parseArgs(argv: readonly string[]): { runs: number; json: boolean } {
  let runs = 3;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--json") json = true;
    else if (a === "--runs" && /^[1-9]\d*$/.test(argv[i + 1] ?? "")) runs = Number(argv[++i]);
    else {
      console.error(`unknown argument ${a ?? ""}; use --runs N (a positive integer) and --json`);
      process.exit(2);
    }
  }
  return { runs, json };
}

const NOTEPAD_FLOW = `name: bench notepad
app: notepad
steps:
  - rules: Type flowproof bench line
  - assert: document contains flowproof bench line
  - rules: Type , second part
  - assert: document contains flowproof bench line, second part
`;

const fixtureFlow = (exe: string): string => `name: bench fixture
app: {command: '"${winPath(exe)}"', window_title: "Flowproof Fixture"}
window: {width: 480, height: 440, x: 0, y: 0}
steps:
  - rules: Type Ada into the "Name" field
  - rules: Click "Greet"
  - assert: the "id:112" shows Hello, Ada!
  - rules: Check the "Subscribe" checkbox
  - rules: Select France from the "Country" dropdown
  - assert: "page shows Country: France"
`;

interface StepResult {
  readonly id: string;
  readonly intent: string;
  readonly status: string;
  readonly duration_ms: number;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? 0 : s.length % 2 === 1 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

async function main(): Promise<number> {
  const { runs, json } = parseArgs(process.argv.slice(2));
  try {
    requireWineTools();
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    return 2;
  }
  const loadBefore = loadavg()[0] ?? 0;
  let t = performance.now();
  const [exe, fixture] = await Promise.all([flowproofExecutable(), compileWin32()]);
  const buildMs = performance.now() - t;
  t = performance.now();
  const bed = await startWineBed();
  const bedMs = performance.now() - t;
  const fail = (what: string, r: WineRun): number => {
    console.error(`${what} failed (exit ${r.code}):\n${r.stdout}\n${r.stderr.slice(-3000)}`);
    return 1;
  };
  try {
    const dir = join(bed.dir, "bench");
    mkdirSync(dir, { recursive: true });
    const flows = [
      { name: "notepad", path: join(dir, "notepad.flow.yaml"), text: NOTEPAD_FLOW },
      { name: "fixture", path: join(dir, "fixture.flow.yaml"), text: fixtureFlow(fixture) },
    ];
    const samples = new Map<string, { flow: string; intent: string; ms: number[] }>();
    const totals = new Map<string, { flowMs: number[]; processMs: number[] }>();
    for (const f of flows) {
      writeFileSync(f.path, f.text);
      const rec = await bed.run(exe, ["record", winPath(f.path)], { timeoutMs: 300_000 });
      if (rec.code !== 0) return fail(`recording ${f.name}`, rec);
      totals.set(f.name, { flowMs: [], processMs: [] });
    }
    for (let i = 0; i < runs; i++) {
      for (const f of flows) {
        const run = await bed.run(exe, ["run", winPath(f.path), "--json"], { timeoutMs: 300_000 });
        if (run.code !== 0) return fail(`replay ${i + 1} of ${f.name}`, run);
        const reportPath = (JSON.parse(run.stdout) as { report_path: string }).report_path.replace(/^Z:/i, "").replaceAll("\\", "/");
        const result = JSON.parse(readFileSync(reportPath, "utf8")) as { steps: StepResult[]; duration_ms: number };
        for (const s of result.steps) {
          const key = `${f.name} ${s.id}`;
          const entry = samples.get(key) ?? { flow: f.name, intent: s.intent, ms: [] };
          entry.ms.push(s.duration_ms);
          samples.set(key, entry);
        }
        totals.get(f.name)?.flowMs.push(result.duration_ms);
        totals.get(f.name)?.processMs.push(run.ms);
      }
    }
    const rows = [...samples.entries()].map(([key, s]) => ({ step: key, intent: s.intent, median_ms: Math.round(median(s.ms)), samples: s.ms }));
    console.log(
      `flowproof.exe under Wine (${Bun.spawnSync(["/usr/lib/wine/wine64", "--version"]).stdout.toString().trim()}), ${runs} replay(s) of ${rows.length} steps`,
    );
    console.log(
      `load average (1 min): ${loadBefore.toFixed(1)} before, ${(loadavg()[0] ?? 0).toFixed(1)} after${Math.max(loadBefore, loadavg()[0] ?? 0) > 1.5 ? " — the machine was busy: these figures are inflated" : ""}`,
    );
    console.log(`setup: executables ${Math.round(buildMs)} ms (cached builds are reused), bed ${Math.round(bedMs)} ms`);
    for (const r of rows) console.log(`${String(r.median_ms).padStart(7)} ms  ${r.step.padEnd(14)} ${r.intent}`);
    for (const [name, t2] of totals)
      console.log(
        `${String(Math.round(median(t2.flowMs))).padStart(7)} ms  ${name} flow (result.json), ${Math.round(median(t2.processMs))} ms for the whole process`,
      );
    const stepSum = rows.reduce((a, r) => a + r.median_ms, 0);
    console.log(`${String(stepSum).padStart(7)} ms  sum of the ${rows.length} step medians (${Math.round(stepSum / Math.max(1, rows.length))} ms a step)`);
    if (json) console.log(JSON.stringify({ runs, rows, totals: Object.fromEntries(totals), buildMs, bedMs, bedTimings: bed.timings }));
    return 0;
  } finally {
    await bed.stop();
  }
}

process.exit(await main());
