// Verdicts a user can believe, through the real CLI and real Chromium: a trace that is not whole
// (cut short, edited, header only, no flow named, another app's even sealed again) is refused with exit 2 instead of
// replaying to PASS; an unrecorded flow in a suite is an error in CI and a loud warning elsewhere;
// a known failure (`expect: {fail: …}`) records through its failing step, replays as an expected
// failure while the bug is there, and fails naming the marker once the bug is gone.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { resealed } from "../support/trace.ts";

let server: TestServer;
let project: TmpProject;
/** The total the checkout page shows: 100.00 while the discount bug is there, 90.00 once fixed. */
let total = "100.00";
/** How many times the flaky page was served: it shows "Saved" on odd visits only. */
let visits = 0;

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  server.setRoute(
    "/checkout.html",
    () =>
      new Response(
        `<!doctype html><title>Checkout</title><input placeholder="Code"><button id="apply">Apply</button><p id="total"></p>
<script>document.getElementById("apply").addEventListener("click", () => { document.getElementById("total").textContent = "Total ${total}"; });</script>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      ),
  );
  server.setRoute(
    "/flaky.html",
    () =>
      new Response(
        `<!doctype html><title>Flaky</title><button id="save">Save</button><p id="out"></p>
<script>document.getElementById("save").addEventListener("click", () => { document.getElementById("out").textContent = ${++visits % 2 === 1 ? '"Saved"' : '"Try again"'}; });</script>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      ),
  );
  project = tmpProject("flowproof-verdicts-");
});
afterAll(() => {
  server.stop();
  project.remove();
});

const GREET = ['rules: Type Ada into the "Your name" field', 'rules: Press the "Greet" button', "assert: page shows Hello, Ada!"];

