// `flowproof mcp` as an agent drives it, through the SDK's own client over stdio in real Chromium:
// every tool with the options it takes, structuredContent checked against schema/, progress per
// flow of a 3-flow suite in order, a cancelled suite stopping with no browser left behind (by PID),
// and the run's evidence read back as flowproof://runs/<id>/… resources.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { REPO_ROOT } from "../support/cli.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { descendants, isAlive } from "../support/processes.ts";

let server: TestServer;
let project: TmpProject;
let client: Client;
let transport: StdioClientTransport;
let showsDone = true;

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const schema = (name: string) => ajv.compile(JSON.parse(readFileSync(join(REPO_ROOT, "schema", name), "utf8")) as object);
const validResult = schema("result.schema.json");
const validRecord = schema("run-record.schema.json");
function expectValid(validate: ReturnType<typeof schema>, value: unknown): void {
  if (!validate(value)) throw new Error(`does not match its schema: ${ajv.errorsText(validate.errors)}`);
}

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  server.setRoute(
    "/slow",
    () =>
      new Response(`<!doctype html><button onclick="${showsDone ? "document.getElementById('out').textContent = 'Done'" : ""}">Go</button><p id="out"></p>`, {
        headers: { "content-type": "text/html" },
      }),
  );
  project = tmpProject();
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: "1" })) if (v !== undefined) env[k] = v;
  client = new Client({ name: "flowproof-agent-test", version: "1.0.0" });
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(REPO_ROOT, "src/cli/main.ts"), "mcp"],
    cwd: project.dir,
    env,
    stderr: "ignore",
  });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  server?.stop();
  project?.remove();
});

type Result = { isError?: boolean; content: Array<{ type: string; text?: string; uri?: string }>; structuredContent?: Record<string, unknown> };
async function call(name: string, args: Record<string, unknown>, options: Parameters<Client["callTool"]>[2] = {}): Promise<Result> {
  // The SDK client validates structuredContent against the tool's outputSchema itself.
  const r = (await client.callTool({ name, arguments: args }, undefined, options)) as Result;
  if (r.isError) throw new Error(`${name} failed: ${r.content[0]?.text}`);
  expect(r.structuredContent).toEqual(JSON.parse(r.content[0]!.text!) as Record<string, unknown>);
  return r;
}

const counterFlow = (name: string) => flowYaml(name, `${server.url}/counter.html`, ['rules: Press the "Add" button', "assert: page shows 42"]);

