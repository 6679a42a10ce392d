// A suite's shell commands under `flowproof mcp`, through the real server (the MCP SDK's client
// over stdio) and `app: api` flows against a real local HTTP server: by default a client's record
// or run of a flow runs its suite.yaml's hooks as the server's own user; started with --no-hooks,
// the server refuses such a call before any command runs (hooks-off, naming the key and the
// command), a suite directory too, while a flow whose suite has no command still runs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPO_ROOT } from "../support/cli.ts";

let api: ReturnType<typeof Bun.serve>;
let base: string;
const clients: Client[] = [];

const FLOW = "name: Ping\napp: api\nsteps:\n  - assert_api:\n      request: GET ${API}/ping\n      status: 200\n      body_contains: pong\n";
const HOOKS = 'before_each: "echo before $(basename $FLOWPROOF_SPEC) as $(id -u) >> hooks.log"\nafter_each: "echo after >> hooks.log"\n';

/** A project directory holding ping.flow.yaml, under a suite.yaml with `suite` as its body. */
function project(name: string, suite: string): string {
  const dir = join(base, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "suite.yaml"), suite);
  writeFileSync(join(dir, "ping.flow.yaml"), FLOW);
  return dir;
}

/** `flowproof mcp` (with `flags`) started in `cwd`, as an MCP client starts it. */
async function serve(cwd: string, flags: readonly string[] = []): Promise<Client> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: "1", API: `http://127.0.0.1:${api.port}` })) if (v !== undefined) env[k] = v;
  const client = new Client({ name: "flowproof-hooks-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [join(REPO_ROOT, "src/cli/main.ts"), "mcp", ...flags], cwd, env, stderr: "ignore" }),
  );
  clients.push(client);
  return client;
}

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }> };
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; value: Record<string, unknown> }> {
  const r = (await client.callTool({ name, arguments: args })) as ToolResult;
  return { isError: r.isError === true, value: JSON.parse(r.content[0]!.text!) as Record<string, unknown> };
}

const hookLog = (dir: string) => (existsSync(join(dir, "hooks.log")) ? readFileSync(join(dir, "hooks.log"), "utf8") : "");

beforeAll(() => {
  api = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("pong") });
  base = mkdtempSync(join(tmpdir(), "flowproof-mcp-hooks-"));
});
afterAll(async () => {
  for (const c of clients) await c.close();
  api?.stop(true);
  if (base) rmSync(base, { recursive: true, force: true });
});

describe("suite hooks under flowproof mcp", () => {
  test("by default a client's record and run of a flow run its suite's hooks, as the server's user", async () => {
    const dir = project("default", HOOKS);
    const client = await serve(dir);
    const recorded = await call(client, "flowproof_record", { spec: "ping.flow.yaml", recording_detail: "off" });
    expect(recorded.isError).toBe(false);
    expect(recorded.value["ok"]).toBe(true);
    const ran = await call(client, "flowproof_run", { spec: "ping.flow.yaml", recording_detail: "off" });
    expect((ran.value["report"] as { passed: boolean }).passed).toBe(true);
    const uid = process.getuid!();
    expect(hookLog(dir)).toBe(`before ping.flow.yaml as ${uid}\nafter\nbefore ping.flow.yaml as ${uid}\nafter\n`);
  }, 120_000);

  test("with --no-hooks, record, run and a suite run are refused before any command runs, naming the key and the command", async () => {
    const dir = project("no-hooks", `env_from: "echo MINTED=1; echo env_from >> hooks.log"\n${HOOKS}`);
    const client = await serve(dir, ["--no-hooks"]);
    for (const [tool, spec] of [
      ["flowproof_record", "ping.flow.yaml"],
      ["flowproof_run", "ping.flow.yaml"],
      ["flowproof_run", "."],
    ] as const) {
      const r = await call(client, tool, { spec, recording_detail: "off" });
      expect(r.isError).toBe(true);
      const error = r.value["error"] as { code: string; message: string; diagnostics: Array<{ hint?: string }> };
      expect(error.code).toBe("hooks-off");
      expect(error.message).toBe(
        "suite.yaml's env_from `echo MINTED=1; echo env_from >> hooks.log` was not run: this MCP server was started with --no-hooks, so no suite.yaml shell command runs through it",
      );
      expect(error.diagnostics[0]?.hint).toContain("run the flow with the CLI");
    }
    expect(hookLog(dir)).toBe("");
    // Checking a flow runs no command: still served.
    expect((await call(client, "flowproof_validate", { spec: "ping.flow.yaml" })).isError).toBe(false);
  }, 120_000);

  test("with --no-hooks, a hook alone is refused too, and a flow whose suite has no command runs", async () => {
    const hooked = project("hook-only", HOOKS);
    const client = await serve(hooked, ["--no-hooks"]);
    const r = await call(client, "flowproof_record", { spec: "ping.flow.yaml", recording_detail: "off" });
    expect((r.value["error"] as { message: string }).message).toStartWith("suite.yaml's before_each `echo before");
    expect(hookLog(hooked)).toBe("");
    mkdirSync(join(hooked, "plain"));
    writeFileSync(join(hooked, "plain", "suite.yaml"), "env:\n  GREETING: hello\n");
    writeFileSync(join(hooked, "plain", "ping.flow.yaml"), FLOW);
    const plain = await call(client, "flowproof_record", { spec: "plain/ping.flow.yaml", recording_detail: "off" });
    expect(plain.isError).toBe(false);
    expect(plain.value["ok"]).toBe(true);
  }, 120_000);
});
