// `flowproof mcp` through the MCP SDK's own client over stdio, in real Chromium: list the tools,
// record, run (passing and failing), read the trace, validate a bad flow.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { requireChromium } from "../../test/support/chromium.ts";
import { flowYaml, tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { REPO_ROOT, runCli } from "../../test/support/cli.ts";
import { callTool } from "./server.ts";
import { TOOLS } from "./tools.ts";

let server: TestServer;
let project: TmpProject;
let client: Client;

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  project = tmpProject();
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: "1" })) if (v !== undefined) env[k] = v;
  client = new Client({ name: "flowproof-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [join(REPO_ROOT, "src/cli/main.ts"), "mcp"], cwd: project.dir, env, stderr: "ignore" }),
  );
});
afterAll(async () => {
  await client?.close();
  server?.stop();
  project?.remove();
});

type ToolResult = { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: unknown };
async function call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; value: Record<string, unknown> }> {
  const r = (await client.callTool({ name, arguments: args })) as ToolResult;
  const value = JSON.parse(r.content[0]!.text) as Record<string, unknown>;
  // A result carries the same document as structuredContent and as text; an error result only as text.
  if (r.isError !== true) expect(r.structuredContent).toEqual(value);
  else expect(r.structuredContent).toBeUndefined();
  return { isError: r.isError === true, value };
}

