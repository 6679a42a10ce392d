// Verdicts that can be trusted, through the real CLI in real Chromium against local pages: a
// trace from another flow never replays and an edited flow's replay is stale, never a plain
// pass; a missing `${VAR}` is a configuration error (exit 2), never a failure of the app;
// `validate` warns about the unset variables it can see.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { record } from "../../src/commands/record.ts";
import { startScriptedModel, type ScriptedModel } from "../support/model-server.ts";
import { runTool } from "../../src/mcp/tools.ts";
import { Flow } from "../../src/index.ts";

let server: TestServer;
let model: ScriptedModel;
const projects: TmpProject[] = [];

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  model = await startScriptedModel();
});
afterAll(() => {
  server.stop();
  model.stop();
  for (const p of projects) p.remove();
});

function project(): TmpProject {
  const p = tmpProject("flowproof-trust-");
  projects.push(p);
  return p;
}

async function recorded(p: TmpProject, rel: string, text: string, env: Record<string, string> = {}): Promise<string> {
  const spec = p.write(rel, text);
  const r = await record({ spec, author: "rules", env, recordingDetail: "off" });
  expect(r.error).toBeUndefined();
  expect(r.ok).toBe(true);
  return spec;
}

const greet = (name: string, who: string) =>
  flowYaml(name, `${server.url}/greeter.html`, [
    `rules: Type ${who} into the "Your name" field`,
    'rules: Press the "Greet" button',
    `assert: page shows Hello, ${who}!`,
  ]);

interface SuiteJson {
  flows: Array<{
    spec: string;
    outcome: string;
    reason?: string;
    attempts: number;
    report_path: string | null;
    report: { passed: boolean; stale?: { trace_hash: string; flow_hash: string }; steps: Array<{ status: string; detail?: string }> };
  }>;
  passed: number;
  failed: number;
  skipped: number;
  errored: number;
  stale: number;
  record_path: string;
  run_dir: string;
  junit_path: string;
}

