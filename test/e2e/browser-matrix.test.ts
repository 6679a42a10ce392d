// A suite's `browsers: [chromium, firefox]` matrix through the real CLI: two web flows recorded on
// Chromium replay in both browsers, four results each named by browser in the console, the junit,
// every result.json, the run record, the suite report and `run <dir> --json`; a page that sniffs
// the user agent fails in Firefox only, and the exit code says so. `--browser` narrows the matrix
// to one browser, with the keys of a suite without one; a flow that names its own browser runs in
// it only.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunReport } from "../../src/report/schema.ts";
import type { RunRecord } from "../../src/report/run-record.ts";
import { runCli } from "../support/cli.ts";
import { requireFirefox } from "../support/firefox.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";

const html = (body: string) =>
  new Response(`<!doctype html><html><head><title>Matrix</title></head><body>${body}</body></html>`, {
    headers: { "content-type": "text/html; charset=utf-8" },
  });
/** Greets everyone. */
const HELLO = `<button id="go">Greet</button><p id="out">Waiting</p>
<script>document.getElementById("go").addEventListener("click", () => { document.getElementById("out").textContent = "Hello, world!"; });</script>`;
/** Turns Firefox away: the kind of user-agent sniffing a browser matrix exists to catch. */
const SNIFF = `<p id="out">checking</p>
<script>document.getElementById("out").textContent = navigator.userAgent.includes("Firefox") ? "Unsupported browser" : "Welcome in";</script>`;

let server: TestServer;
const projects: TmpProject[] = [];
beforeAll(async () => {
  requireFirefox();
  server = await startServer();
  server.setRoute("/hello.html", () => html(HELLO));
  server.setRoute("/sniff.html", () => html(SNIFF));
});
afterAll(() => {
  server?.stop();
  for (const p of projects) p.remove();
});

const flow = (name: string, page: string, steps: readonly string[], extra = "") =>
  [`name: ${name}`, "app: web", extra, `url: ${server.url}/${page}`, "steps:", ...steps.map((s) => `  - ${s}`), ""].filter((l) => l !== "").join("\n") + "\n";
const HELLO_FLOW = (extra = "") => flow("Hello", "hello.html", ['rules: Click "Greet"', "assert: page shows Hello, world!"], extra);
const SNIFF_FLOW = () => flow("Sniff", "sniff.html", ["assert: page shows Welcome in"]);

/** A suite of the given flows, each recorded (on Chromium) before the suite.yaml names the matrix. */
async function suite(flows: Readonly<Record<string, string>>, suiteYaml: string): Promise<TmpProject> {
  const p = tmpProject();
  projects.push(p);
  for (const [file, text] of Object.entries(flows)) {
    const rec = await runCli(["record", p.write(file, text)], { cwd: p.dir });
    if (rec.code !== 0) throw new Error(`recording ${file} failed (${rec.code}): ${rec.stderr}`);
  }
  p.write("suite.yaml", suiteYaml);
  return p;
}

const onlyRun = (p: TmpProject): string => {
  const runs = join(p.dir, ".flowproof", "runs");
  const ids = readdirSync(runs).filter((d) => !d.startsWith("."));
  return join(runs, ids.sort().at(-1)!);
};