describe("flowproof mcp", () => {
  test("lists the record, run, get_trace, validate, heal, audit and merge tools with their input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "flowproof_record",
      "flowproof_run",
      "flowproof_get_trace",
      "flowproof_validate",
      "flowproof_heal",
      "flowproof_audit",
      "flowproof_merge",
      "flowproof_codegen_start",
      "flowproof_codegen_steps",
      "flowproof_codegen_stop",
    ]);
    for (const t of tools) expect(t.outputSchema?.type).toBe("object");
    expect(tools.find((t) => t.name === "flowproof_audit")!.inputSchema.required).toEqual(["dir"]);
    const rec = tools.find((t) => t.name === "flowproof_record")!;
    expect(rec.inputSchema.required).toEqual(["spec"]);
    expect(Object.keys(rec.inputSchema.properties ?? {})).toEqual([
      "spec",
      "out",
      "author",
      "reuse",
      "verify",
      "recording_detail",
      "video",
      "highlight_cursor",
      "grid",
      "browser",
    ]);
  });

  test("records, runs and reads the trace of a flow; a failing run is a normal result", async () => {
    const spec = project.write(
      "greet.flow.yaml",
      flowYaml("Greet", `${server.url}/greeter.html`, [
        'rules: Type Ada into the "Your name" field',
        'rules: Press the "Greet" button',
        "assert: page shows Hello, Ada!",
      ]),
    );
    const rec = await call("flowproof_record", { spec, author: "rules" });
    expect(rec.isError).toBe(false);
    expect(rec.value["ok"]).toBe(true);
    expect(rec.value["trace_path"]).toBe(join(project.dir, "greet.trace.jsonl"));

    const ran = await call("flowproof_run", { spec: "greet.flow.yaml" });
    expect(ran.isError).toBe(false);
    expect((ran.value["report"] as { passed: boolean }).passed).toBe(true);

    const off = await call("flowproof_run", { spec: "greet.flow.yaml", recording_detail: "off" });
    expect((off.value["report"] as { recording?: unknown }).recording).toBeUndefined();
    const filmed = await call("flowproof_run", { spec: "greet.flow.yaml", recording_detail: "low", video: true, highlight_cursor: true });
    expect((filmed.value["report"] as { recording?: { gif?: string } }).recording?.gif).toBeTruthy();

    const trace = await call("flowproof_get_trace", { spec });
    expect((trace.value["steps"] as Array<{ intent: string }>).map((s) => s.intent)).toEqual([
      'Type Ada into the "Your name" field',
      'Press the "Greet" button',
      "page shows Hello, Ada!",
    ]);
    expect((trace.value["header"] as { app: { adapter: string } }).app.adapter).toBe("web");

    // The app drifts: the recorded assertion no longer holds. Still a result, not an error.
    server.setRoute(
      "/greeter.html",
      () =>
        new Response("<!doctype html><title>Greeter</title><input placeholder='Your name'><button>Greet</button><p>Goodbye</p>", {
          headers: { "content-type": "text/html" },
        }),
    );
    const drifted = await call("flowproof_run", { spec });
    expect(drifted.isError).toBe(false);
    const report = drifted.value["report"] as { passed: boolean; steps: Array<{ status: string }> };
    expect(report.passed).toBe(false);
    expect(report.steps.map((s) => s.status)).toContain("failed");
  }, 90_000);

  test("validating a bad flow is an error result with every diagnostic and its span", async () => {
    const spec = project.write("bad.flow.yaml", 'name: Bad\napp: web\nurl: http://127.0.0.1:1/\nsteps:\n  - rules: Blur the "Email" field\n  - colour: red\n');
    const r = await call("flowproof_validate", { spec });
    expect(r.isError).toBe(true);
    const error = r.value["error"] as { code: string; diagnostics: Array<{ code: string; line?: number; column?: number }> };
    expect(error.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ["refused-step", 5, 12],
      ["unknown-key", 6, 5],
    ]);
    const ok = await call("flowproof_validate", { spec: project.write("ok.flow.yaml", flowYaml("Ok", "http://127.0.0.1:1/", ["assert: page shows x"])) });
    expect(ok).toEqual({ isError: false, value: { valid: true, name: "Ok", app: "web", steps: 1 } });
  });

  test("heal reports a healthy flow as data, and leaves no proposal behind", async () => {
    const spec = project.write(
      "counter.flow.yaml",
      flowYaml("Counter", `${server.url}/counter.html`, ['rules: Press the "Add" button', "assert: page shows 42"]),
    );
    expect((await call("flowproof_record", { spec, author: "rules" })).value["ok"]).toBe(true);
    const healed = await call("flowproof_heal", { spec, author: "rules" });
    expect(healed.isError).toBe(false);
    expect(healed.value).toMatchObject({ applied: false, report: { changed: false, steps_changed: [], steps_added: 0, steps_removed: 0 } });
    expect((healed.value["report"] as { routing: Array<{ route: string }> }).routing.map((r) => r.route)).toEqual(["rules", "rules"]);
  }, 60_000);

  test("audit reads the control map of a suite's run record, never re-running it", async () => {
    const dir = join(project.dir, "audited");
    const spec = project.write(
      "audited/login.flow.yaml",
      [
        "name: Login is guarded",
        "app: web",
        `url: ${server.url}/counter.html`,
        "control: { id: auth.login-guard, title: Login is guarded }",
        "steps:",
        '  - rules: Press the "Add" button',
        "  - assert: page shows 42",
        "",
      ].join("\n"),
    );
    expect((await call("flowproof_record", { spec, author: "rules" })).value["ok"]).toBe(true);
    const none = await call("flowproof_audit", { dir });
    expect(none.isError).toBe(true);
    expect(JSON.stringify(none.value)).toContain("flowproof run");
    const suite = await runCli(["run", dir], { cwd: project.dir });
    expect(suite.code).toBe(0);
    const map = await call("flowproof_audit", { dir });
    expect(map.isError).toBe(false);
    expect(map.value["failed"]).toBe(false);
    expect((map.value["controls"] as Array<{ id: string; verdict: string }>).map((c) => [c.id, c.verdict])).toEqual([["auth.login-guard", "pass"]]);
    const both = await call("flowproof_audit", { dir, run: "x", since: "y" });
    expect(both.isError).toBe(true);
  }, 90_000);

  test("reading a trace that was never recorded is an error result saying how to record it", async () => {
    const r = await call("flowproof_get_trace", { spec: project.write("new.flow.yaml", flowYaml("New", "http://127.0.0.1:1/", ["assert: page shows x"])) });
    expect(r.isError).toBe(true);
    expect((r.value["error"] as { code: string }).code).toBe("missing-trace");
  });
});

