// Suites through the real CLI in real Chromium: a directory runs every flow in one browser,
// broken flows are isolated as errored, junit is merged, exit codes follow the worst verdict;
// suite.yaml (env, env_from, hooks, order, server, min_version), exports, skips, --strict,
// --record-missing, --retries and the run record with controls for `flowproof audit`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import Ajv from "ajv";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli, REPO_ROOT } from "../support/cli.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { expectValidResult } from "../support/schemas.ts";
import { record } from "../../src/commands/record.ts";
import { resealed } from "../support/trace.ts";

let server: TestServer;
const projects: TmpProject[] = [];

beforeAll(async () => {
  requireChromium();
  server = await startServer();
});
afterAll(() => {
  server.stop();
  for (const p of projects) p.remove();
});

const validateRecord = new Ajv({ allErrors: true, strict: false, validateFormats: false }).compile(
  JSON.parse(readFileSync(join(REPO_ROOT, "schema/run-record.schema.json"), "utf8")) as object,
);

function project(): TmpProject {
  const p = tmpProject("flowproof-suite-");
  projects.push(p);
  return p;
}

async function recorded(p: TmpProject, rel: string, text: string, env: Record<string, string> = {}): Promise<string> {
  const spec = p.write(rel, text);
  const r = await record({ spec, author: "rules", env, recordingDetail: "off" });
  expect(r.error).toBeUndefined();
  return spec;
}

const greet = (name: string, who: string, extra = "") =>
  `${flowYaml(name, `${server.url}/greeter.html`, [`rules: Type ${who} into the "Your name" field`, 'rules: Press the "Greet" button', `assert: page shows Hello, ${who}!`])}${extra}`;

interface SuiteJson {
  flows: Array<{ spec: string; outcome: string; exports: string[]; reason?: string; report_path: string | null; attempts: number }>;
  passed: number;
  failed: number;
  skipped: number;
  errored: number;
  junit_path: string;
  record_path: string;
  run_dir: string;
}

function allBytes(dir: string): string {
  let out = "";
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    out += statSync(p).isDirectory() ? allBytes(p) : readFileSync(p, "latin1");
  }
  return out;
}