describe("flowproof mcp for agents", () => {
  test("record, run, heal, get_trace, validate with the options they take; results match schema/", async () => {
    const spec = project.write("one/counter.flow.yaml", counterFlow("Counter"));
    const out = join(project.dir, "one", "kept.trace.jsonl");
    const rec = await call("flowproof_record", {
      spec,
      out,
      author: "rules",
      reuse: false,
      verify: true,
      recording_detail: "low",
      video: false,
      highlight_cursor: false,
    });
    expect(rec.structuredContent).toMatchObject({ ok: true, trace_path: out, verified: true });
    const reused = await call("flowproof_record", { spec, out, author: "rules", reuse: true });
    // Only plain steps are reused; `rules:` steps are authored again by the grammar.
    expect(reused.structuredContent).toMatchObject({ ok: true, reused_steps: 0, routing: [{ route: "rules" }, { route: "rules" }] });

    const steps: Array<{ progress: number; message?: string | undefined }> = [];
    const ran = await call(
      "flowproof_run",
      { spec, trace: out, retries: 1, recording_detail: "full", video: true, highlight_cursor: true },
      { onprogress: (p) => steps.push(p) },
    );
    // One progress notification per replayed step, in order.
    expect(steps.map((p) => p.message).filter((m) => /^step /.test(m ?? ""))).toEqual([
      'step 1/2: PASSED Press the "Add" button',
      "step 2/2: PASSED page shows 42",
    ]);
    expect(steps.map((p) => p.progress)).toEqual(steps.map((_, i) => i + 1));
    const doc = ran.structuredContent!;
    expectValid(validResult, doc["report"]);
    expect((doc["report"] as { passed: boolean; recording?: { gif?: string } }).passed).toBe(true);
    expect((doc["report"] as { recording?: { gif?: string } }).recording?.gif).toBeTruthy();
    expectValid(validResult, JSON.parse(readFileSync(doc["report_path"] as string, "utf8")));

    const trace = await call("flowproof_get_trace", { spec, trace: out });
    expect((trace.structuredContent!["steps"] as unknown[]).length).toBe(2);
    expect((await call("flowproof_validate", { spec })).structuredContent).toEqual({ valid: true, name: "Counter", app: "web", steps: 2 });
    const healed = await call("flowproof_heal", { spec, trace: out, author: "rules", apply: true });
    expect(healed.structuredContent).toMatchObject({ applied: false, report: { changed: false } });
  }, 150_000);

  test("a 3-flow suite reports progress per flow in order, with workers, retries and shards merged into one record", async () => {
    for (const n of ["a", "b", "c"]) project.write(`suite/${n}.flow.yaml`, counterFlow(`Flow ${n}`));
    for (const n of ["a", "b", "c"])
      expect(
        (await call("flowproof_record", { spec: join(project.dir, "suite", `${n}.flow.yaml`), author: "rules", recording_detail: "off" })).structuredContent![
          "ok"
        ],
      ).toBe(true);
    const dir = join(project.dir, "suite");
    const progress: Array<{ progress: number; message?: string | undefined }> = [];
    const suite = await call(
      "flowproof_run",
      { spec: dir, workers: 1, retries: 0, strict: true, recording_detail: "low" },
      { onprogress: (p) => progress.push(p) },
    );
    const doc = suite.structuredContent!;
    expect(doc).toMatchObject({ passed: 3, failed: 0, errored: 0 });
    for (const f of doc["flows"] as Array<{ report: unknown }>) expectValid(validResult, f.report);
    expectValid(validRecord, JSON.parse(readFileSync(doc["record_path"] as string, "utf8")));
    const perFlow = progress.filter((p) => /^flow \d: /.test(p.message ?? ""));
    expect(perFlow.map((p) => p.message)).toEqual(["flow 1: PASSED a.flow.yaml", "flow 2: PASSED b.flow.yaml", "flow 3: PASSED c.flow.yaml"]);
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));

    // The evidence, as resources: the result links report.html, and every file reads back.
    const links = suite.content.filter((c) => c.type === "resource_link").map((c) => c.uri);
    expect(links).toEqual([`flowproof://runs/${String(doc["run_id"])}/report.html`, `flowproof://runs/${String(doc["run_id"])}/report.json`]);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`flowproof://runs/${String(doc["run_id"])}/report.html`);
    const html = await client.readResource({ uri: links[0]! });
    expect((html.contents[0] as { text: string }).text).toContain("<html");
    const frame = resources.find((r) => r.uri.startsWith(`flowproof://runs/${String(doc["run_id"])}/`) && r.mimeType === "image/png");
    expect(frame).toBeDefined();
    expect(((await client.readResource({ uri: frame!.uri })).contents[0] as { blob: string }).blob.length).toBeGreaterThan(100);
    await expect(client.readResource({ uri: `flowproof://runs/${String(doc["run_id"])}/../../../../etc/passwd` })).rejects.toThrow("no run evidence at");

    // Shards of the same suite, then merged; audited by run id.
    const shards = [];
    for (const shard of ["1/2", "2/2"]) shards.push((await call("flowproof_run", { spec: dir, shard, workers: 2 })).structuredContent!);
    const merged = await call("flowproof_merge", { run_dirs: shards.map((s) => s["run_dir"]), out: dir });
    expect(merged.structuredContent).toMatchObject({ passed: 3, failed: 0 });
    const audit = await call("flowproof_audit", { dir, run: String(merged.structuredContent!["run_id"]) });
    expect(audit.structuredContent!["failed"]).toBe(false);
    const diff = await call("flowproof_audit", { dir, since: String(doc["run_id"]) });
    expect(diff.structuredContent!["regression"]).toBe(false);
  }, 240_000);

  test("cancelling a suite mid-run stops it, closes its browser and leaves the server serving", async () => {
    showsDone = true;
    const dir = join(project.dir, "slow");
    for (const n of ["1", "2", "3"]) {
      project.write(
        `slow/s${n}.flow.yaml`,
        `name: Slow ${n}\napp: web\nurl: ${server.url}/slow\nsteps:\n  - rules: Press the "Go" button\n  - assert: page shows Done within 60s\n`,
      );
      expect((await call("flowproof_record", { spec: join(dir, `s${n}.flow.yaml`), author: "rules", recording_detail: "off" })).structuredContent!["ok"]).toBe(
        true,
      );
    }
    showsDone = false;
    const pid = transport.pid!;
    const abort = new AbortController();
    const progress: string[] = [];
    const started = Date.now();
    const cancelled = client.callTool({ name: "flowproof_run", arguments: { spec: dir } }, undefined, {
      signal: abort.signal,
      onprogress: (p) => progress.push(p.message ?? ""),
    });
    let browsers: number[] = [];
    while (browsers.length === 0 && Date.now() - started < 30_000) {
      await Bun.sleep(200);
      browsers = descendants(pid).filter((p) => /chrom/i.test(readFileSync(`/proc/${p}/cmdline`, "utf8")));
    }
    expect(browsers.length).toBeGreaterThan(0);
    await Bun.sleep(1_000);
    abort.abort("enough");
    await expect(cancelled).rejects.toThrow();
    const until = Date.now() + 15_000;
    while (browsers.some(isAlive) && Date.now() < until) await Bun.sleep(200);
    expect(browsers.filter(isAlive)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(50_000);
    // What was written: the interrupted flow's result.json says why it stopped.
    const runs = join(dir, ".flowproof", "runs");
    let results: string[] = [];
    while (results.length === 0 && Date.now() < until) {
      results = existsSync(runs)
        ? readdirSync(runs, { recursive: true })
            .map(String)
            .filter((f) => f.endsWith("result.json"))
        : [];
      await Bun.sleep(200);
    }
    // The suite's remaining flows are marked interrupted rather than run: every flow has its result.json.
    while (results.length < 3 && Date.now() < until) {
      await Bun.sleep(200);
      results = readdirSync(runs, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith("result.json"));
    }
    const reports = results
      .map(
        (f) =>
          JSON.parse(readFileSync(join(runs, f), "utf8")) as {
            name: string;
            outcome: string;
            passed: boolean;
            steps: Array<{ status: string; detail?: string }>;
          },
      )
      .sort((a, b) => a.name.localeCompare(b.name));
    expect(reports.map((r) => [r.name, r.outcome])).toEqual([
      ["Slow 1", "interrupted"],
      ["Slow 2", "interrupted"],
      ["Slow 3", "interrupted"],
    ]);
    const first = reports[0]!;
    expect(first.passed).toBe(false);
    expect(JSON.stringify(first.steps)).toContain("the MCP client cancelled the call");
    // The later flows never ran a step.
    for (const r of reports.slice(1)) expect(r.steps.every((st) => st.status !== "passed")).toBe(true);
    // Other calls still run: the stop belonged to the cancelled call only.
    expect((await call("flowproof_validate", { spec: join(dir, "s1.flow.yaml") })).structuredContent!["valid"]).toBe(true);
    expect(isAlive(pid)).toBe(true);
  }, 180_000);
});