describe("a suite's browsers matrix", () => {
  test("runs every web flow in Chromium and in Firefox: four results named by browser, a Firefox-only failure fails the suite", async () => {
    const p = await suite({ "hello.flow.yaml": HELLO_FLOW(), "sniff.flow.yaml": SNIFF_FLOW() }, "browsers: [chromium, firefox]\n");
    const r = await runCli(["run", "."], { cwd: p.dir });
    expect(r.code).toBe(1);
    // The console: one line per flow and browser.
    for (const line of ["[PASS] Hello [chromium]", "[PASS] Hello [firefox]", "[PASS] Sniff [chromium]", "[FAIL] Sniff [firefox]"])
      expect(r.stdout).toContain(line);
    expect(r.stdout.match(/^\[(PASS|FAIL)\] /gm)?.length).toBe(4);

    const runDir = onlyRun(p);
    // The run record: four flows keyed by file and browser, in order, each with its result.json.
    const record = JSON.parse(readFileSync(join(runDir, "report.json"), "utf8")) as RunRecord;
    expect(record.flows.map((f) => [f.flow, f.browser, f.status, f.name])).toEqual([
      ["hello.flow.yaml", "chromium", "pass", "Hello [chromium]"],
      ["hello.flow.yaml", "firefox", "pass", "Hello [firefox]"],
      ["sniff.flow.yaml", "chromium", "pass", "Sniff [chromium]"],
      ["sniff.flow.yaml", "firefox", "fail", "Sniff [firefox]"],
    ]);
    expect(record.flows.map((f) => f.result)).toEqual([
      "matrix/chromium/flows/hello/result.json",
      "matrix/firefox/flows/hello/result.json",
      "matrix/chromium/flows/sniff/result.json",
      "matrix/firefox/flows/sniff/result.json",
    ]);
    const sniffFx = JSON.parse(readFileSync(join(runDir, "matrix/firefox/flows/sniff/result.json"), "utf8")) as RunReport;
    expect(sniffFx.name).toBe("Sniff [firefox]");
    expect(sniffFx.browser).toBe("firefox");
    expect(sniffFx.outcome).toBe("failed");
    expect(JSON.stringify(sniffFx.steps)).toContain("Unsupported browser");
    expect((JSON.parse(readFileSync(join(runDir, "matrix/chromium/flows/sniff/result.json"), "utf8")) as RunReport).outcome).toBe("passed");
    // The junit: a test suite per flow and browser, the failure in Firefox's.
    const junit = readFileSync(join(runDir, "junit.xml"), "utf8");
    for (const name of ["Hello [chromium]", "Hello [firefox]", "Sniff [chromium]"])
      expect(junit).toMatch(new RegExp(`<testsuite name="${name.replace(/[[\]]/g, "\\$&")}"[^>]* failures="0"`));
    expect(junit).toMatch(/<testsuite name="Sniff \[firefox\]"[^>]* failures="1"/);
    expect(readFileSync(join(p.dir, ".flowproof", "suite-junit.xml"), "utf8")).toBe(junit);
    // The suite report: a row per flow and browser, linking each browser's own report.
    const report = readFileSync(join(runDir, "report.html"), "utf8");
    for (const name of ["Hello [chromium]", "Hello [firefox]", "Sniff [chromium]", "Sniff [firefox]"]) expect(report).toContain(name);
    expect(report).toContain('href="matrix/firefox/flows/sniff/report.html"');
    // No run folder keyed by the flow alone.
    expect(existsSync(join(runDir, "flows"))).toBe(false);

    // `run <dir> --json` (the MCP run tool's document too): four entries, each with its browser.
    const j = await runCli(["run", ".", "--json"], { cwd: p.dir });
    expect(j.code).toBe(1);
    const doc = JSON.parse(j.stdout) as { flows: { spec: string; browser?: string; outcome: string; report: RunReport }[]; failed: number; passed: number };
    expect(doc.flows.map((f) => [f.spec, f.browser, f.outcome, f.report.name])).toEqual([
      ["hello.flow.yaml", "chromium", "passed", "Hello [chromium]"],
      ["hello.flow.yaml", "firefox", "passed", "Hello [firefox]"],
      ["sniff.flow.yaml", "chromium", "passed", "Sniff [chromium]"],
      ["sniff.flow.yaml", "firefox", "failed", "Sniff [firefox]"],
    ]);
    expect([doc.passed, doc.failed]).toEqual([3, 1]);
  });

  test("--browser runs the suite in that browser only, with the keys of a suite without a matrix; a flow naming its own browser runs in it only", async () => {
    const p = await suite(
      { "hello.flow.yaml": HELLO_FLOW(), "pinned.flow.yaml": HELLO_FLOW("browser: {name: chromium}").replace("name: Hello", "name: Pinned") },
      'browsers: [chromium, firefox]\nbefore_each: echo "${FLOWPROOF_BROWSER:-none}" >> browsers.log\n',
    );
    const all = await runCli(["run", ".", "--json"], { cwd: p.dir });
    expect(all.code).toBe(0);
    const doc = JSON.parse(all.stdout) as { flows: { spec: string; browser?: string; outcome: string }[] };
    expect(doc.flows.map((f) => [f.spec, f.browser, f.outcome])).toEqual([
      ["hello.flow.yaml", "chromium", "passed"],
      ["hello.flow.yaml", "firefox", "passed"],
      ["pinned.flow.yaml", "chromium", "passed"],
    ]);

    const one = await runCli(["run", ".", "--browser", "firefox", "--json"], { cwd: p.dir });
    expect(one.code).toBe(0);
    const narrowed = JSON.parse(one.stdout) as { run_dir: string; flows: { spec: string; browser?: string; report: RunReport }[] };
    expect(narrowed.flows.map((f) => [f.spec, f.browser, f.report.name, f.report.browser])).toEqual([
      ["hello.flow.yaml", undefined, "Hello", undefined],
      ["pinned.flow.yaml", undefined, "Pinned", undefined],
    ]);
    // The hooks see each run's browser.
    expect(p.read("browsers.log").trim().split("\n")).toEqual(["chromium", "firefox", "chromium", "firefox", "firefox"]);
    const runDir = narrowed.run_dir.startsWith("/") ? narrowed.run_dir : join(p.dir, narrowed.run_dir);
    expect(existsSync(join(runDir, "flows", "hello", "result.json"))).toBe(true);
    expect(existsSync(join(runDir, "matrix"))).toBe(false);
  });

  test("--shard deals the runs of each flow in each browser; merge joins them keyed by flow and browser", async () => {
    const p = await suite({ "hello.flow.yaml": HELLO_FLOW(), "sniff.flow.yaml": SNIFF_FLOW() }, "browsers: [chromium, firefox]\n");
    const shards: { run_dir: string; flows: { spec: string; browser?: string }[] }[] = [];
    for (const i of [1, 2]) {
      const r = await runCli(["run", ".", "--shard", `${i}/2`, "--json"], { cwd: p.dir });
      shards.push(JSON.parse(r.stdout));
    }
    // Round-robin over the four runs: each shard holds one browser of each flow.
    expect(shards.map((s) => s.flows.map((f) => `${f.spec} ${f.browser}`))).toEqual([
      ["hello.flow.yaml chromium", "sniff.flow.yaml chromium"],
      ["hello.flow.yaml firefox", "sniff.flow.yaml firefox"],
    ]);
    const dirs = shards.map((s) => (s.run_dir.startsWith("/") ? s.run_dir : join(p.dir, s.run_dir)));
    const records = dirs.map((d) => JSON.parse(readFileSync(join(d, "report.json"), "utf8")) as RunRecord);
    expect(records.map((r) => r.shard?.flows)).toEqual([4, 4]);
    expect(records[0]!.shard?.plan).toBe(records[1]!.shard?.plan);
    const m = await runCli(["merge", ...dirs, "--json"], { cwd: p.dir });
    expect(m.code).toBe(1);
    const merged = JSON.parse(m.stdout) as { record_path: string };
    const record = JSON.parse(readFileSync(merged.record_path.startsWith("/") ? merged.record_path : join(p.dir, merged.record_path), "utf8")) as RunRecord;
    expect(record.flows.map((f) => [f.flow, f.browser, f.status])).toEqual([
      ["hello.flow.yaml", "chromium", "pass"],
      ["hello.flow.yaml", "firefox", "pass"],
      ["sniff.flow.yaml", "chromium", "pass"],
      ["sniff.flow.yaml", "firefox", "fail"],
    ]);
  });

  test("--record-missing records a missing trace once, in the first browser listed, and replays it in each", async () => {
    const p = await suite({}, "browsers: [firefox, chromium]\n");
    p.write("hello.flow.yaml", HELLO_FLOW());
    const r = await runCli(["run", ".", "--record-missing"], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(`${r.stdout}${r.stderr}`.match(/^\[RECORD\] .*$/gm)).toEqual(["[RECORD] Hello [firefox]"]);
    for (const line of ["[PASS] Hello [firefox]", "[PASS] Hello [chromium]"]) expect(r.stdout).toContain(line);
    const header = JSON.parse(p.read("hello.trace.jsonl").split("\n")[0]!) as { app: { engine?: string } };
    expect(header.app.engine).toBe("firefox");
  });

  test("an unknown browser in the list is exit 2 at its line in suite.yaml", async () => {
    const p = await suite({}, "browsers: [chromium, safari]\n");
    p.write("x.flow.yaml", HELLO_FLOW());
    const r = await runCli(["run", "."], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("suite.yaml:1:");
    expect(r.stderr).toContain('"safari" is not one of the `browsers` flowproof runs');
  });
});
