// The whole test suite: the checks first, then one queue of jobs run by FLOWPROOF_TEST_JOBS
// (default 4) workers, heaviest first: the unit tests, the Python SDK against the real CLI, and
// each end-to-end file (real Chromium) in its own `bun test` process. Most of a job is waiting on
// a browser, a server or a bounded timeout: on 2 cores four workers kept the CPU 89 % busy and
// finished the run 15 % sooner than three.
// Prints each job's output as it ends, a timing line, and one summary line `N passed, N failed`.
import { readdirSync } from "node:fs";

const bun = process.execPath;

interface Job {
  name: string;
  cmd: string[];
  kind: "bun" | "python";
}

// The unit tests, split into three jobs so they spread over the workers (one `bun test` runs its
// files one after another): src/commands, then src/mcp and src/cli with the examples and the test
// support, then everything else. Paths, not name filters: a bare `plugins` would also pick
// test/e2e/plugins.test.ts. The last job lists src/'s other entries, so a new folder is never left out.
const UNIT_COMMANDS = ["./src/commands"];
const UNIT_SERVERS = ["./src/mcp", "./src/cli", "./examples", "./test/support"];
const unitRest = (): string[] => {
  const taken = new Set([...UNIT_COMMANDS, ...UNIT_SERVERS]);
  const src = readdirSync("src", { withFileTypes: true })
    .filter((e) => e.isDirectory() || e.name.endsWith(".test.ts"))
    .map((e) => `./src/${e.name}`)
    .filter((path) => !taken.has(path))
    .sort();
  return [...src, "./plugins", "./scripts"];
};
const unitJobs = (): Job[] => [
  { name: "unit-commands", kind: "bun", cmd: [bun, "test", "--timeout", "30000", ...UNIT_COMMANDS] },
  { name: "unit-servers", kind: "bun", cmd: [bun, "test", "--timeout", "30000", ...UNIT_SERVERS] },
  { name: "unit", kind: "bun", cmd: [bun, "test", "--timeout", "30000", ...unitRest()] },
];
// stdlib unittest; needs python3 ≥ 3.9 on PATH.
const pythonJob: Job = { name: "python", kind: "python", cmd: ["python3", "-m", "unittest", "discover", "-s", "sdk/python/tests", "-t", "sdk/python"] };

// The assert_sql tests need a PostgreSQL server: provision the local one when none is named.
if (!process.env["FLOWPROOF_TEST_PG_URL"]) {
  const pg = Bun.spawnSync(["bash", "scripts/test-postgres.sh"], { stdout: "pipe", stderr: "inherit" });
  const url = pg.stdout.toString().trim();
  if (pg.exitCode === 0 && url) {
    process.env["FLOWPROOF_TEST_PG_URL"] = url;
    console.log(`PostgreSQL for the assert_sql tests: ${url}`);
  } else
    console.log(
      "no PostgreSQL for the assert_sql tests (they will fail with instructions): run scripts/test-postgres.sh as root, or set FLOWPROOF_TEST_PG_URL",
    );
}

let passed = 0;
/** What each failed job printed for its failures, repeated at the end of the log. */
const failureTexts: string[] = [];
let failed = 0;
const broken: string[] = [];

async function pump(stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream | null, collect: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const text = decoder.decode(value, { stream: true });
    sink?.write(text);
    collect(text);
  }
}

/**
 * Seconds each job took in a full local run on four workers (every run prints them as `timings`); they only decide
 * the order jobs start in, heaviest first, and the queue balances itself. A new e2e file counts as
 * 30 s until listed.
 */