describe("a trace must belong to the flow it replays", () => {
  test("a trace recorded from another flow is a load error (exit 2) naming both", async () => {
    const p = project();
    const greetSpec = await recorded(p, "greet.flow.yaml", greet("Greet a visitor", "Ada"));
    await recorded(
      p,
      "navigation.flow.yaml",
      flowYaml("Navigation", `${server.url}/nav.html`, ['rules: Click "Go to page 2"', "assert: page shows Second page"]),
    );
    const res = await runCli(["run", greetSpec, "-t", "navigation.trace.jsonl"], { cwd: p.dir });
    expect(res.code).toBe(2);
    expect(res.stdout).not.toContain("PASS");
    expect(res.stderr).toContain(
      'navigation.trace.jsonl was recorded from the flow "Navigation" (navigation.flow.yaml), not from "Greet a visitor" (greet.flow.yaml)',
    );
    expect(res.stderr).toContain("flowproof record greet.flow.yaml");
    // The same name in another file is another flow too.
    p.write("copy/greet.flow.yaml", p.read("greet.flow.yaml"));
    const copy = await runCli(["run", "copy/greet.flow.yaml", "-t", "greet.trace.jsonl", "--json"], { cwd: p.dir });
    expect(copy.code).toBe(2);
    expect(copy.stdout).toContain('was recorded from the flow \\"Greet a visitor\\" (greet.flow.yaml), not from \\"Greet a visitor\\" (copy/greet.flow.yaml)');
  });

  test("a flow edited since its trace was recorded is stale in result.json, the suite JSON, junit and the run record (exit 2)", async () => {
    const p = project();
    const spec = await recorded(p, "greet.flow.yaml", greet("Greet a visitor", "Ada"));
    // Edited after recording: the assertion no longer says what the trace checks.
    p.write("greet.flow.yaml", p.read("greet.flow.yaml").replace("assert: page shows Hello, Ada!", "assert: page shows Goodbye, Ada!"));
    const single = await runCli(["run", spec], { cwd: p.dir });
    expect(single.code).toBe(2);
    expect(single.stdout).toMatch(/^STALE: Greet a visitor /m);
    expect(single.stdout).not.toMatch(/^PASS/m);
    expect(single.stderr).toContain("error: greet.flow.yaml changed since greet.trace.jsonl was recorded: the trace is stale");
    expect(single.stderr).toContain("hint: re-record the trace: flowproof record greet.flow.yaml");
    const result = JSON.parse(readFileSync(join(p.dir, single.stdout.match(/^result: (.*)$/m)![1]!), "utf8")) as SuiteJson["flows"][number]["report"];
    expect(result.passed).toBe(false);
    expect(result.stale!.trace_hash).not.toBe(result.stale!.flow_hash);
    expect(readFileSync(join(p.dir, single.stdout.match(/^result: (.*)$/m)![1]!.replace("result.json", "junit.xml")), "utf8")).toContain(
      '<testcase classname="Greet a visitor" name="stale trace" time="0">\n      <error type="stale"',
    );

    const suite = await runCli(["run", ".", "--retries", "2", "--json"], { cwd: p.dir });
    expect(suite.code).toBe(2);
    const json = JSON.parse(suite.stdout) as SuiteJson;
    expect([json.passed, json.failed, json.errored, json.stale]).toEqual([0, 0, 0, 1]);
    expect(json.flows[0]!.outcome).toBe("stale");
    expect(json.flows[0]!.attempts).toBe(1);
    expect(json.flows[0]!.reason).toContain("the trace is stale");
    expect(readFileSync(json.junit_path, "utf8")).toContain('<error type="stale"');
    const runRecord = JSON.parse(readFileSync(json.record_path, "utf8")) as { flows: Array<{ status: string }> };
    expect(runRecord.flows[0]!.status).toBe("stale");
    const human = await runCli(["run", "."], { cwd: p.dir });
    expect(human.code).toBe(2);
    expect(human.stdout).toContain("[STALE] Greet a visitor: greet.flow.yaml changed since greet.trace.jsonl was recorded");
    expect(human.stdout).toMatch(/^FAIL: 0\/1 flows passed, 1 stale/m);

    // Re-recording makes it current again.
    await recorded(p, "greet.flow.yaml", greet("Greet a visitor", "Ada").replace("Hello, Ada!", "Hello, Ada"));
    expect((await runCli(["run", spec], { cwd: p.dir })).code).toBe(0);
  });
});