describe("flowproof mcp: paths stay inside the server's root", () => {
  test("validate refuses a file outside the root (/etc/shadow, a canary) without quoting a byte of it", async () => {
    const elsewhere = tmpProject("flowproof-outside-");
    try {
      const canary = elsewhere.write("secret.yaml", "root:$6$Zq7CanaryHash:19000:0:99999:7:::\n");
      for (const spec of [canary, "/etc/shadow", "../../../../../../etc/passwd"]) {
        const r = await call("flowproof_validate", { spec });
        expect(r.isError).toBe(true);
        const text = JSON.stringify(r.value);
        expect((r.value["error"] as { code: string }).code).toBe("usage");
        expect(text).toContain("is outside the MCP server's root");
        expect(text).not.toContain("Zq7Canary");
        expect(text).not.toContain("root:");
      }
    } finally {
      elsewhere.remove();
    }
  });

  test("a file inside the root that is not a flow is refused without its content", async () => {
    project.write("notes.yaml", "root:$6$Zq7CanaryHash:19000:0:99999:7:::\n");
    project.write("notes.txt", "Zq7Canary plain text\n");
    for (const spec of ["notes.yaml", "notes.txt"]) {
      const r = await call("flowproof_validate", { spec });
      expect(r.isError).toBe(true);
      expect(JSON.stringify(r.value)).not.toContain("Zq7Canary");
    }
  });

  test("record with out: outside the root, or onto a file that is not a trace, writes nothing", async () => {
    const elsewhere = tmpProject("flowproof-outside-");
    try {
      const victim = elsewhere.write("victim.trace.jsonl", "precious\n");
      const spec = project.write("out.flow.yaml", flowYaml("Out", `${server.url}/counter.html`, ['rules: Press the "Add" button']));
      const outside = await call("flowproof_record", { spec, out: victim, author: "rules" });
      expect(outside.isError).toBe(true);
      expect(JSON.stringify(outside.value)).toContain("is outside the MCP server's root");
      expect(readFileSync(victim, "utf8")).toBe("precious\n");
      const config = project.write("config.jsonl", '{"keep":"me"}\n');
      const other = await call("flowproof_record", { spec, out: config, author: "rules" });
      expect(other.isError).toBe(true);
      expect(JSON.stringify(other.value)).toContain("it is not overwritten");
      expect(readFileSync(config, "utf8")).toBe('{"keep":"me"}\n');
    } finally {
      elsewhere.remove();
    }
  });

  test("a client that declares roots confines the server to them instead of its working directory", async () => {
    const declared = tmpProject("flowproof-root-");
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: "1" })) if (v !== undefined) env[k] = v;
    const rooted = new Client({ name: "flowproof-roots-test", version: "1.0.0" }, { capabilities: { roots: { listChanged: true } } });
    rooted.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(declared.dir).href, name: "declared" }] }));
    try {
      await rooted.connect(
        new StdioClientTransport({ command: process.execPath, args: [join(REPO_ROOT, "src/cli/main.ts"), "mcp"], cwd: project.dir, env, stderr: "ignore" }),
      );
      const inDeclared = declared.write("ok.flow.yaml", flowYaml("Ok", "http://127.0.0.1:1/", ["assert: page shows x"]));
      const ok = await rooted.callTool({ name: "flowproof_validate", arguments: { spec: inDeclared } });
      expect(ok.isError).toBeFalsy();
      const inCwd = project.write("cwd.flow.yaml", flowYaml("Cwd", "http://127.0.0.1:1/", ["assert: page shows x"]));
      const refused = await rooted.callTool({ name: "flowproof_validate", arguments: { spec: inCwd } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain("is outside the MCP server's root");
    } finally {
      await rooted.close();
      declared.remove();
    }
  }, 60_000);
});

describe("callTool", () => {
  test("refuses unknown tools and arguments outside the input schema", async () => {
    const unknown = await callTool(TOOLS, "flowproof_explode", {});
    expect(unknown.isError).toBe(true);
    const bad = await callTool(TOOLS, "flowproof_run", { spec: 3, colour: "red" });
    expect(bad.isError).toBe(true);
    expect((bad.content[0] as { text: string }).text).toContain("bad arguments for flowproof_run");
  });
});