const WEIGHTS: Record<string, number> = {
  unit: 303,
  windows: 116,
  firefox: 85,
  "firefox-real": 84,
  "windows-controls": 84,
  "vision-flows": 83,
  suite: 83,
  grid: 82,
  effects: 74,
  "browser-matrix": 73,
  "web-fixes": 61,
  "plugins-desktop-kit": 55,
  "scoped-targets": 52,
  "unit-commands": 51,
  "real-widgets": 50,
  "app-widgets": 135,
  "unit-servers": 46,
  "oob-assertions": 44,
  trust: 43,
  "suite-scale": 41,
  "npm-package": 40,
  "effect-attribution": 40,
  "windows-conformance": 39,
  verdicts: 36,
  "stalled-navigation": 34,
  secrets: 34,
  agent: 33,
  "sap-conformance": 31,
  executable: 30,
  plugins: 30,
  actions: 30,
  recording: 29,
  "agent-sdk-upgrade": 28,
  sap: 27,
  vision: 26,
  "windows-apps": 26,
  python: 26,
  egress: 25,
  "plugins-parity": 25,
  "firefox-downloads": 24,
  "multi-surface-kinds": 23,
  "plugin-typecheck": 23,
  authoring: 23,
  "terminal-plugin": 22,
  "grammar-forms": 22,
  "assertions-more": 22,
  "browser-faults": 22,
  "agent-sdks": 22,
  "agent-mcp": 21,
  "web-apps": 21,
  cli: 20,
  "web-depth": 20,
  "output-faults": 20,
  "frames-step-exact": 19,
  heal: 19,
  signals: 19,
  blocks: 18,
  "trace-seal": 18,
  codegen: 17,
  "vision-wine": 16,
  mcp: 16,
  "config-keyring": 16,
  "recording-reuse": 16,
  "known-failure": 14,
  "suite-entry-points": 14,
  "kitchensink-gaps": 14,
  shaping: 14,
  "real-grids": 14,
  "web-components": 13,
  "secret-frames": 12,
  "inert-evidence": 12,
  "api-effects": 12,
  "early-browser": 12,
  demo: 11,
  "long-typing": 11,
  "multi-surface": 11,
  "debug-bundle": 11,
  "keep-open": 11,
  "late-waits": 10,
  "windows-uwp": 10,
  "mcp-root": 9,
  "suite-defaults": 7,
  "mcp-lifecycle": 7,
  "start-up-modules": 7,
  "wine-bed": 6,
  "plugin-stdout": 5,
  "from-doc-limits": 5,
  "plugins-header": 5,
  "mcp-hooks": 3,
  "agent-heal": 3,
  "author-from-doc": 2,
  "bad-input": 2,
  "config-credentials": 2,
  "plugins-effects": 1,
  "error-shape": 1,
  "sap-platform": 1,
  "plugins-suite": 1,
  "windows-load": 1,
};