describe("flowproof run <dir>", () => {
  test("runs every flow, isolates a broken one as errored, merges junit and exits 2", async () => {
    const p = project();
    await recorded(p, "a-pass.flow.yaml", greet("Pass", "Ada"));
    const failing = await recorded(p, "b-fail.flow.yaml", greet("Fail", "Bo"));
    // The app drifts after recording: the assertion no longer holds at replay.
    p.write("b-fail.flow.yaml", readFileSync(failing, "utf8"));
    const trace = p.read("b-fail.trace.jsonl").replaceAll("Hello, Bo!", "Hello, Nobody!");
    p.write("b-fail.trace.jsonl", resealed(trace));
    p.write("c-broken.flow.yaml", flowYaml("Broken", `${server.url}/greeter.html`, ["rules: Frobnicate the widget"]));
    p.write("nested/d-untraced.flow.yaml", greet("Untraced", "Cy"));
    p.write("e-gated.flow.yaml", greet("Gated", "Di", "skip_unless_env: [FLOWPROOF_TEST_NEVER_SET]\n"));

    // The drifted assertion fails at the step bound: shortened, since the verdict is under test, not the wait.
    const bounded = { cwd: p.dir, env: { FLOWPROOF_STEP_TIMEOUT_MS: "1500" } };
    const res = await runCli(["run", "."], bounded);
    expect(res.code).toBe(2);
    expect(res.stdout).toMatch(/^\[PASS\] Pass \(\d+ ms\)$/m);
    expect(res.stdout).toMatch(/^\[FAIL\] Fail \(\d+ ms\)$/m);
    expect(res.stdout).toContain("  [FAIL] s0003 page shows Hello, Nobody!");
    expect(res.stdout).toMatch(/^\[ERROR\] c-broken\.flow\.yaml: c-broken\.flow\.yaml:5:\d+: /m);
    expect(res.stdout).toMatch(/^\[SKIP\] Untraced \(no trace recorded at nested\/d-untraced\.trace\.jsonl/m);
    expect(res.stdout).toContain("[SKIP] Gated (skip_unless_env: FLOWPROOF_TEST_NEVER_SET is not set)");
    expect(res.stdout).toContain("FAIL: 3/5 flows passed, 2 skipped, 1 errored -> .flowproof/suite-junit.xml");

    const junit = p.read(".flowproof/suite-junit.xml");
    expect(junit.match(/<testsuite /g)?.length).toBe(5);
    expect(junit).toContain('<testsuite name="Pass" tests="3" failures="0" errors="0" skipped="0"');
    expect(junit).toContain('<testsuite name="Fail" tests="3" failures="1"');
    expect(junit).toMatch(/<testsuite name="c-broken.flow.yaml" tests="1" failures="0" errors="1"/);

    // Without the broken flow the worst verdict is a failure: exit 1; --strict turns the missing trace into an error.
    p.write("c-broken.flow.yaml", greet("Mended", "Ed"));
    await recorded(p, "c-broken.flow.yaml", greet("Mended", "Ed"));
    const again = await runCli(["run", ".", "--json"], bounded);
    expect(again.code).toBe(1);
    const json = JSON.parse(again.stdout) as SuiteJson;
    expect(json.flows.map((f) => [f.spec, f.outcome])).toEqual([
      ["a-pass.flow.yaml", "passed"],
      ["b-fail.flow.yaml", "failed"],
      ["c-broken.flow.yaml", "passed"],
      ["e-gated.flow.yaml", "skipped"],
      ["nested/d-untraced.flow.yaml", "skipped"],
    ]);
    for (const f of json.flows) expectValidResult(f.report_path!);
    const rec = JSON.parse(readFileSync(json.record_path, "utf8")) as unknown;
    if (!validateRecord(rec)) throw new Error(JSON.stringify(validateRecord.errors));

    const strict = await runCli(["run", ".", "--strict"], bounded);
    expect(strict.code).toBe(2);
    expect(strict.stdout).toMatch(/^\[ERROR\] Untraced: no trace recorded at nested\/d-untraced\.trace\.jsonl \(--strict\)/m);
    const both = await runCli(["run", ".", "--strict", "--record-missing"], { cwd: p.dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--strict and --record-missing contradict each other");
  });

  test("--record-missing records a traceless flow in place and replays it", async () => {
    const p = project();
    p.write("new.flow.yaml", greet("New", "Flo"));
    const res = await runCli(["run", ".", "--record-missing", "--author", "rules"], { cwd: p.dir });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain("[RECORD] New");
    expect(res.stdout).toMatch(/^\[PASS\] New/m);
    expect(existsSync(join(p.dir, "new.trace.jsonl"))).toBe(true);
  });

  test("--retries re-runs a failed flow with a fresh context and reports the attempts", async () => {
    const p = project();
    let served = 0;
    server.setRoute("/flaky.html", () => {
      served++;
      // Recording sees "ready"; the first replay sees "not yet"; the retry sees "ready" again.
      const text = served === 2 ? "not yet" : "ready";
      return new Response(`<!doctype html><title>Flaky</title><p id="state">${text}</p>`, { headers: { "content-type": "text/html" } });
    });
    await recorded(p, "flaky.flow.yaml", flowYaml("Flaky", `${server.url}/flaky.html`, ['assert: the "id:state" shows ready within 1s']));
    const res = await runCli(["run", ".", "--retries", "2", "--json"], { cwd: p.dir });
    expect(res.code).toBe(0);
    const json = JSON.parse(res.stdout) as SuiteJson;
    expect(json.flows[0]!.attempts).toBe(2);
    expect(res.stderr).toContain("retry 1/2 Flaky");
  });
});

describe("suite.yaml", () => {
  test("env, env_from, hooks and order reach every flow; after_each always runs", async () => {
    const p = project();
    const log = join(p.dir, "hooks.log");
    p.write(
      "suite.yaml",
      [
        "order: [z-first.flow.yaml]",
        "env:",
        "  WHO: ${MINTED}-x",
        "env_from: echo MINTED=Ada; echo '# a comment'",
        `before_each: echo "before $FLOWPROOF_SPEC" >> ${log}`,
        `after_each: echo "after $FLOWPROOF_SPEC" >> ${log}`,
        "",
      ].join("\n"),
    );
    await recorded(p, "z-first.flow.yaml", greet("First", "${WHO}"), { WHO: "Ada-x" });
    await recorded(p, "a-second.flow.yaml", greet("Second", "${MINTED}"), { MINTED: "Ada" });
    // Each recording ran between the hooks too; from here on, the log is the suite run's.
    expect(
      readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .map((l) => l.split(" ")[0]),
    ).toEqual(["before", "after", "before", "after"]);
    writeFileSync(log, "");
    const res = await runCli(["run", "."], { cwd: p.dir });
    expect(res.code).toBe(0);
    expect(res.stdout.indexOf("[PASS] First")).toBeLessThan(res.stdout.indexOf("[PASS] Second"));
    const lines = readFileSync(log, "utf8").trim().split("\n");
    expect(lines.map((l) => l.split(" ")[0])).toEqual(["before", "after", "before", "after"]);
    expect(lines[0]).toContain("z-first.flow.yaml");

    // A failing before_each errors that flow only; after_each still runs.
    p.write("suite.yaml", p.read("suite.yaml").replace(/before_each: .*/, `before_each: 'case "$FLOWPROOF_SPEC" in *z-first*) exit 3;; esac'`));
    const hooked = await runCli(["run", "."], { cwd: p.dir });
    expect(hooked.code).toBe(2);
    expect(hooked.stdout).toMatch(/^\[ERROR\] First: before_each hook .* failed \(exit code 3\)/m);
    expect(hooked.stdout).toMatch(/^\[PASS\] Second/m);
    expect(readFileSync(log, "utf8").trim().split("\n").length).toBe(6);

    // env_from that prints garbage aborts the run (fail closed) without echoing the line.
    p.write("minted.txt", "GOOD=1\nnot a pair s3cret\n");
    p.write("suite.yaml", "env_from: cat minted.txt\n");
    const bad = await runCli(["run", "."], { cwd: p.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("printed a line that is not NAME=VALUE (stdout line 2)");
    expect(bad.stderr).not.toContain("s3cret");
  });

  test("record and a single-flow run apply the nearest suite.yaml and write a run record", async () => {
    const p = project();
    p.write("suite.yaml", "env_from: echo WHO=Ada\n");
    p.write("flows/g.flow.yaml", greet("Single", "${WHO}"));
    const rec = await runCli(["record", "flows/g.flow.yaml", "--author", "rules"], { cwd: p.dir });
    expect(rec.code).toBe(0);
    expect(rec.stderr).toContain("suite: suite.yaml");
    const res = await runCli(["run", "flows/g.flow.yaml"], { cwd: p.dir });
    expect(res.code).toBe(0);
    const audit = await runCli(["audit", ".", "--json"], { cwd: p.dir });
    expect(audit.code).toBe(0);
    expect((JSON.parse(audit.stdout) as { controls: unknown[] }).controls).toEqual([]);
  });

  test("unknown keys, a bad server block and a newer min_version are refused with places and hints", async () => {
    const p = project();
    await recorded(p, "a.flow.yaml", greet("A", "Ada"));
    p.write("suite.yaml", "envv: {}\nserver: { command: 'true' }\n");
    const res = await runCli(["run", "."], { cwd: p.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("suite.yaml:1:1: error[unknown-key] unknown key `envv` in suite.yaml");
    expect(res.stderr).toContain("did you mean `env`?");
    expect(res.stderr).toContain("error[missing-key] `server` needs the `url` to wait for");
    p.write("suite.yaml", 'min_version: "99.0.0"\n');
    const old = await runCli(["run", "."], { cwd: p.dir });
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(/needs flowproof 99\.0\.0 or newer; this is flowproof \d+\.\d+\.\d+/);
  });

  test("server: starts the app command, waits for its url, and stops it at the end", async () => {
    const p = project();
    const port = 20000 + Math.floor(Math.random() * 20000);
    p.write("site/greeter.html", readFileSync(join(REPO_ROOT, "test/fixtures/pages/greeter.html"), "utf8"));
    // Record against the test server's copy, replay against the suite's own server.
    await recorded(
      p,
      "a.flow.yaml",
      flowYaml("Served", "${APP_URL}/greeter.html", [
        'rules: Type Ada into the "Your name" field',
        'rules: Press the "Greet" button',
        "assert: page shows Hello, Ada!",
      ]),
      { APP_URL: server.url },
    );
    p.write(
      "suite.yaml",
      [
        "env:",
        `  APP_URL: http://127.0.0.1:${port}`,
        "server:",
        `  command: exec python3 -m http.server ${port} --bind 127.0.0.1 --directory site`,
        `  url: http://127.0.0.1:${port}/greeter.html`,
        "  timeout_seconds: 30",
        "",
      ].join("\n"),
    );
    const res = await runCli(["run", "."], { cwd: p.dir });
    expect(res.stderr).toContain("[SERVER] started");
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^\[PASS\] Served/m);
    // Stopped at the end: nothing answers any more.
    await expect(fetch(`http://127.0.0.1:${port}/greeter.html`)).rejects.toThrow();
  });
});

describe("exports", () => {
  test("a passing flow hands captured values to later flows by name only; a failed flow exports nothing", async () => {
    const p = project();
    const code = "ORD-4711-SECRET";
    server.setRoute(
      "/order.html",
      () => new Response(`<!doctype html><title>Order</title><p>Order <span id="order">${code}</span></p>`, { headers: { "content-type": "text/html" } }),
    );
    p.write("suite.yaml", "order: [make.flow.yaml, use.flow.yaml]\n");
    await recorded(
      p,
      "make.flow.yaml",
      `${flowYaml("Make order", `${server.url}/order.html`, ['rules: Remember the "id:order" as order'])}exports:\n  HANDOFF_ORDER_NO: \${captured.order}\n`,
    );
    await recorded(
      p,
      "use.flow.yaml",
      flowYaml("Use order", `${server.url}/greeter.html`, [
        'rules: Type ${HANDOFF_ORDER_NO} into the "Your name" field',
        'rules: Press the "Greet" button',
        "assert: page shows ORD-4711",
      ]),
      { HANDOFF_ORDER_NO: code },
    );
    const res = await runCli(["run", "."], { cwd: p.dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("  [EXPORT] HANDOFF_ORDER_NO");
    expect(res.stdout).toMatch(/^\[PASS\] Use order/m);
    expect(res.stdout + res.stderr).not.toContain(code);
    expect(allBytes(join(p.dir, ".flowproof", "runs"))).not.toContain(code);
    expect(p.read("make.trace.jsonl") + p.read("use.trace.jsonl")).not.toContain(code);

    // An export that cannot resolve fails its own flow, and the next flow sees no value.
    // (Only the exports changed, so the trace is kept current by hand rather than re-recorded.)
    const edited = p.read("make.flow.yaml").replace("${captured.order}", "${captured.nope}");
    p.write("make.flow.yaml", edited);
    p.write(
      "make.trace.jsonl",
      resealed(p.read("make.trace.jsonl").replace(/"hash":"sha256:[0-9a-f]{64}"/, `"hash":"sha256:${createHash("sha256").update(edited).digest("hex")}"`)),
    );
    const broken = await runCli(["run", "."], { cwd: p.dir });
    // The flow that needs the missing export errors: its configuration is incomplete.
    expect(broken.code).toBe(2);
    expect(broken.stdout).toContain("export HANDOFF_ORDER_NO could not be resolved: ${captured.nope} was never remembered");
    expect(broken.stdout).toMatch(/^\[FAIL\] Make order/m);
    expect(broken.stdout).toMatch(/^\[ERROR\] Use order: .*\$\{HANDOFF_ORDER_NO\} is not set/m);
  });
});

describe("controls and audit", () => {
  test("duplicate control ids are refused naming both flows", async () => {
    const p = project();
    await recorded(p, "a.flow.yaml", `${greet("A", "Ada")}control: { id: auth.same }\n`);
    await recorded(p, "b.flow.yaml", `${greet("B", "Bo")}control: { id: auth.same }\n`);
    const res = await runCli(["run", "."], { cwd: p.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('control id "auth.same" is claimed by both a.flow.yaml and b.flow.yaml');
  });

  test("audit reads the run record: verdicts, --run, --since regressions, and no record yet", async () => {
    const p = project();
    const none = await runCli(["audit", "."], { cwd: p.dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("run the suite first: flowproof run .");
    await recorded(p, "a.flow.yaml", `${greet("A", "Ada")}control: { id: greet.ada, title: Ada is greeted }\n`);
    await recorded(p, "b.flow.yaml", `${greet("B", "Bo")}control: { id: greet.bo }\n`);
    p.write("c.flow.yaml", `${greet("C", "Cy")}control: { id: greet.cy }\n`);
    const first = JSON.parse((await runCli(["run", ".", "--json"], { cwd: p.dir })).stdout) as SuiteJson & { run_id: string };
    const map = await runCli(["audit", ".", "--json"], { cwd: p.dir });
    expect(map.code).toBe(0);
    const doc = JSON.parse(map.stdout) as {
      run: string;
      controls: Array<{ id: string; verdict: string; reason?: string; flow: string; evidence: { trace: string } }>;
    };
    expect(doc.run).toBe(first.run_id);
    expect(doc.controls.map((c) => [c.id, c.verdict])).toEqual([
      ["greet.ada", "pass"],
      ["greet.bo", "pass"],
      ["greet.cy", "capability-error"],
    ]);
    expect(doc.controls[0]!.evidence.trace).toBe("a.trace.jsonl");
    expect(doc.controls[2]!.reason).toContain("no trace recorded");
    const yaml = await runCli(["audit", "."], { cwd: p.dir });
    expect(yaml.stdout).toContain("- id: greet.ada\n    title: Ada is greeted");

    // B regresses (drift), A's control disappears: --since exits 1 and lists both.
    p.write("b.trace.jsonl", resealed(p.read("b.trace.jsonl").replaceAll("Hello, Bo!", "Hello, Nobody!")));
    await recorded(p, "a.flow.yaml", p.read("a.flow.yaml").replace(/control: .*\n/, ""));
    const second = await runCli(["run", "."], { cwd: p.dir });
    expect(second.code).toBe(1);
    const fails = await runCli(["audit", "."], { cwd: p.dir });
    expect(fails.code).toBe(1);
    const since = await runCli(["audit", ".", "--since", first.run_id, "--json"], { cwd: p.dir });
    expect(since.code).toBe(1);
    const diff = JSON.parse(since.stdout) as { removed: Array<{ id: string }>; changed: Array<{ id: string; old: string; new: string }> };
    expect(diff.removed.map((c) => c.id)).toEqual(["greet.ada"]);
    expect(diff.changed).toEqual([{ id: "greet.bo", old: "pass", new: "fail" }]);
    const pinned = await runCli(["audit", ".", "--run", first.run_id], { cwd: p.dir });
    expect(pinned.code).toBe(0);
    const conflict = await runCli(["audit", ".", "--run", first.run_id, "--since", first.run_id], { cwd: p.dir });
    expect(conflict.code).toBe(2);
  });
});
