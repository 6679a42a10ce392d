// The real CLI as a subprocess: record → run round trip, exit codes, verdict lines, bundles,
// failure reporting, fail-closed references, the secret canary and zero model calls.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { flowYaml } from "../support/tmp-project.ts";
import { webE2e } from "../support/e2e.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { readTrace } from "../support/trace.ts";
import { resealed } from "../support/trace.ts";

const { server, project } = await webE2e();

/** Every file's bytes under a directory, for secret scans. */
function allBytes(dir: string): string {
  let out = "";
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    out += statSync(p).isDirectory() ? allBytes(p) : readFileSync(p, "latin1");
  }
  return out;
}

describe("flowproof record and run (CLI)", () => {
  test("records a trace, replays it to PASS and writes result.json, junit.xml and report.html", async () => {
    const spec = project.write(
      "greet.flow.yaml",
      flowYaml("Greet", `${server.url}/greeter.html`, [
        'rules: Type Ada into the "Your name" field',
        'rules: Press the "Greet" button',
        "assert: page shows Hello, Ada!",
      ]),
    );
    const rec = await runCli(["record", spec, "--author", "rules"], { cwd: project.dir });
    expect(rec.code).toBe(0);
    expect(rec.stdout).toContain("Recorded 'Greet': 3 steps -> ");
    expect(rec.stderr).toContain('[AUTHOR rules] 1: Type Ada into the "Your name" field');
    const tracePath = join(project.dir, "greet.trace.jsonl");
    expectValidTrace(tracePath);
    const { steps } = readTrace(tracePath);
    expect(steps.length).toBe(3);
    expect(Object.keys(steps[0]!)).toEqual(["id", "intent", "action", "selectors", "sync", "artifacts", "effect"]);

    const res = await runCli(["run", spec], { cwd: project.dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('  [PASS] s0001 Type Ada into the "Your name" field');
    expect(res.stdout).toContain("  [PASS] s0003 page shows Hello, Ada!");
    expect(res.stdout).toMatch(/^PASS: Greet \(\d+ ms\) -> .*\.flowproof\/runs\/\d{8}T\d{6}\.\d{3}Z\/report\.html$/m);
    const resultLine = /^result: (.*)$/m.exec(res.stdout)![1]!;
    const runDir = join(project.dir, resultLine).replace(/\/result\.json$/, "");
    expectValidResult(join(runDir, "result.json"));
    const junit = readFileSync(join(runDir, "junit.xml"), "utf8");
    expect(junit).toContain('<testsuite name="Greet" tests="3" failures="0" errors="0" skipped="0"');
    expect(readFileSync(join(runDir, "report.html"), "utf8")).toContain("Hello, Ada!");
  });

  test("--json gives the structured record and run results", async () => {
    const spec = project.write(
      "json.flow.yaml",
      flowYaml("Json", `${server.url}/greeter.html`, ['Type Bo into the "Your name" field', 'rules: Press the "Greet" button']),
    );
    const rec = await runCli(["record", spec, "--json"], { cwd: project.dir });
    expect(rec.code).toBe(0);
    const recorded = JSON.parse(rec.stdout) as {
      trace_path: string;
      steps: number;
      reused_steps: number;
      routing: Array<{ step: number; route: string; intent: string }>;
    };
    expect(recorded.steps).toBe(2);
    expect(recorded.reused_steps).toBe(0);
    expect(recorded.routing.map((r) => r.route)).toEqual(["fallback", "rules"]);
    expect(rec.stderr).toContain("WARNING: no authoring model is available");
    const res = await runCli(["run", spec, "--json"], { cwd: project.dir });
    expect(res.code).toBe(0);
    const ran = JSON.parse(res.stdout) as { report: { passed: boolean; steps: Array<{ status: string }> }; report_path: string };
    expect(ran.report.passed).toBe(true);
    expect(ran.report.steps.map((s) => s.status)).toEqual(["passed", "passed"]);
    expect(existsSync(ran.report_path)).toBe(true);
  });

  test("a failing assertion exits 1, names what was expected and seen, and skips the rest", async () => {
    const spec = project.write(
      "fails.flow.yaml",
      flowYaml("Fails", `${server.url}/greeter.html`, [
        'rules: Type Ada into the "Your name" field',
        'rules: Press the "Greet" button',
        "assert: page shows Hello, Ada!",
        'assert: the "id:greeting" shows Goodbye within 1s',
      ]),
    );
    expect((await runCli(["record", spec], { cwd: project.dir, env: { FLOWPROOF_AI_MODEL: undefined } })).code).toBe(1);
    expect(existsSync(join(project.dir, "fails.trace.jsonl"))).toBe(false);
    // Record a passing variant, then replay the failing one against its trace.
    const good = project.write(
      "fails-good.flow.yaml",
      flowYaml("Fails", `${server.url}/greeter.html`, [
        'rules: Type Ada into the "Your name" field',
        'rules: Press the "Greet" button',
        'assert: the "id:greeting" shows Hello within 1s',
        "assert: page shows Hello, Ada!",
      ]),
    );
    expect((await runCli(["record", good], { cwd: project.dir })).code).toBe(0);
    const trace = readFileSync(join(project.dir, "fails-good.trace.jsonl"), "utf8").replace('"value_contains":"Hello"', '"value_contains":"Goodbye"');
    project.write("fails-bad.trace.jsonl", resealed(trace));
    const res = await runCli(["run", good, "-t", join(project.dir, "fails-bad.trace.jsonl")], { cwd: project.dir });
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(
      '  [FAIL] s0003 the "id:greeting" shows Hello within 1s — expected the "id:greeting" to show "Goodbye" within 1000 ms; it shows "Hello, Ada!"',
    );
    expect(res.stdout).toContain("  [SKIP] s0004");
    expect(res.stdout).toMatch(/^FAIL: Fails/m);
    const result = JSON.parse(readFileSync(join(project.dir, /^result: (.*)$/m.exec(res.stdout)![1]!), "utf8")) as {
      passed: boolean;
      steps: Array<{ status: string }>;
    };
    expect(result.passed).toBe(false);
    expect(result.steps.map((s) => s.status)).toEqual(["passed", "passed", "failed", "skipped"]);
  });

  test("refuses to record a click another element would receive, naming the cover", async () => {
    const spec = project.write("covered.flow.yaml", flowYaml("Covered", `${server.url}/overlay.html`, ['rules: Click "Hidden buy"']));
    const res = await runCli(["record", spec], { cwd: project.dir, env: { FLOWPROOF_STEP_TIMEOUT_MS: "1500" } });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('timed out after 1500 ms waiting for the "Hidden buy" to receive the pointer');
    expect(res.stderr).toContain("#cover");
    expect(res.stderr).toContain("no trace was written");
    expect(existsSync(join(project.dir, "covered.trace.jsonl"))).toBe(false);
  });

  test("a ${VAR} value never reaches the trace, the report, junit or the output", async () => {
    const canary = "canary-Zq8vX31pLm";
    const spec = project.write(
      "secret/secret.flow.yaml",
      flowYaml("Secret", `${server.url}/password.html`, [
        'rules: Type admin into the "id:user" field',
        'rules: Type ${PW} into the "id:pw" field',
        'rules: Press the "Go" button',
        "assert: page shows accepted",
        'assert: the "id:pw" field contains ${PW}',
        'assert: the "id:status" shows ${PW} within 1s',
      ]),
    );
    // The last assertion fails on purpose: its message must not echo the page or the value.
    const rec = await runCli(["record", spec], { cwd: project.dir, env: { PW: canary } });
    expect(rec.code).toBe(1);
    expect(rec.stdout + rec.stderr).not.toContain(canary);
    const okSpec = project.write(
      "secret/ok.flow.yaml",
      flowYaml("Secret", `${server.url}/password.html`, [
        'rules: Type admin into the "id:user" field',
        'rules: Type ${PW} into the "id:pw" field',
        'rules: Press the "Go" button',
        "assert: page shows accepted",
        'assert: the "id:pw" field contains ${PW}',
      ]),
    );
    const rec2 = await runCli(["record", okSpec, "--json"], { cwd: project.dir, env: { PW: canary } });
    expect(rec2.code).toBe(0);
    const res = await runCli(["run", okSpec], { cwd: project.dir, env: { PW: canary } });
    expect(res.code).toBe(0);
    const bad = await runCli(["run", okSpec], { cwd: project.dir, env: { PW: undefined } });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain("${PW} is not set");
    for (const out of [rec2, res, bad]) expect(out.stdout + out.stderr).not.toContain(canary);
    expect(readFileSync(join(project.dir, "secret/ok.trace.jsonl"), "utf8")).toContain("${PW}");
    expect(allBytes(join(project.dir, "secret"))).not.toContain(canary);
  });

  test("an unset variable fails closed, naming it; nothing is typed", async () => {
    const spec = project.write(
      "unset.flow.yaml",
      flowYaml("Unset", `${server.url}/greeter.html`, ['rules: Type ${FLOWPROOF_TEST_UNSET_VAR} into the "Your name" field']),
    );
    const res = await runCli(["record", spec], { cwd: project.dir, env: { FLOWPROOF_TEST_UNSET_VAR: undefined } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("${FLOWPROOF_TEST_UNSET_VAR} is not set");
  });

  test("an unknown capture fails closed, naming the captures in scope", async () => {
    const spec = project.write(
      "capture.flow.yaml",
      flowYaml("Capture", `${server.url}/async.html`, ['rules: Remember the "css:h1" as title', 'rules: Type ${captured.order} into the "Order id" field']),
    );
    const res = await runCli(["record", spec], { cwd: project.dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("${captured.order} was never remembered; captures in scope: title");
  });

  test("replay makes zero model calls even when a model endpoint is configured", async () => {
    let calls = 0;
    const model = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => {
        calls++;
        return new Response("{}", { status: 500 });
      },
    });
    try {
      const spec = project.write(
        "nomodel.flow.yaml",
        flowYaml("No model", `${server.url}/greeter.html`, [
          'rules: Type Ada into the "Your name" field',
          'rules: Press the "Greet" button',
          "assert: page shows Hello, Ada!",
        ]),
      );
      expect((await runCli(["record", spec, "--author", "rules"], { cwd: project.dir })).code).toBe(0);
      const env = {
        FLOWPROOF_AI_BASE_URL: `http://127.0.0.1:${model.port}/v1`,
        FLOWPROOF_AI_API_KEY: "k",
        FLOWPROOF_AI_MODEL: "m",
        OPENAI_BASE_URL: `http://127.0.0.1:${model.port}/v1`,
        OPENAI_API_KEY: "k",
      };
      const res = await runCli(["run", spec], { cwd: project.dir, env });
      expect(res.code).toBe(0);
      expect(calls).toBe(0);
    } finally {
      model.stop(true);
    }
  });

  test("a missing browser exits 2 with install instructions and still writes a report", async () => {
    // The recorded flow and its trace, moved together into another folder: the trace still belongs to the flow.
    const spec = project.write("nobrowser/greet.flow.yaml", readFileSync(join(project.dir, "greet.flow.yaml"), "utf8"));
    project.write("nobrowser/greet.trace.jsonl", readFileSync(join(project.dir, "greet.trace.jsonl"), "utf8"));
    const res = await runCli(["run", spec], { cwd: project.dir, env: { FLOWPROOF_CHROME: "/nonexistent/chromium" } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("FLOWPROOF_CHROME=/nonexistent/chromium (does not exist)");
    expect(res.stderr).toContain("apt-get install chromium");
    expect(res.stdout).toMatch(/^ERROR: Greet/m);
    expect(existsSync(join(project.dir, /^result: (.*)$/m.exec(res.stdout)![1]!))).toBe(true);
  });
});