describe("an unset ${VAR} in a step is a configuration error", () => {
  test("run exits 2 with the step errored, never retried; a suite counts it errored", async () => {
    const p = project();
    const spec = await recorded(p, "who.flow.yaml", greet("Who", "${TRUST_WHO}"), { TRUST_WHO: "Ada" });
    const ok = await runCli(["run", spec], { cwd: p.dir, env: { TRUST_WHO: "Ada" } });
    expect(ok.code).toBe(0);

    const single = await runCli(["run", spec, "--retries", "2"], { cwd: p.dir, env: { TRUST_WHO: undefined } });
    expect(single.code).toBe(2);
    expect(single.stdout).toContain('[ERROR] s0001 Type ${TRUST_WHO} into the "Your name" field — ${TRUST_WHO} is not set');
    expect(single.stdout).toMatch(/^ERROR: Who /m);
    expect(single.stderr).not.toContain("retry");
    const result = JSON.parse(readFileSync(join(p.dir, single.stdout.match(/^result: (.*)$/m)![1]!), "utf8")) as {
      passed: boolean;
      steps: Array<{ status: string }>;
    };
    expect(result.passed).toBe(false);
    expect(result.steps[0]!.status).toBe("errored");

    const suite = await runCli(["run", ".", "--retries", "2", "--json"], { cwd: p.dir, env: { TRUST_WHO: undefined } });
    expect(suite.code).toBe(2);
    const json = JSON.parse(suite.stdout) as SuiteJson;
    expect(json.errored).toBe(1);
    expect(json.failed).toBe(0);
    expect(json.flows[0]!.outcome).toBe("errored");
    expect(json.flows[0]!.attempts).toBe(1);
    expect(json.flows[0]!.reason).toContain("${TRUST_WHO} is not set");
  });

  test("validate warns about the unset variables it can see and still exits 0", async () => {
    const p = project();
    const spec = p.write(
      "vars.flow.yaml",
      flowYaml("Vars", "${TRUST_BASE}/greeter.html", [
        'rules: Type ${TRUST_USER} into the "Your name" field',
        'rules: Type ${TRUST_SET} into the "Your name" field',
        'rules: Press the "Greet" button',
      ]),
    );
    const res = await runCli(["validate", spec], { cwd: p.dir, env: { TRUST_BASE: undefined, TRUST_USER: undefined, TRUST_SET: "x" } });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("OK: ");
    expect(res.stderr).toContain("vars.flow.yaml:3:6: warning: ${TRUST_BASE} is not set");
    expect(res.stderr).toContain("vars.flow.yaml:5:17: warning: ${TRUST_USER} is not set");
    expect(res.stderr).not.toContain("TRUST_SET");
    const json = await runCli(["validate", spec, "--json"], { cwd: p.dir, env: { TRUST_BASE: undefined, TRUST_USER: undefined, TRUST_SET: "x" } });
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as { valid: boolean; warnings: Array<{ variable: string; line: number }> };
    expect(doc.valid).toBe(true);
    expect(doc.warnings.map((w) => w.variable)).toEqual(["TRUST_BASE", "TRUST_USER"]);
  });
});

