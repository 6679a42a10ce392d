// The whole test suite in order: checks, unit tests, end-to-end tests in real Chromium, then the
// Python SDK against the real CLI.
// Streams everything and ends with one summary line `N passed, N failed`.
const bun = process.execPath;
const stages: Array<{ name: string; cmd: string[] }> = [
  { name: "check", cmd: [bun, "scripts/check.ts"] },
  { name: "unit", cmd: [bun, "test", "--timeout", "30000", "src", "plugins", "scripts", "examples", "test/support"] },
  { name: "e2e", cmd: [bun, "test", "--timeout", "120000", "test/e2e"] },
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

async function pump(stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream, collect: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const text = decoder.decode(value, { stream: true });
    sink.write(text);
    collect(text);
  }
}

for (const stage of stages) {
  console.log(`\n=== ${stage.name}: ${stage.cmd.slice(1).join(" ")}`);
  let output = "";
  const proc = Bun.spawn(stage.cmd, { stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", PYTHONDONTWRITEBYTECODE: "1" } });
  await Promise.all([pump(proc.stdout, process.stdout, (t) => (output += t)), pump(proc.stderr, process.stderr, (t) => (output += t))]);
  const code = await proc.exited;
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
  } else if (stage.name !== "check") {
    const p = /^\s*(\d+) pass\s*$/m.exec(output);
    const f = /^\s*(\d+) fail\s*$/m.exec(output);
    passed += p ? Number(p[1]) : 0;
    failed += f ? Number(f[1]) : 0;
    if (!p) broken.push(`${stage.name}: no test summary`);
  }
  if (code !== 0) broken.push(`${stage.name}: exit ${code}`);
}

if (broken.length > 0) console.log(`\nproblems: ${broken.join("; ")}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(broken.length > 0 || failed > 0 ? 1 : 0);

export {};
