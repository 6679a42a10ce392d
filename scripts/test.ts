// The whole test suite in order: checks, unit tests, end-to-end tests in real Chromium, then the
// Python SDK against the real CLI.
// Streams everything and ends with one summary line `N passed, N failed`.
const bun = process.execPath;
const stages: Array<{ name: string; cmd: string[] }> = [
  { name: "check", cmd: [bun, "scripts/check.ts"] },
  { name: "unit", cmd: [bun, "test", "--timeout", "30000", "src", "plugins", "scripts", "examples", "test/support"] },
  // Split into parallel groups below (see E2E_WEIGHTS).
  { name: "e2e", cmd: [bun, "test", "--timeout", "180000", "test/e2e"] },
  // The Python SDK against the real CLI (stdlib unittest; needs python3 ≥ 3.9 on PATH).
  { name: "python", cmd: ["python3", "-m", "unittest", "discover", "-s", "sdk/python/tests", "-t", "sdk/python"] },
];

// The assert_sql tests need a PostgreSQL server: provision the local one when none is named.
if (!process.env["FLOWPROOF_TEST_PG_URL"]) {
  const pg = Bun.spawnSync(["bash", "scripts/test-postgres.sh"], { stdout: "pipe", stderr: "inherit" });
  const url = pg.stdout.toString().trim();
  if (pg.exitCode === 0 && url) {
    process.env["FLOWPROOF_TEST_PG_URL"] = url;
    console.log(`PostgreSQL for the assert_sql tests: ${url}`);
  } else console.log("no PostgreSQL for the assert_sql tests (they will fail with instructions): run scripts/test-postgres.sh as root, or set FLOWPROOF_TEST_PG_URL");
}

let passed = 0;
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
 * Seconds each end-to-end file took in a serial run on the CI machine: the e2e stage runs in
 * FLOWPROOF_TEST_E2E_JOBS (default 2) parallel groups balanced by these weights. Most of an
 * end-to-end test is waiting on a browser or a bounded timeout, so two groups share 2 cores well.
 */
const E2E_WEIGHTS: Record<string, number> = {
  "oob-assertions": 165, "scoped-targets": 139, suite: 119, "suite-scale": 81, "assertions-more": 72,
  "grammar-forms": 70, cli: 60, shaping: 54, actions: 50, executable: 43, authoring: 38, blocks: 38,
  heal: 34, recording: 30, "keep-open": 14, "debug-bundle": 10, "multi-surface": 24, "real-grids": 22, "bad-input": 20, plugins: 17, demo: 14,
};

function e2eGroups(jobs: number): string[][] {
  const files = [...new Bun.Glob("test/e2e/*.test.ts").scanSync(".")].sort();
  const weight = (f: string) => E2E_WEIGHTS[f.replace(/^test\/e2e\//, "").replace(/\.test\.ts$/, "")] ?? 30;
  const groups = Array.from({ length: Math.max(1, Math.min(jobs, files.length)) }, () => ({ files: [] as string[], total: 0 }));
  for (const f of [...files].sort((a, b) => weight(b) - weight(a))) {
    const lightest = groups.reduce((m, g) => (g.total < m.total ? g : m));
    lightest.files.push(f);
    lightest.total += weight(f);
  }
  return groups.map((g) => g.files.sort());
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

function countBunTests(name: string, output: string): void {
  const p = /^\s*(\d+) pass\s*$/m.exec(output);
  const f = /^\s*(\d+) fail\s*$/m.exec(output);
  passed += p ? Number(p[1]) : 0;
  failed += f ? Number(f[1]) : 0;
  if (!p) broken.push(`${name}: no test summary`);
}

for (const stage of stages) {
  if (stage.name === "e2e") {
    const jobs = Number(process.env["FLOWPROOF_TEST_E2E_JOBS"] ?? 2) || 1;
    const groups = e2eGroups(jobs);
    console.log(`\n=== e2e: ${groups.length} parallel group(s) of test/e2e (FLOWPROOF_TEST_E2E_JOBS=${jobs})`);
    const runs = groups.map((files, i) => runCommand([bun, "test", "--timeout", "180000", ...files], i === 0));
    for (const [i, r] of (await Promise.all(runs)).entries()) {
      if (i > 0) {
        console.log(`\n=== e2e group ${i + 1}: ${groups[i]!.join(" ")}`);
        process.stdout.write(r.output);
      }
      countBunTests(`e2e group ${i + 1}`, r.output);
      if (r.code !== 0) broken.push(`e2e group ${i + 1}: exit ${r.code}`);
    }
    continue;
  }
  console.log(`\n=== ${stage.name}: ${stage.cmd.slice(1).join(" ")}`);
  const { code, output } = await runCommand(stage.cmd, true);
  if (stage.name === "python") {
    // unittest's summary: "Ran N tests" then "OK" or "FAILED (failures=F, errors=E, …)".
    const ran = /^Ran (\d+) tests? in \S+/m.exec(output);
    const verdict = /^(OK|FAILED)\b.*$/m.exec(output)?.[0] ?? "";
    const failures = Number(/failures=(\d+)/.exec(output)?.[1] ?? 0) + Number(/errors=(\d+)/.exec(output)?.[1] ?? 0);
    const skipped = Number(/skipped=(\d+)/.exec(output)?.[1] ?? 0);
    if (ran) {
      passed += Number(ran[1]) - failures - skipped;
      failed += failures;
      console.log(`python: ${ran[0].trim()} ${verdict} — ${Number(ran[1]) - failures - skipped} passed, ${failures} failed${skipped ? `, ${skipped} skipped` : ""}`);
    } else broken.push("python: no unittest summary");
  } else if (stage.name !== "check") countBunTests(stage.name, output);
  if (code !== 0) broken.push(`${stage.name}: exit ${code}`);
}

if (broken.length > 0) console.log(`\nproblems: ${broken.join("; ")}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(broken.length > 0 || failed > 0 ? 1 : 0);

export {};