describe("a flow replays as it was recorded, on every path", () => {
  const GREET = "Greet Ada politely";
  const PLUGIN = `import { defineAssertion } from "flowproof";

export const plugin = defineAssertion<{ value: string }>({
  key: "assert_marker",
  schema: { type: "object", required: ["value"], additionalProperties: false, properties: { value: { type: "string" } } },
  run: async (args) => (args.value === "ok" ? { pass: true } : { pass: false, expected: "ok", actual: args.value }),
});
`;

  test("a model-authored flow and a flow using a project plugin pass alone, in a suite, with workers, in shards, with audit, over MCP and through the library", async () => {
    const p = project();
    p.write("package.json", "{}");
    p.write(".flowproof/plugins/marker.ts", PLUGIN);
    model.script(
      GREET,
      JSON.stringify([
        { action: "type_text", target: "css:#name", text: "Ada" },
        { action: "click", target: "css:#greet" },
      ]),
    );
    // A plain step the rules grammar cannot read: only the model can author it.
    const authored = p.write(
      "a-authored.flow.yaml",
      `${flowYaml("Authored", `${server.url}/greeter.html`, [GREET, "assert: page shows Hello, Ada!"])}control:\n  id: greet.model\n`,
    );
    const rec = await runCli(["record", authored], { cwd: p.dir, env: model.env() });
    expect(rec.stderr).toContain(`[AUTHOR llm] 1: ${GREET}`);
    expect(rec.code).toBe(0);
    const plugged = p.write(
      "b-plugin.flow.yaml",
      `${flowYaml("Plugged", `${server.url}/greeter.html`, ['rules: Type Bo into the "Your name" field'])}  - assert_marker:\n      value: ok\n`,
    );
    const recPlugin = await runCli(["record", plugged, "--author", "rules"], { cwd: p.dir });
    expect(recPlugin.code).toBe(0);
    const requests = model.requests.length;

    // Replay: no model configured, never re-reading the plain step as rules text.
    for (const spec of ["b-plugin.flow.yaml", "a-authored.flow.yaml"]) {
      const single = await runCli(["run", spec], { cwd: p.dir });
      expect(single.stderr).not.toContain("could not write the run record");
      expect(single.stdout).toMatch(/^PASS: /m);
      expect(single.code).toBe(0);
    }
    // The latest run record is the authored flow's, with its control.
    const audit = await runCli(["audit", ".", "--json"], { cwd: p.dir });
    expect(audit.code).toBe(0);
    expect((JSON.parse(audit.stdout) as { controls: Array<{ id: string; verdict: string }> }).controls).toEqual([
      expect.objectContaining({ id: "greet.model", verdict: "pass" }),
    ]);

    for (const args of [
      ["run", "."],
      ["run", ".", "--workers", "2"],
      ["run", ".", "--shard", "1/2"],
      ["run", ".", "--shard", "2/2"],
    ]) {
      const res = await runCli([...args, "--json"], { cwd: p.dir });
      const json = JSON.parse(res.stdout) as SuiteJson;
      expect(json.flows.map((f) => [f.spec, f.outcome, f.reason])).toEqual(json.flows.map((f) => [f.spec, "passed", undefined]));
      expect(res.stdout + res.stderr).not.toContain("matches no rules step");
      expect(res.code).toBe(0);
    }
    const suiteAudit = await runCli(["audit", "."], { cwd: p.dir });
    expect(suiteAudit.code).toBe(0);

    // MCP's flowproof_run and the library's Flow.run take the same path.
    const cwd = process.cwd();
    process.chdir(p.dir);
    try {
      const viaMcp = (await runTool.handle({ spec: authored }, { progress: () => undefined })) as { report: { passed: boolean }; warnings: string[] };
      expect(viaMcp.report.passed).toBe(true);
      expect(viaMcp.warnings).toEqual([]);
      const logs: string[] = [];
      const viaLibrary = await new Flow(authored).run({ log: (l) => logs.push(l) });
      expect(viaLibrary.report.passed).toBe(true);
      expect(viaLibrary.record_path).toBeDefined();
      expect(logs.join("\n")).not.toContain("could not write the run record");
    } finally {
      process.chdir(cwd);
    }
    expect(model.requests.length).toBe(requests);
  });
});

describe("merge takes every shard of one suite exactly once", () => {
  test("refuses a missing, duplicate or mismatched shard and an unsharded run (exit 2); an empty shard counts; -o says where", async () => {
    const p = project();
    await recorded(p, "a.flow.yaml", greet("Greet A", "Ada"));
    await recorded(p, "b.flow.yaml", greet("Greet B", "Bo"));
    const runDir = async (...args: string[]) => {
      const r = await runCli(["run", ".", "--json", "--recording-detail", "off", ...args], { cwd: p.dir });
      expect(r.code).toBe(0);
      return (JSON.parse(r.stdout) as SuiteJson).run_dir;
    };
    const whole = await runDir();
    const one = await runDir("--shard", "1/2");
    const two = await runDir("--shard", "2/2");
    const thirdOf = await runDir("--shard", "1/3");
    const emptyThird = await runDir("--shard", "3/3");
    const merge = (...dirs: string[]) => runCli(["merge", ...dirs], { cwd: p.dir });

    const onlyTwo = await merge(two);
    expect(onlyTwo.code).toBe(2);
    expect(onlyTwo.stdout).not.toContain("PASS");
    expect(onlyTwo.stderr).toContain("shard 1/2 is missing: a merged run needs every shard 1..2 exactly once");
    const twice = await merge(one, two, two);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/shard 2\/2 is given twice: /);
    const mixed = await merge(one, emptyThird);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/is shard 1\/2 but .* is shard 3\/3: the shards were cut differently/);
    const unsharded = await merge(whole, two);
    expect(unsharded.code).toBe(2);
    expect(unsharded.stderr).toContain("is not the run of a shard");
    const onlyEmpty = await merge(emptyThird);
    expect(onlyEmpty.code).toBe(2);
    expect(onlyEmpty.stderr).toContain("shard 1/3, shard 2/3 are missing");

    const ok = await merge(two, one);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("PASS: 2/2 flows passed (merged 2 runs)");
    // An empty shard is a shard: 1/3 + 2/3 + 3/3 is complete.
    const secondThird = await runDir("--shard", "2/3");
    const thirds = await merge(thirdOf, secondThird, emptyThird);
    expect(thirds.code).toBe(0);
    expect(thirds.stdout).toContain("PASS: 2/2 flows passed (merged 3 runs)");

    // Run directories downloaded elsewhere (CI artifacts) need -o; the merged run goes there.
    const art = project();
    cpSync(one, join(art.dir, "shard-1"), { recursive: true });
    cpSync(two, join(art.dir, "shard-2"), { recursive: true });
    const noOut = await runCli(["merge", "shard-1", "shard-2"], { cwd: art.dir });
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain("say where to write the merged run: shard-1 is not <suite>/.flowproof/runs/<run-id>");
    const withOut = await runCli(["merge", "shard-1", "shard-2", "-o", "merged", "--json"], { cwd: art.dir });
    expect(withOut.code).toBe(0);
    const out = JSON.parse(withOut.stdout) as { record_path: string; junit_path: string };
    expect(out.record_path.startsWith(join(art.dir, "merged", ".flowproof", "runs"))).toBe(true);
    expect(existsSync(join(art.dir, "merged", ".flowproof", "suite-junit.xml"))).toBe(true);
    expect(art.files().filter((f) => f.startsWith(".flowproof"))).toEqual([]);
  });
});