describe("a trace that is not whole is refused, never replayed to PASS", () => {
  let lines: string[];
  let spec: string;
  let trace: string;
  beforeAll(async () => {
    spec = project.write("whole/greet.flow.yaml", flowYaml("Greet", `${server.url}/greeter.html`, GREET));
    expect((await runCli(["record", spec, "--recording-detail", "off"], { cwd: project.dir })).code).toBe(0);
    trace = join(project.dir, "whole", "greet.trace.jsonl");
    expectValidTrace(trace);
    lines = readFileSync(trace, "utf8").trim().split("\n");
    expect(JSON.parse(lines[0]!).integrity).toMatchObject({ steps: 3 });
  });

  test.each([
    ["the last step dropped", () => lines.slice(0, 3), "the trace holds 2 steps where its header says 3"],
    ["only one step kept", () => lines.slice(0, 2), "the trace holds 1 step where its header says 3"],
    ["only the header", () => lines.slice(0, 1), "the trace has a header and no steps"],
    ["a step edited", () => lines.map((l, i) => (i === 3 ? l.replace("Hello, Ada!", "Hello") : l)), "the trace is not the one it was recorded with"],
    ["no flow named", () => [JSON.stringify({ ...JSON.parse(lines[0]!), spec: undefined }), ...lines.slice(1)], "the trace header names no flow"],
    [
      "its header edited",
      () => [JSON.stringify({ ...JSON.parse(lines[0]!), app: { name: "agent", adapter: "agent" } }), ...lines.slice(1)],
      "the trace is not the one it was recorded with",
    ],
    [
      "another app's trace",
      () =>
        resealed(`${[JSON.stringify({ ...JSON.parse(lines[0]!), app: { name: "agent", adapter: "agent" } }), ...lines.slice(1)].join("\n")}\n`)
          .trimEnd()
          .split("\n"),
      "was recorded for an `app: agent` flow, but",
    ],
  ])("%s: exit 2, bad-trace", async (_what, edit, message) => {
    writeFileSync(trace, `${edit().join("\n")}\n`);
    try {
      const r = await runCli(["run", spec], { cwd: project.dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain("[bad-trace]");
      expect(r.stdout).not.toContain("PASS");
    } finally {
      writeFileSync(trace, `${lines.join("\n")}\n`);
    }
  });

  test("the trace as recorded still replays to PASS", async () => {
    const r = await runCli(["run", spec], { cwd: project.dir });
    expect(r.code).toBe(0);
  });
});

describe("an unrecorded flow in a suite", () => {
  beforeAll(async () => {
    const recorded = project.write("suite/a.flow.yaml", flowYaml("Recorded", `${server.url}/greeter.html`, GREET));
    expect((await runCli(["record", recorded, "--recording-detail", "off"], { cwd: project.dir })).code).toBe(0);
    project.write("suite/b.flow.yaml", flowYaml("Never recorded", `${server.url}/greeter.html`, GREET));
  });

  test("is a loud warning and a visible skip outside CI", async () => {
    const r = await runCli(["run", join(project.dir, "suite"), "--recording-detail", "off"], { cwd: project.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("[SKIP] Never recorded");
    expect(r.stderr).toContain("WARNING: suite/b.flow.yaml has no trace, so it was not run and checks nothing");
  });

  test.each([
    ["CI=true", { CI: "true" }, []],
    ["--strict", {}, ["--strict"]],
  ] as const)("is an error with %s", async (_what, env, flags) => {
    const r = await runCli(["run", join(project.dir, "suite"), "--recording-detail", "off", ...flags], { cwd: project.dir, env });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("[ERROR] Never recorded: no trace recorded at");
  });
});

describe("a known failure: expect: {fail: …}", () => {
  const STEPS = [
    'rules: Type SAVE10 into the "Code" field',
    'rules: Press the "Apply" button',
    "assert: page shows Total 90.00 within 2s",
    'rules: Click "Apply"',
  ];
  const spec = () => join(project.dir, "known", "checkout.flow.yaml");

  test("records through the failing step, replays as an expected failure, and fails once the bug is gone", async () => {
    total = "100.00";
    project.write(
      "known/checkout.flow.yaml",
      `${flowYaml("Discounted checkout", `${server.url}/checkout.html`, STEPS)}expect:\n  fail: "BUG-123: the total ignores the discount"\n`,
    );
    const rec = await runCli(["record", spec(), "--recording-detail", "off"], { cwd: project.dir });
    expect(rec.code).toBe(0);
    expect(rec.stdout).toContain(
      "Recorded 'Discounted checkout': 3 steps (a known failure: s0003 failed as `expect:` declares — BUG-123: the total ignores the discount; the trace ends there)",
    );
    const trace = join(project.dir, "known", "checkout.trace.jsonl");
    expectValidTrace(trace);
    expect(JSON.parse(readFileSync(trace, "utf8").split("\n")[0]!).expect).toMatchObject({ fail: "BUG-123: the total ignores the discount", step: "s0003" });

    const bug = await runCli(["run", spec(), "--recording-detail", "off"], { cwd: project.dir });
    expect(bug.code).toBe(0);
    expect(bug.stdout).toContain("  [XFAIL] s0003 page shows Total 90.00 within 2s");
    expect(bug.stdout).toMatch(/XFAIL: Discounted checkout \(\d+ ms\) — a known failure \(BUG-123: the total ignores the discount\)/);
    const resultPath = join(project.dir, /result: (.*)/.exec(bug.stdout)![1]!);
    expectValidResult(resultPath);
    expect(JSON.parse(readFileSync(resultPath, "utf8"))).toMatchObject({
      outcome: "expected_failure",
      passed: true,
      expected_failure: { reason: "BUG-123: the total ignores the discount", step: "s0003" },
    });
    expect(readFileSync(resultPath.replace("result.json", "junit.xml"), "utf8")).toContain(
      '<skipped type="xfail" message="expected failure (BUG-123: the total ignores the discount)',
    );

    const suite = await runCli(["run", join(project.dir, "known"), "--recording-detail", "off"], { cwd: project.dir });
    expect(suite.code).toBe(0);
    expect(suite.stdout).toContain("[XFAIL] Discounted checkout");
    expect(suite.stdout).toContain("PASS: 1/1 flows passed, 1 expected to fail");

    total = "90.00";
    const fixed = await runCli(["run", spec(), "--recording-detail", "off"], { cwd: project.dir });
    expect(fixed.code).toBe(1);
    expect(fixed.stdout).toContain(
      "[FAIL] s0003 page shows Total 90.00 within 2s — expected to fail (BUG-123: the total ignores the discount), but it passed: the known failure is gone; remove `expect:` from",
    );
  }, 60_000);

  test("a flow whose every step passes at record is told to drop the marker, and nothing is written", async () => {
    total = "90.00";
    project.write(
      "known-fixed/checkout.flow.yaml",
      `${flowYaml("Fixed checkout", `${server.url}/checkout.html`, STEPS)}expect:\n  fail: "BUG-123: the total ignores the discount"\n`,
    );
    const rec = await runCli(["record", join(project.dir, "known-fixed", "checkout.flow.yaml"), "--recording-detail", "off"], { cwd: project.dir });
    expect(rec.code).toBe(2);
    expect(rec.stderr).toContain("every step passed, but the flow declares a known failure");
    expect(project.files().filter((f) => f.startsWith("known-fixed/") && f.endsWith(".trace.jsonl"))).toEqual([]);
  }, 60_000);
});

describe("--repeat-each N", () => {
  const FLAKY = ['rules: Click "Save"', "assert: page shows Saved within 1s"];

  test("a flow that passes in some repeats and fails in others is FLAKY, naming the step that differed", async () => {
    const spec = project.write("flaky/flaky.flow.yaml", flowYaml("Flaky save", `${server.url}/flaky.html`, FLAKY));
    visits = 0;
    expect((await runCli(["record", spec, "--recording-detail", "off"], { cwd: project.dir })).code).toBe(0);
    visits = 0;
    const single = await runCli(["run", spec, "--repeat-each", "3", "--recording-detail", "off"], { cwd: project.dir });
    expect(single.code).toBe(1);
    expect(single.stdout).toMatch(/FLAKY: Flaky save \(\d+ ms\)/);
    const resultPath = join(project.dir, /result: (.*)/.exec(single.stdout)![1]!);
    expectValidResult(resultPath);
    const result = JSON.parse(readFileSync(resultPath, "utf8")) as {
      outcome: string;
      repeat: { outcomes: string[]; runs: string[] };
      flaky: { summary: string; steps: { id: string; outcomes: string[] }[] };
    };
    expect(result.outcome).toBe("flaky");
    expect(result.repeat.outcomes).toEqual(["passed", "failed", "passed"]);
    expect(result.repeat.runs).toHaveLength(3);
    expect(result.flaky.summary).toBe("2 of 3 repeats passed; s0002 passed/failed/passed");
    expect(readFileSync(resultPath.replace("result.json", "junit.xml"), "utf8")).toContain(
      '<failure type="flaky" message="flaky: 2 of 3 repeats passed; s0002 passed/failed/passed">',
    );

    visits = 0;
    const suite = await runCli(["run", join(project.dir, "flaky"), "--repeat-each", "3", "--recording-detail", "off"], { cwd: project.dir });
    expect(suite.code).toBe(1);
    expect(suite.stdout).toContain("[FLAKY] Flaky save");
    expect(suite.stdout).toContain("  [FLAKY] s0002 page shows Saved within 1s — passed/failed/passed");
    expect(suite.stdout).toContain("1 flaky");
  }, 60_000);

  test("a steady flow keeps its verdict, and --repeat-each beside --retries is refused", async () => {
    const spec = project.write("steady/greet.flow.yaml", flowYaml("Greet", `${server.url}/greeter.html`, GREET));
    expect((await runCli(["record", spec, "--recording-detail", "off"], { cwd: project.dir })).code).toBe(0);
    const r = await runCli(["run", spec, "--repeat-each", "2", "--recording-detail", "off", "--json"], { cwd: project.dir });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { report: { outcome: string; repeat: { outcomes: string[] } } }).report).toMatchObject({
      outcome: "passed",
      repeat: { outcomes: ["passed", "passed"] },
    });
    const both = await runCli(["run", spec, "--repeat-each", "2", "--retries", "1"], { cwd: project.dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--repeat-each and --retries contradict each other");
  }, 60_000);
});
