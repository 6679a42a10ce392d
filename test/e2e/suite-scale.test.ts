// Scaling a suite beyond one flow at a time, through the real CLI in real Chromium:
// `--workers 2` gives the serial verdicts, `--shard 1/3..3/3` + `flowproof merge` equal the
// unsharded run, and killing Chromium mid-suite errors the running flow while the suite
// finishes (a fresh browser for the rest) and still writes its report.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli, REPO_ROOT } from "../support/cli.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { record } from "../../src/commands/record.ts";
import { resealed } from "../support/trace.ts";

let server: TestServer;
let p: TmpProject;

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  p = tmpProject("flowproof-scale-");
  // Five flows: four pass, one fails after drift (its trace expects another greeting).
  for (const [i, who] of ["Ada", "Bo", "Cy", "Di", "Ed"].entries()) {
    const spec = p.write(
      `f${i}.flow.yaml`,
      flowYaml(`Flow ${who}`, `${server.url}/greeter.html`, [
        `rules: Type ${who} into the "Your name" field`,
        'rules: Press the "Greet" button',
        `assert: page shows Hello, ${who}!`,
      ]),
    );
    const r = await record({ spec, author: "rules", env: {}, recordingDetail: "off" });
    expect(r.error).toBeUndefined();
  }
  p.write("f3.trace.jsonl", resealed(p.read("f3.trace.jsonl").replaceAll("Hello, Di!", "Hello, Nobody!")));
});
afterAll(() => {
  server.stop();
  p.remove();
});

interface SuiteJson {
  flows: Array<{ spec: string; outcome: string }>;
  run_dir: string;
  record_path: string;
}
const verdicts = (j: SuiteJson) => j.flows.map((f) => [f.spec, f.outcome]);
/** The drifted flow fails at the step bound: shortened, since its verdict is under test, not the wait. */
const BOUNDED = { FLOWPROOF_STEP_TIMEOUT_MS: "2000" };

/** The plain serial run of the five flows: the reference both the workers and the shards are held to, run once. */
let serialRun: Promise<Awaited<ReturnType<typeof runCli>>> | undefined;
const serial = () => (serialRun ??= runCli(["run", ".", "--json", "--recording-detail", "off"], { cwd: p.dir, env: BOUNDED }));

describe("scale", () => {
  test("--workers 2 reports the same verdicts, in the same order, as a serial run", async () => {
    const reference = await serial();
    const parallel = await runCli(["run", ".", "--json", "--recording-detail", "off", "--workers", "2"], { cwd: p.dir, env: BOUNDED });
    expect(reference.code).toBe(1);
    expect(parallel.code).toBe(1);
    expect(verdicts(JSON.parse(parallel.stdout) as SuiteJson)).toEqual(verdicts(JSON.parse(reference.stdout) as SuiteJson));
    expect(verdicts(JSON.parse(reference.stdout) as SuiteJson)).toEqual([
      ["f0.flow.yaml", "passed"],
      ["f1.flow.yaml", "passed"],
      ["f2.flow.yaml", "passed"],
      ["f3.flow.yaml", "failed"],
      ["f4.flow.yaml", "passed"],
    ]);
  });

  test("--shard 1/3..3/3 split the suite exactly once and merge equals the unsharded run", async () => {
    const whole = JSON.parse((await serial()).stdout) as SuiteJson;
    const dirs: string[] = [];
    const seen: string[] = [];
    for (const i of [1, 2, 3]) {
      const r = await runCli(["run", ".", "--json", "--recording-detail", "off", "--shard", `${i}/3`], { cwd: p.dir, env: BOUNDED });
      const j = JSON.parse(r.stdout) as SuiteJson;
      seen.push(...j.flows.map((f) => f.spec));
      dirs.push(j.run_dir);
    }
    expect(seen.sort()).toEqual(whole.flows.map((f) => f.spec).sort());
    const merged = await runCli(["merge", ...dirs, "--json"], { cwd: p.dir });
    expect(merged.code).toBe(1);
    const m = JSON.parse(merged.stdout) as { flows: Array<{ flow: string; status: string }>; record_path: string; junit_path: string };
    const outcome = { pass: "passed", fail: "failed" } as Record<string, string>;
    expect(m.flows.map((f) => [f.flow, outcome[f.status]])).toEqual(verdicts(whole));
    expect(readFileSync(m.junit_path, "utf8").match(/<testsuite /g)?.length).toBe(5);
    // The merged record is the latest run: audit reads it.
    const audit = await runCli(["audit", ".", "--json"], { cwd: p.dir });
    expect(audit.code).toBe(0);
    expect((JSON.parse(audit.stdout) as { run: string }).run).toBe(JSON.parse(readFileSync(m.record_path, "utf8")).run_id);
    const bad = await runCli(["run", ".", "--shard", "4/3"], { cwd: p.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--shard must be i/n");
  });

  test("killing Chromium mid-suite errors the running flow; the rest run and the report is written", async () => {
    const k = tmpProject("flowproof-kill-");
    try {
      let slow = false;
      server.setRoute(
        "/slow.html",
        () =>
          new Response(
            `<!doctype html><title>Slow</title><p id="s"></p><script>setTimeout(() => { document.getElementById("s").textContent = "done"; }, ${slow ? 60_000 : 0});</script>`,
            { headers: { "content-type": "text/html" } },
          ),
      );
      for (const [name, page, step] of [
        ["a", "greeter.html", "assert: page shows Greet"],
        ["b", "slow.html", "assert: page shows done within 50s"],
        ["c", "greeter.html", "assert: page shows Greet"],
      ] as const) {
        const spec = k.write(`${name}.flow.yaml`, flowYaml(`Flow ${name}`, `${server.url}/${page}`, [step]));
        const r = await record({ spec, author: "rules", env: {}, recordingDetail: "off" });
        expect(r.error).toBeUndefined();
      }
      slow = true;
      const env: Record<string, string> = {};
      for (const [key, v] of Object.entries({ ...process.env, NO_COLOR: "1" })) if (v !== undefined) env[key] = v;
      const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src/cli/main.ts"), "run", ".", "--json"], { cwd: k.dir, env, stdout: "pipe", stderr: "pipe" });
      await server.waitForRequest("/slow.html");
      await Bun.sleep(300);
      // The browser is the CLI's own child process: kill exactly that pid.
      const children = Bun.spawnSync(["pgrep", "-P", String(proc.pid)])
        .stdout.toString()
        .trim()
        .split("\n")
        .filter(Boolean)
        .map(Number);
      expect(children.length).toBeGreaterThan(0);
      for (const pid of children) process.kill(pid, "SIGKILL");
      const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
      expect(code).toBe(2);
      const j = JSON.parse(stdout) as SuiteJson;
      expect(verdicts(j)).toEqual([
        ["a.flow.yaml", "passed"],
        ["b.flow.yaml", "errored"],
        ["c.flow.yaml", "passed"],
      ]);
      expect(existsSync(j.record_path)).toBe(true);
      expect(existsSync(join(k.dir, ".flowproof", "suite-junit.xml"))).toBe(true);
    } finally {
      k.remove();
    }
  });
});
