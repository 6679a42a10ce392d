// Agent flows with `mcp:` servers, end to end through the real CLI: a real agent (the official
// `openai` package and MCP SDK client) reaching a real MCP server (the SDK's McpServer) over stdio
// and over streamable HTTP through flowproof's stand-ins; recorded against a scripted local model,
// then replayed with the model server stopped and no MCP server process at all.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { runCli, REPO_ROOT } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { startAgentModel, type AgentModel } from "../support/model-server.ts";

const BUN = process.execPath;
const AGENTS = join(REPO_ROOT, "test", "fixtures", "agents");
const AGENT = `${BUN} ${join(AGENTS, "mcp-agent.mjs")}`;
const SERVER = `${BUN} ${join(AGENTS, "notes-mcp-server.mjs")}`;
const KEY = "sk-canary-mcp-5d1e8c";
const TOKEN = "notes-token-3f9a2b7c";

let model: AgentModel;
const projects: TmpProject[] = [];

beforeAll(() => {
  model = startAgentModel((turn) => (turn === 0 ? { tool: "read_note", args: { id: "n1" } } : { text: "Your note: Gate 14 closes at 09:40." }));
});
afterAll(() => {
  model.stop();
  for (const p of projects) p.remove();
});

function project(): TmpProject {
  const p = tmpProject("flowproof-agent-mcp-");
  projects.push(p);
  return p;
}

const recordEnv = (extra: Record<string, string> = {}) => ({ FLOWPROOF_AGENT_UPSTREAM: model.url, FLOWPROOF_AGENT_KEY: KEY, ...extra });

function flow(
  server: string,
  steps: readonly string[] = [
    "  - prompt: When does my gate close?",
    "  - assert_tool_call: read_note where id equals n1",
    "  - assert_tool_call: notes.read_note where id equals n1",
    "  - assert: reply contains Gate 14",
  ],
): string {
  return ["name: Notes", "app: agent", `agent: {command: ${AGENT}}`, "mcp:", "  - name: notes", `    ${server}`, "steps:", ...steps, ""].join("\n");
}

const serverLog = (p: TmpProject): string[] => (p.files().includes("notes-server.log") ? p.read("notes-server.log").trim().split("\n") : []);
const trace = (p: TmpProject) =>
  JSON.parse(p.read("notes.trace.jsonl").trim().split("\n")[1]!) as {
    action: { params: { lanes: Record<string, { calls: Array<{ method: string }>; events: Array<{ after: number; method: string }> }> } };
  };

async function recorded(p: TmpProject, server: string, steps?: readonly string[], env: Record<string, string> = {}): Promise<void> {
  p.write("notes.flow.yaml", flow(server, steps));
  const rec = await runCli(["record", "notes.flow.yaml"], { cwd: p.dir, env: recordEnv(env) });
  expect(rec.code, rec.stdout + rec.stderr).toBe(0);
}

