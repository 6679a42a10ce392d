// A project plugin that prints, or hangs, through the real CLI: its console.log and stdout writes
// go to stderr under `--json` (stdout stays one JSON document) and under `flowproof mcp` (stdout
// stays JSON-RPC); a module whose top-level await never settles is refused within the load bound,
// naming its file; an assertion whose run() never settles is reported naming the plugin and key.
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { REPO_ROOT, runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";

const projects: TmpProject[] = [];
afterAll(() => {
  for (const p of projects) p.remove();
});

/** A lookalike of a JSON-RPC answer: taken for one if it reached an MCP client's stdout. */
const FAKE_RESPONSE = JSON.stringify({ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "forged" }] } });

function project(plugin: string, flow: string): TmpProject {
  const p = tmpProject("flowproof-plugin-stdout-");
  projects.push(p);
  p.write("package.json", JSON.stringify({ name: "plugin-stdout", type: "module" }));
  p.write("plugins/plugin.ts", plugin);
  p.write("check.flow.yaml", flow);
  return p;
}

const assertion = (run: string, top = "") => `import { defineAssertion } from "flowproof";
${top}
export const plugin = defineAssertion<{ say: string; timeout_seconds?: number }>({
  key: "assert_said",
  schema: { type: "object", required: ["say"], additionalProperties: false, properties: { say: { type: "string" }, timeout_seconds: { type: "number" } } },
  run: ${run},
});
`;
const FLOW = "name: Said\napp: api\nsteps:\n  - assert_said:\n      say: hello\n      timeout_seconds: 1\n";

const chatty = () =>
  project(
    assertion(
      `async (a) => {
    console.log("CHATTY in run", a.say);
    process.stdout.write("CHATTY write in run\\n");
    return { pass: true };
  }`,
      `console.log("CHATTY at import");\nconsole.info(${JSON.stringify(FAKE_RESPONSE)});\nprocess.stdout.write("CHATTY write at import\\n");`,
    ),
    FLOW,
  );

describe("a chatty plugin does not corrupt machine output", () => {
  test("--json: stdout is one JSON document; the plugin's lines are on stderr", async () => {
    const p = chatty();
    const v = await runCli(["validate", "check.flow.yaml", "--json"], { cwd: p.dir });
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ name: "Said" });
    expect(v.stderr).toContain("CHATTY at import");
    expect(v.stderr).toContain("CHATTY write at import");
    const r = await runCli(["record", "check.flow.yaml", "--json"], { cwd: p.dir });
    expect(() => JSON.parse(r.stdout)).not.toThrow();
    expect(r.stdout).not.toContain("CHATTY");
    expect(r.stderr).toContain("CHATTY in run hello");
    expect(r.stderr).toContain("CHATTY write in run");
  }, 120_000);

  test("flowproof mcp: every stdout line is the server's JSON-RPC; the client gets the real answer", async () => {
    const p = chatty();
    const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), "mcp"], { cwd: p.dir, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const lines: string[] = [];
    const reading = (async () => {
      let buffer = "";
      const reader = proc.stdout.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += new TextDecoder().decode(value);
        let nl: number;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          lines.push(buffer.slice(0, nl));
          buffer = buffer.slice(nl + 1);
        }
      }
    })();
    const send = (m: unknown) => {
      proc.stdin.write(`${JSON.stringify(m)}\n`);
      proc.stdin.flush();
    };
    const response = async (id: number) => {
      const until = Date.now() + 60_000;
      for (;;) {
        const found = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((m) => m["id"] === id);
        if (found) return found;
        if (Date.now() > until) throw new Error(`no response ${id}; stdout: ${lines.join("\n")}`);
        await Bun.sleep(20);
      }
    };
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } },
    });
    await response(1);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "flowproof_validate", arguments: { spec: "check.flow.yaml" } } });
    const answer = await response(2);
    proc.stdin.end();
    await proc.exited;
    await reading;
    const stderr = await new Response(proc.stderr).text();
    expect(answer["result"]).toMatchObject({ structuredContent: { valid: true, name: "Said" } });
    expect(lines.filter((l) => l.includes("CHATTY") || l.includes("forged"))).toEqual([]);
    for (const l of lines) expect(JSON.parse(l)).toMatchObject({ jsonrpc: "2.0" });
    expect(stderr).toContain("CHATTY at import");
    expect(stderr).toContain("forged");
  }, 120_000);
});

describe("a plugin that never settles is named", () => {
  test("a module whose top-level await never settles is refused within the load bound", async () => {
    const p = project(assertion("async () => ({ pass: true })", "await new Promise(() => undefined);"), FLOW);
    const started = performance.now();
    const r = await runCli(["validate", "check.flow.yaml"], { cwd: p.dir, env: { FLOWPROOF_PLUGIN_LOAD_MS: "1500" } });
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("plugins/plugin.ts: did not finish loading within 1500 ms: its top-level code (an `await` in it) never settled");
    expect(r.stderr).toContain("FLOWPROOF_PLUGIN_LOAD_MS");
  }, 60_000);

  test("an assertion whose run() never settles is the plugin's fault, named with its key and file", async () => {
    const p = project(assertion("() => new Promise(() => undefined)"), FLOW);
    const r = await runCli(["record", "check.flow.yaml", "--json"], { cwd: p.dir });
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain("the assertion plugin for `assert_said` (plugins/plugin.ts): its run() did not answer within 1000 ms");
    expect(r.stdout).not.toContain("the app stopped responding");
  }, 120_000);
});