describe("a navigation that never finishes", () => {
  test("fails the step that started it, naming the navigation, instead of passing", async () => {
    const p = project();
    // A server that accepts the request and never answers (held until the test ends).
    const held: Socket[] = [];
    // `/report.html` is never answered; `/partial.html` sends its headers and part of the page, never the rest.
    const silent = createServer((socket) => {
      held.push(socket);
      socket.once("data", (request) => {
        if (request.toString().startsWith("GET /partial.html"))
          socket.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<!doctype html><title>Report</title><h1>Report is loading");
      });
    });
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", () => r()));
    const never = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/report.html`;
    const partial = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/partial.html`;
    let target = never;
    try {
      let hang = false;
      server.setRoute(
        "/trust-start.html",
        () =>
          new Response(`<!doctype html><title>Start</title><a href="${hang ? target : "/trust-report.html"}">Open report</a>`, {
            headers: { "content-type": "text/html" },
          }),
      );
      server.setRoute(
        "/trust-report.html",
        () => new Response("<!doctype html><title>Report</title><h1>Report</h1>", { headers: { "content-type": "text/html" } }),
      );
      const spec = await recorded(p, "report.flow.yaml", flowYaml("Report", `${server.url}/trust-start.html`, ['rules: Click "Open report"']));
      expect((await runCli(["run", spec], { cwd: p.dir })).code).toBe(0);
      hang = true;
      // The navigation bound, shortened (default 30 s): the verdict, not the wait, is under test.
      const bounded = { cwd: p.dir, env: { FLOWPROOF_NAVIGATION_TIMEOUT_MS: "4000" } };
      const res = await runCli(["run", spec], bounded);
      expect(res.stdout).toContain(`[FAIL] s0001 Click "Open report" — `);
      expect(res.stdout).toContain(`the navigation to ${never} did not finish loading within 4 s`);
      expect(res.stdout).toMatch(/^FAIL: Report /m);
      expect(res.code).toBe(1);
      // A page that starts arriving and never finishes fails the same way.
      target = partial;
      const slow = await runCli(["run", spec], bounded);
      expect(slow.stdout).toContain(`the navigation to ${partial} did not finish loading within 4 s`);
      expect(slow.code).toBe(1);
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
    }
  });
});