function jobQueue(): Job[] {
  const e2e = [...new Bun.Glob("test/e2e/*.test.ts").scanSync(".")]
    .sort()
    .map((file): Job => ({ name: file.replace(/^test\/e2e\//, "").replace(/\.test\.ts$/, ""), kind: "bun", cmd: [bun, "test", "--timeout", "180000", file] }));
  return [...unitJobs(), pythonJob, ...e2e].sort((a, b) => (WEIGHTS[b.name] ?? 30) - (WEIGHTS[a.name] ?? 30));
}

const childEnv = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", PYTHONDONTWRITEBYTECODE: "1" };

/** Runs one command; the first of a parallel set streams live, the others print when they end. */
async function runCommand(cmd: string[], live: boolean): Promise<{ code: number; output: string }> {
  let output = "";
  const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe", env: childEnv });
  const sink = (stream: NodeJS.WriteStream) => (live ? stream : null);
  await Promise.all([pump(proc.stdout, sink(process.stdout), (t) => (output += t)), pump(proc.stderr, sink(process.stderr), (t) => (output += t))]);
  const code = await proc.exited;
  return { code, output };
}

/**
 * Each failed test of a job's output with the lines bun printed for it (its error comes before its
 * `(fail)` line, back to the previous test's line), so the end of a long log names what failed.
 */
function failureBlocks(name: string, output: string): string[] {
  const lines = output.split("\n");
  const blocks: string[] = [];
  let start = 0;
  for (const [i, line] of lines.entries()) {
    if (/^\((pass|skip|todo)\)/.test(line)) start = i + 1;
    if (!/^\(fail\)/.test(line)) continue;
    const block = lines.slice(Math.max(start, i - 60), i + 1).join("\n");
    blocks.push(`--- ${name}\n${block.length > 6000 ? `…${block.slice(-6000)}` : block}`);
    start = i + 1;
  }
  if (blocks.length === 0) blocks.push(`--- ${name}\n${lines.slice(-40).join("\n")}`);
  return blocks;
}

function countBunTests(name: string, output: string): void {
  const p = /^\s*(\d+) pass\s*$/m.exec(output);
  const f = /^\s*(\d+) fail\s*$/m.exec(output);
  passed += p ? Number(p[1]) : 0;
  failed += f ? Number(f[1]) : 0;
  if (!p) broken.push(`${name}: no test summary`);
}

function countPython(output: string): void {
  // unittest's summary: "Ran N tests" then "OK" or "FAILED (failures=F, errors=E, …)".
  const ran = /^Ran (\d+) tests? in \S+/m.exec(output);
  const verdict = /^(OK|FAILED)\b.*$/m.exec(output)?.[0] ?? "";
  const failures = Number(/failures=(\d+)/.exec(output)?.[1] ?? 0) + Number(/errors=(\d+)/.exec(output)?.[1] ?? 0);
  const skipped = Number(/skipped=(\d+)/.exec(output)?.[1] ?? 0);
  if (!ran) {
    broken.push("python: no unittest summary");
    return;
  }
  passed += Number(ran[1]) - failures - skipped;
  failed += failures;
  console.log(
    `python: ${ran[0].trim()} ${verdict} — ${Number(ran[1]) - failures - skipped} passed, ${failures} failed${skipped ? `, ${skipped} skipped` : ""}`,
  );
}

/** Runs every job from one queue on `workers` workers; prints each job's output as it ends. */
async function runQueue(workers: number): Promise<void> {
  const queue = jobQueue();
  const total = queue.length;
  const timings: Array<{ name: string; seconds: number }> = [];
  const started = Date.now();
  let done = 0;
  console.log(`\n=== ${total} jobs on ${workers} worker(s) (FLOWPROOF_TEST_JOBS=${workers}): ${queue.map((j) => j.name).join(" ")}`);
  const worker = async (): Promise<void> => {
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
      const t0 = Date.now();
      const r = await runCommand(job.cmd, false);
      const seconds = Math.round((Date.now() - t0) / 1000);
      timings.push({ name: job.name, seconds });
      done += 1;
      console.log(`\n=== ${done}/${total} ${job.name}: ${job.cmd.slice(1).join(" ")} (${seconds} s, exit ${r.code})`);
      process.stdout.write(r.output);
      if (job.kind === "python") countPython(r.output);
      else countBunTests(job.name, r.output);
      if (r.code !== 0) broken.push(`${job.name}: exit ${r.code}`);
      if (r.code !== 0) failureTexts.push(...failureBlocks(job.name, r.output));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, total)) }, worker));
  timings.sort((a, b) => b.seconds - a.seconds);
  console.log(`\ntimings (${Math.round((Date.now() - started) / 1000)} s wall): ${timings.map((t) => `${JSON.stringify(t.name)}: ${t.seconds}`).join(", ")}`);
}

console.log(`\n=== check: scripts/check.ts`);
const check = await runCommand([bun, "scripts/check.ts"], true);
if (check.code !== 0) broken.push(`check: exit ${check.code}`);
await runQueue(Number(process.env["FLOWPROOF_TEST_JOBS"] ?? 4) || 1);

if (failureTexts.length > 0) console.log(`\n=== what failed, again\n${failureTexts.join("\n\n")}`);
if (broken.length > 0) console.log(`\nproblems: ${broken.join("; ")}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(broken.length > 0 || failed > 0 ? 1 : 0);

export {};