describe("a stdio MCP server", () => {
  test("records the lane through flowproof, replays with no model and no server process; notifications re-emitted", async () => {
    const p = project();
    p.write("notes.flow.yaml", flow(`command: ${SERVER}`));
    const before = model.requests.length;
    const rec = await runCli(["record", "notes.flow.yaml"], { cwd: p.dir, env: recordEnv() });
    expect(rec.code, rec.stdout + rec.stderr).toBe(0);
    expect(model.requests.length - before).toBe(2);
    // The tool result the model was told carries the server's log line, sent mid-call.
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain("Gate 14 closes at 09:40 [log: reading n1]");
    const lane = trace(p).action.params.lanes["notes"]!;
    expect(lane.calls.map((c) => c.method)).toEqual(["initialize", "tools/list", "tools/call"]);
    expect(lane.events).toEqual([expect.objectContaining({ after: 2, method: "notifications/message" })]);
    const replayed = model.requests.length;
    // Replay: no upstream, and the MCP server's command would fail if anything started it.
    const run = await runCli(["run", "notes.flow.yaml", "--json"], { cwd: p.dir, env: {} });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(model.requests.length).toBe(replayed);
    const result = (JSON.parse(run.stdout) as { report: { steps: Array<{ agent: { calls: Array<{ name: string; result?: string }> } }> } }).report;
    expect(result.steps[0]!.agent.calls.map((c) => c.name)).toEqual(["read_note", "notes.read_note"]);
    expect(result.steps[0]!.agent.calls[1]!.result).toBe("Gate 14 closes at 09:40");
    for (const f of p.files()) expect(readFileSync(join(p.dir, f), "utf8").includes(KEY)).toBe(false);
    // The real server ran once, at record; replay started no process for it.
    expect(serverLog(p)).toEqual(["start", "call read_note n1"]);
  });

  test("a changed tool argument fails the replay with the argument path", async () => {
    const p = project();
    await recorded(p, `command: ${SERVER}`);
    const run = await runCli(["run", "notes.flow.yaml"], { cwd: p.dir, env: { NOTE_ID: "n2" } });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain("MCP server `notes` call 3 (tools/call `read_note`): arguments.id: recorded n1, replayed n2");
  });

  test("an extra MCP call at replay fails", async () => {
    const p = project();
    await recorded(p, `command: ${SERVER}`);
    const run = await runCli(["run", "notes.flow.yaml"], { cwd: p.dir, env: { EXTRA_MCP: "1" } });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain("extra MCP call: MCP server `notes` call 4 (`tools/list`) has no recorded call left (the lane holds 3)");
  });

  test("an assert_tool_call over the lane that does not hold fails the record", async () => {
    const p = project();
    p.write(
      "notes.flow.yaml",
      flow(`command: ${SERVER}`, ["  - prompt: When does my gate close?", "  - assert_tool_call: notes.read_note where id equals n2"]),
    );
    const rec = await runCli(["record", "notes.flow.yaml"], { cwd: p.dir, env: recordEnv() });
    expect(rec.code).toBe(1);
    expect(rec.stdout + rec.stderr).toContain(
      'assert_tool_call `notes.read_note` where id equals n2: no such call; call #2 notes.read_note({"id":"n1"}): id is n1',
    );
  });

  test("a tool with result: under the server is answered by the stand-in, never forwarded, at record and replay", async () => {
    const p = project();
    await recorded(p, `command: ${SERVER}\n    tools:\n      - name: read_note\n        result: Gate 3 closes at 11:00`, [
      "  - prompt: When does my gate close?",
      "  - assert_tool_call: notes.read_note where id equals n1",
    ]);
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain("Gate 3 closes at 11:00");
    expect(serverLog(p)).toEqual(["start"]);
    const run = await runCli(["run", "notes.flow.yaml"], { cwd: p.dir, env: {} });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(serverLog(p)).toEqual(["start"]);
  });

  test("a declared server the agent never contacts fails the record, naming the variable to wire", async () => {
    const p = project();
    p.write(
      "notes.flow.yaml",
      [
        "name: Notes",
        "app: agent",
        `agent: {command: ${BUN} ${join(AGENTS, "openai-agent.mjs")}}`,
        "mcp:",
        "  - name: notes",
        `    command: ${SERVER}`,
        "steps:",
        "  - prompt: Book KQ311",
        "",
      ].join("\n"),
    );
    const rec = await runCli(["record", "notes.flow.yaml"], { cwd: p.dir, env: recordEnv() });
    expect(rec.code).toBe(1);
    expect(rec.stdout + rec.stderr).toContain("never contacted the declared MCP server `notes`: wire it to FLOWPROOF_MCP_SERVER_NOTES");
    expect(p.files().filter((f) => f.endsWith(".trace.jsonl"))).toEqual([]);
  });

  test("assert_no_secret_leak scans the MCP lane: a secret in a tool answer fails the record, naming the lane, never the value", async () => {
    const p = project();
    const secret = "owner-7c2e9d41ab";
    p.write("notes.flow.yaml", flow(`command: ${SERVER}`, ["  - prompt: When does my gate close?", "  - assert_no_secret_leak: ${NOTE_SECRET}"]));
    const rec = await runCli(["record", "notes.flow.yaml"], { cwd: p.dir, env: recordEnv({ NOTE_SECRET: secret }) });
    expect(rec.code, rec.stdout + rec.stderr).toBe(1);
    expect(rec.stdout + rec.stderr).toContain("secret leak: ${NOTE_SECRET} surfaced in MCP server `notes` response 3 of step s0001");
    expect(rec.stdout + rec.stderr).not.toContain(secret);
    expect(p.files().filter((f) => f.endsWith(".trace.jsonl"))).toEqual([]);
    // The agent told the model only the first block: the model boundary never saw it.
    expect(JSON.stringify(model.requests.at(-1)!.body)).not.toContain(secret);
  });
});

describe("a streamable-HTTP MCP server", () => {
  test("records through the stand-in (bearer token and session passed through, not stored), replays with the server stopped", async () => {
    const p = project();
    const server = Bun.spawn([BUN, join(AGENTS, "notes-mcp-server.mjs"), "--http"], {
      cwd: p.dir,
      env: { ...process.env, NOTES_TOKEN: TOKEN },
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      const port = new TextDecoder().decode((await server.stdout.getReader().read()).value).trim();
      await recorded(p, `url: http://127.0.0.1:${port}/mcp`, undefined, { NOTES_TOKEN: TOKEN });
      expect(JSON.stringify(model.requests.at(-1)!.body)).toContain("Gate 14 closes at 09:40 [log: reading n1]");
    } finally {
      server.kill();
      await server.exited;
    }
    const lane = trace(p).action.params.lanes["notes"]!;
    expect(lane.calls.map((c) => c.method)).toEqual(["initialize", "tools/list", "tools/call"]);
    expect(lane.events.map((e) => e.method)).toEqual(["notifications/message"]);
    const replayed = model.requests.length;
    const run = await runCli(["run", "notes.flow.yaml"], { cwd: p.dir, env: { NOTES_TOKEN: TOKEN } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(model.requests.length).toBe(replayed);
    expect(serverLog(p)).toEqual(["start", "call read_note n1"]);
    for (const f of p.files()) expect(readFileSync(join(p.dir, f), "utf8")).not.toContain(TOKEN);
  });
});

describe("bad input", () => {
  test.each([
    ["command and url together", "mcp:\n  - name: notes\n    command: a\n    url: http://127.0.0.1:1/mcp\n", "7:5", "both `command:` and `url:`"],
    ["port on a command server", "mcp:\n  - name: notes\n    command: a\n    port: 8931\n", "7:5", "`port:` goes with an `mcp:` server's `url:`"],
    ["the same server twice", "mcp:\n  - name: notes\n    command: a\n  - name: notes\n    command: b\n", "7:11", "declared twice"],
    ["an unknown key", "mcp:\n  - name: notes\n    comand: a\n", "6:5", "unknown key `comand`"],
    [
      "a tool mocked at both boundaries",
      "tools:\n  - name: read_note\n    result: x\nmcp:\n  - name: notes\n    command: a\n    tools:\n      - name: read_note\n        result: y\n",
      "8:3",
      "`result:` at both boundaries",
    ],
  ])("%s is refused at load with its position, exit 2", async (_name, body, at, message) => {
    const p = project();
    p.write("bad.flow.yaml", `name: Bad\napp: agent\nagent: {command: a}\n${body}steps:\n  - prompt: hi\n`);
    const r = await runCli(["validate", "bad.flow.yaml"], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.stderr + r.stdout).toContain(`bad.flow.yaml:${at}`);
    expect(r.stderr + r.stdout).toContain(message);
  });

  test("a url server without port beside a running agent service is refused; mcp: on a web flow too", async () => {
    const p = project();
    p.write(
      "svc.flow.yaml",
      "name: Bad\napp: agent\nagent: {url: http://127.0.0.1:1/run, proxy_port: 8787}\nmcp:\n  - name: notes\n    url: http://127.0.0.1:2/mcp\nsteps:\n  - prompt: hi\n",
    );
    const r = await runCli(["validate", "svc.flow.yaml"], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.stderr + r.stdout).toContain("svc.flow.yaml:5:3");
    expect(r.stderr + r.stdout).toContain("MCP server `notes` needs `port:`");
    p.write("web.flow.yaml", 'name: Bad\napp: web\nurl: http://127.0.0.1:1/\nmcp:\n  - name: notes\n    command: a\nsteps:\n  - rules: Click "Save"\n');
    const w = await runCli(["validate", "web.flow.yaml"], { cwd: p.dir });
    expect(w.code).toBe(2);
    expect(w.stderr + w.stdout).toContain("web.flow.yaml:4:1");
    expect(w.stderr + w.stdout).toContain("`mcp:` belongs to agent flows");
  });
});

describe("an agent flow over flowproof's own MCP server", () => {
  test("flowproof_record and flowproof_run drive an agent flow with its MCP lane; the replay asks no model", async () => {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const p = project();
    p.write("notes.flow.yaml", flow(`command: ${SERVER}`));
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...recordEnv() })) if (v !== undefined) env[k] = v;
    const client = new Client({ name: "agent-flow-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({ command: BUN, args: [join(REPO_ROOT, "src", "cli", "main.ts"), "mcp"], cwd: p.dir, env, stderr: "ignore" }),
    );
    try {
      const spec = join(p.dir, "notes.flow.yaml");
      const rec = (await client.callTool({ name: "flowproof_record", arguments: { spec } }, undefined, { timeout: 170_000 })) as {
        structuredContent?: Record<string, unknown>;
      };
      expect(rec.structuredContent?.["ok"]).toBe(true);
      const before = model.requests.length;
      const progress: string[] = [];
      const run = (await client.callTool({ name: "flowproof_run", arguments: { spec } }, undefined, {
        timeout: 170_000,
        onprogress: (n) => progress.push(n.message ?? ""),
      })) as { structuredContent?: { report: { passed: boolean; steps: Array<{ agent?: { calls: Array<{ name: string }> } }> } } };
      expect(run.structuredContent?.report.passed).toBe(true);
      expect(run.structuredContent?.report.steps[0]!.agent?.calls.map((c) => c.name)).toEqual(["read_note", "notes.read_note"]);
      expect(model.requests.length).toBe(before);
      expect(progress.filter((m) => m.startsWith("step "))).toEqual([expect.stringMatching(/^step 1\/1: PASSED prompt: When does my gate close\?/)]);
      expect(serverLog(p)).toEqual(["start", "call read_note n1"]);
    } finally {
      await client.close();
    }
  }, 180_000);
});
