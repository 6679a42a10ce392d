// Agent flows end to end through the real CLI: real agent programs (the official `openai`
// package with a tool-calling loop, streaming on and off; Anthropic Messages through the official
// `@anthropic-ai/sdk` package, streaming on and off, and over raw HTTP) recorded
// against a scripted local model server, then replayed with that server stopped.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { createServer } from "node:net";
import { readdirSync, readFileSync } from "node:fs";
import { runCli, REPO_ROOT } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { startAgentModel, type AgentModel } from "../support/model-server.ts";
import { startServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { Flow } from "../../src/index.ts";
import { resealed } from "../support/trace.ts";

const BUN = process.execPath;
const OPENAI_AGENT = join(REPO_ROOT, "test", "fixtures", "agents", "openai-agent.mjs");
const ANTHROPIC_AGENT = join(REPO_ROOT, "test", "fixtures", "agents", "anthropic-agent.mjs");
const ANTHROPIC_SDK_AGENT = join(REPO_ROOT, "test", "fixtures", "agents", "anthropic-sdk-agent.mjs");
const CANARY = "sk-canary-7f3a9c1e5b";

let model: AgentModel;
let modelUrl: string;
const projects: TmpProject[] = [];

beforeAll(() => {
  model = startAgentModel((turn, body) =>
    turn === 0
      ? { tool: "book_flight", args: { flight: { id: "KQ311" }, passengers: [{ name: "Ada" }] } }
      : // A scripted conversation's second delivery asks for a window seat.
        JSON.stringify((body["messages"] as unknown[]).at(-1)).includes("window seat")
        ? { text: "Window seat 14A added to KQ311." }
        : { text: "Booked KQ311 for Ada." },
  );
  modelUrl = model.url;
});
afterAll(() => {
  model.stop();
  for (const p of projects) p.remove();
});

function project(): TmpProject {
  const p = tmpProject("flowproof-agent-");
  projects.push(p);
  return p;
}

function agentFlow(agentFile: string, extra: { env?: string; steps?: readonly string[]; top?: string } = {}): string {
  return [
    "name: Book a flight",
    "app: agent",
    "agent:",
    `  command: ${BUN} ${agentFile}`,
    ...(extra.env ? [`  env: ${extra.env}`] : []),
    ...(extra.top ? [extra.top] : []),
    "steps:",
    ...(extra.steps ?? [
      "  - prompt: Book KQ311 for Ada",
      "  - assert_tool_call: book_flight where flight.id equals KQ311 and passengers.0.name is Ada",
      "  - assert: reply contains Booked KQ311",
    ]),
    "",
  ].join("\n");
}

const recordEnv = () => ({ FLOWPROOF_AGENT_UPSTREAM: modelUrl, FLOWPROOF_AGENT_KEY: CANARY });

async function recordAndCount(p: TmpProject, flow: string): Promise<{ code: number; stderr: string; stdout: string; requests: number }> {
  p.write("book.flow.yaml", flow);
  const before = model.requests.length;
  const r = await runCli(["record", "book.flow.yaml"], { cwd: p.dir, env: recordEnv() });
  return { ...r, requests: model.requests.length - before };
}

function noCanaryUnder(p: TmpProject): void {
  for (const f of p.files()) expect(readFileSync(join(p.dir, f), "utf8").includes(CANARY)).toBe(false);
}

describe.each([
  ["openai, not streaming", OPENAI_AGENT, undefined],
  ["openai, streaming", OPENAI_AGENT, '{AGENT_STREAM: "1"}'],
  ["anthropic over raw HTTP", ANTHROPIC_AGENT, undefined],
  ["@anthropic-ai/sdk, not streaming", ANTHROPIC_SDK_AGENT, undefined],
  ["@anthropic-ai/sdk, streaming", ANTHROPIC_SDK_AGENT, '{AGENT_STREAM: "1"}'],
] as const)("%s", (_name, file, env) => {
  test("records through the proxy, then replays with zero model requests; the key reaches only the upstream header", async () => {
    const p = project();
    const rec = await recordAndCount(p, agentFlow(file, env ? { env } : {}));
    expect(rec.stderr + rec.stdout).not.toContain(CANARY);
    expect(rec.code).toBe(0);
    expect(rec.requests).toBe(2);
    const last = model.requests.at(-1)!;
    expect(last.authorization === `Bearer ${CANARY}` || last.apiKey === CANARY).toBe(true);
    const trace = p
      .read("book.trace.jsonl")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(trace).toHaveLength(2);
    const step = trace[1] as { action: { type: string; params: { cassette: unknown[] } } };
    expect(step.action.type).toBe("agent_run");
    expect(step.action.params.cassette).toHaveLength(2);
    const before = model.requests.length;
    // Replay: no upstream configured at all, and the model server must not be asked.
    const run = await runCli(["run", "book.flow.yaml", "--json"], { cwd: p.dir, env: {} });
    expect(run.code).toBe(0);
    expect(model.requests.length).toBe(before);
    // The report shows the conversation: the call, its arguments and result, the final reply.
    const report = p.files().find((f) => f.endsWith("report.html"))!;
    const html = p.read(report);
    expect(html).toContain("call #1 <b>book_flight</b>");
    expect(html).toContain("&quot;KQ311&quot;");
    expect(html).toContain("<pre>Booked KQ311 for Ada.</pre>");
    const result = JSON.parse(p.read(report.replace("report.html", "result.json"))) as {
      steps: Array<{ agent?: { calls: Array<{ name: string; result?: string }> } }>;
    };
    expect(result.steps[0]!.agent!.calls[0]!.result).toContain("confirmed");
    noCanaryUnder(p);
  });

  test("a changed tool result fails the replay with the field path", async () => {
    const p = project();
    expect((await recordAndCount(p, agentFlow(file, env ? { env } : {}))).code).toBe(0);
    // The agent's own tool now answers differently (its environment), so it tells the model something new.
    const run = await runCli(["run", "book.flow.yaml", "--json"], { cwd: p.dir, env: { BOOKED_FLIGHT: "KQ999" } });
    const out = `${run.stdout}${run.stderr}`;
    expect(run.code).not.toBe(0);
    expect(out).toContain("booking.flight.id: recorded KQ311, replayed KQ999");
  });
});

describe("failures", () => {
  test("an extra model call at replay fails the run", async () => {
    const p = project();
    expect((await recordAndCount(p, agentFlow(OPENAI_AGENT))).code).toBe(0);
    const before = model.requests.length;
    const run = await runCli(["run", "book.flow.yaml"], { cwd: p.dir, env: { ASK_AGAIN: "1" } });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain("extra model call: request 3 has no recorded turn left (the cassette holds 2)");
    expect(model.requests.length).toBe(before);
  });

  test("an extra model call at replay fails the run: @anthropic-ai/sdk, streaming", async () => {
    const p = project();
    expect((await recordAndCount(p, agentFlow(ANTHROPIC_SDK_AGENT, { env: '{AGENT_STREAM: "1"}' }))).code).toBe(0);
    const before = model.requests.length;
    const run = await runCli(["run", "book.flow.yaml"], { cwd: p.dir, env: { ASK_AGAIN: "1" } });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain("extra model call: request 3 has no recorded turn left (the cassette holds 2)");
    expect(model.requests.length).toBe(before);
  });

  test("an assertion that does not hold at record writes no trace", async () => {
    const p = project();
    const rec = await recordAndCount(
      p,
      agentFlow(OPENAI_AGENT, { steps: ["  - prompt: Book KQ311 for Ada", "  - assert_tool_call: book_flight where flight.id equals KQ999"] }),
    );
    expect(rec.code).toBe(1);
    expect(rec.stdout + rec.stderr).toContain("assert_tool_call `book_flight` where flight.id equals KQ999: no such call; call #1 book_flight(");
    expect(rec.stdout + rec.stderr).toContain("flight.id is KQ311");
    expect(p.files().filter((f) => f.endsWith(".trace.jsonl"))).toEqual([]);
  });

  test("assert_no_tool_call and reply assertions that do not hold fail the record", async () => {
    const p = project();
    const rec = await recordAndCount(
      p,
      agentFlow(OPENAI_AGENT, { steps: ["  - prompt: Book KQ311 for Ada", "  - assert_no_tool_call: book_flight where passengers.0.name is Ada"] }),
    );
    expect(rec.code).toBe(1);
    expect(rec.stdout + rec.stderr).toContain("assert_no_tool_call `book_flight` where passengers.0.name equals Ada: the agent made it: call #1 book_flight(");
    const reply = await recordAndCount(p, agentFlow(OPENAI_AGENT, { steps: ["  - prompt: Book KQ311 for Ada", "  - assert: reply is Cancelled"] }));
    expect(reply.code).toBe(1);
    expect(reply.stdout + reply.stderr).toContain('reply is Cancelled: the reply was "Booked KQ311 for Ada."');
    expect(p.files().filter((f) => f.endsWith(".trace.jsonl"))).toEqual([]);
  });

  test.each([
    ["contains", "passengers.0.name contains Grace", "passengers.0.name is Ada"],
    ["matches", "flight.id matches ^BA\\d+$", "flight.id is KQ311"],
    ["exists", "flight.seat exists", "flight.seat is absent"],
    ["is absent", "flight.id is absent", "flight.id is KQ311"],
  ])("the %s matcher's red path: a clause that does not hold fails the record, saying what the call held; no trace", async (_m, clause, why) => {
    const p = project();
    const rec = await recordAndCount(
      p,
      agentFlow(OPENAI_AGENT, { steps: ["  - prompt: Book KQ311 for Ada", `  - assert_tool_call: book_flight where ${clause}`] }),
    );
    expect(rec.code).toBe(1);
    expect(rec.stdout + rec.stderr).toContain(
      `assert_tool_call \`book_flight\` where ${clause}: no such call; call #1 book_flight({"flight":{"id":"KQ311"},"passengers":[{"name":"Ada"}]}): ${why}`,
    );
    expect(p.files().filter((f) => f.endsWith(".trace.jsonl"))).toEqual([]);
  });

  test("an assertion value from a ${VAR} is judged against the conversation as it holds that value (written ${NAME})", async () => {
    const p = project();
    p.write(
      "book.flow.yaml",
      agentFlow(OPENAI_AGENT, {
        steps: [
          "  - prompt: Book KQ311 for Ada",
          "  - assert_tool_call: book_flight where flight.id equals ${WANT_FLIGHT}",
          "  - assert: reply contains ${WANT_FLIGHT}",
        ],
      }),
    );
    const rec = await runCli(["record", "book.flow.yaml"], { cwd: p.dir, env: { ...recordEnv(), WANT_FLIGHT: "KQ311" } });
    expect(rec.code, rec.stdout + rec.stderr).toBe(0);
    const run = await runCli(["run", "book.flow.yaml"], { cwd: p.dir, env: { WANT_FLIGHT: "KQ311" } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const other = project();
    other.write("book.flow.yaml", p.read("book.flow.yaml"));
    const wrong = await runCli(["record", "book.flow.yaml"], { cwd: other.dir, env: { ...recordEnv(), WANT_FLIGHT: "KQ999" } });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout + wrong.stderr).toContain(
      'where flight.id equals ${WANT_FLIGHT}: no such call; call #1 book_flight({"flight":{"id":"KQ311"},"passengers":[{"name":"Ada"}]}): flight.id is KQ311',
    );
  });

  test("a replay whose assertion fails: report.html shows the conversation with the failed assertion against the call it missed", async () => {
    const p = project();
    expect((await recordAndCount(p, agentFlow(OPENAI_AGENT))).code).toBe(0);
    // The trace's assertion now wants another flight (the conversation replays unchanged).
    const [header, step] = p.read("book.trace.jsonl").trim().split("\n") as [string, string];
    expect(step).toContain('"value":"KQ311"');
    p.write("book.trace.jsonl", resealed(`${header}\n${step.replace('"value":"KQ311"', '"value":"KQ999"')}\n`));
    const run = await runCli(["run", "book.flow.yaml"], { cwd: p.dir, env: {} });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain("where flight.id equals KQ999 and passengers.0.name equals Ada: no such call");
    const html = p.read(p.files().find((f) => f.endsWith("report.html"))!);
    const flagged = /<li class="call flagged">.*?<\/li>/s.exec(html)?.[0] ?? "";
    expect(flagged).toContain("call #1 <b>book_flight</b>");
    expect(flagged).toContain('<span class="badge failed">assert_tool_call: book_flight where flight.id equals KQ311 and passengers.0.name is Ada</span>');
    expect(flagged).toContain("&quot;KQ311&quot;");
    expect(html).toContain("<pre>Booked KQ311 for Ada.</pre>");
  });

  test("an agent that never calls the model fails the record, naming likely causes; no trace", async () => {
    const p = project();
    p.write("book.flow.yaml", 'name: Quiet\napp: agent\nagent: {command: "true"}\nsteps:\n  - prompt: hi\n');
    const r = await runCli(["record", "book.flow.yaml"], { cwd: p.dir, env: recordEnv() });
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain("made zero model requests");
    expect(r.stdout + r.stderr).toContain("likely causes");
    expect(p.files().filter((f) => f.endsWith(".trace.jsonl"))).toEqual([]);
  });

  test("an upstream that closes mid-answer fails the record naming the upstream, not the agent (exit 2, no trace)", async () => {
    const upstream = createServer((socket) => {
      socket.once("data", () => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"id":"chatcmpl-1","cho');
        setTimeout(() => socket.resetAndDestroy(), 50);
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", () => resolve()));
    try {
      const p = project();
      p.write("book.flow.yaml", agentFlow(OPENAI_AGENT));
      const url = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/v1`;
      const r = await runCli(["record", "book.flow.yaml"], { cwd: p.dir, env: { FLOWPROOF_AGENT_UPSTREAM: url, FLOWPROOF_AGENT_KEY: CANARY } });
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).toContain(
        `s0001.1 (prompt: Book KQ311 for Ada) errored: the upstream model (${url}) failed while sending its answer to model request 1`,
      );
      expect(r.stdout + r.stderr).not.toContain("exited with code");
      expect(r.stdout + r.stderr).not.toMatch(/proxy\.ts:\d+/);
      expect(p.files().filter((f) => f.endsWith(".trace.jsonl"))).toEqual([]);
    } finally {
      upstream.close();
    }
  });

  test("an agent that exits non-zero before reaching the proxy reports its code and stderr", async () => {
    const p = project();
    p.write("book.flow.yaml", 'name: Broken\napp: agent\nagent: {command: "echo missing module openai >&2; exit 7"}\nsteps:\n  - prompt: hi\n');
    const r = await runCli(["record", "book.flow.yaml"], { cwd: p.dir, env: recordEnv() });
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain("exited with code 7 before reaching the model proxy; stderr tail:\nmissing module openai");
  });
});

describe("bad input", () => {
  test.each([
    ["both command and url", "agent: {command: a, url: http://127.0.0.1:1/}\nsteps:\n  - prompt: hi\n", "3:21", "both `command:` and `url:`"],
    ["url without proxy_port", "agent: {url: http://127.0.0.1:1/}\nsteps:\n  - prompt: hi\n", "3:9", "needs `proxy_port:`"],
    ["an unknown agent key", "agent: {command: a, cwd: x}\nsteps:\n  - prompt: hi\n", "3:21", "unknown key `cwd`"],
    [
      "a regex that does not compile",
      "agent: {command: a}\nsteps:\n  - prompt: hi\n  - assert_tool_call: t where a matches [z-a]\n",
      "6:31",
      "not a valid regular expression",
    ],
    ["a UI step", 'agent: {command: a}\nsteps:\n  - prompt: hi\n  - rules: Click "Save"\n', "6:5", "rules grammar"],
  ])("%s is refused at load with its position, exit 2", async (_name, body, at, message) => {
    const p = project();
    p.write("bad.flow.yaml", `name: Bad\napp: agent\n${body}`);
    const r = await runCli(["validate", "bad.flow.yaml"], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.stderr + r.stdout).toContain(`bad.flow.yaml:${at}`);
    expect(r.stderr + r.stdout).toContain(message);
  });

  test("agent keys on a web flow, and agent steps in it, are refused", async () => {
    const p = project();
    p.write("bad.flow.yaml", "name: Bad\napp: web\nurl: http://127.0.0.1:1/\nstrict: true\nsteps:\n  - assert_tool_call: t\n");
    const r = await runCli(["validate", "bad.flow.yaml"], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.stderr + r.stdout).toContain("bad.flow.yaml:4:1");
    expect(r.stderr + r.stdout).toContain("bad.flow.yaml:6:5");
  });

  test("a cassette edited into an invalid shape is refused before the agent runs (exit 2), never a crash", async () => {
    const p = project();
    expect((await recordAndCount(p, agentFlow(OPENAI_AGENT))).code).toBe(0);
    p.write("book.trace.jsonl", p.read("book.trace.jsonl").replace('"protocol":"openai"', '"protocol":"cohere"'));
    const r = await runCli(["run", "book.flow.yaml"], { cwd: p.dir, env: {} });
    expect(r.code).toBe(2);
    // Refused when the trace is read, naming the line, the turn and what is wrong.
    expect(r.stderr + r.stdout).toContain(
      'book.trace.jsonl:2:1: error[bad-trace] step line 2: cassette turn 1 of 2 has protocol "cohere"; expected "openai", "openai-responses", "anthropic", "gemini"',
    );
    // The second turn without its request.
    const lines = p.read("book.trace.jsonl").replace('"protocol":"cohere"', '"protocol":"openai"').split("\n");
    const step = JSON.parse(lines[1]!) as { action: { params: { cassette: Array<Record<string, unknown>> } } };
    delete step.action.params.cassette[1]!["request"];
    p.write("book.trace.jsonl", [lines[0], JSON.stringify(step), ""].join("\n"));
    const second = await runCli(["run", "book.flow.yaml"], { cwd: p.dir, env: {} });
    expect(second.code).toBe(2);
    expect(second.stderr + second.stdout).toContain(
      "book.trace.jsonl:2:1: error[bad-trace] step line 2: cassette turn 2 of 2 has no `request`; expected the JSON body as an object",
    );
  });
});

describe("values the model sees", () => {
  test("a ${VAR} in the prompt reaches the model but never the trace; replay matches it; a tools: result is what the model is told", async () => {
    const p = project();
    const secret = "tok-4d2e9a7b31";
    const flow = agentFlow(OPENAI_AGENT, {
      env: '{AGENT_NOTE: "voucher ${VOUCHER} in hand"}',
      top: "tools:\n  - name: book_flight\n    result: {booking: {flight: {id: KQ311}, status: held}}",
      steps: [
        "  - prompt: Book KQ311 for Ada with voucher ${VOUCHER}",
        "  - assert_tool_call: book_flight where flight.id equals KQ311",
        "  - assert: reply contains Booked",
      ],
    });
    p.write("book.flow.yaml", flow);
    const before = model.requests.length;
    const rec = await runCli(["record", "book.flow.yaml"], { cwd: p.dir, env: { ...recordEnv(), VOUCHER: secret } });
    expect(rec.code).toBe(0);
    const sent = model.requests.slice(before).map((r) => JSON.stringify(r.body));
    expect(sent[0]).toContain(secret);
    // The agent's own tool said "confirmed"; the model was told the declared result instead.
    expect(sent[1]).toContain("held");
    expect(sent[1]).not.toContain("confirmed");
    const trace = p.read("book.trace.jsonl");
    expect(trace).not.toContain(secret);
    expect(trace).toContain("${VOUCHER}");
    const run = await runCli(["run", "book.flow.yaml", "--json"], { cwd: p.dir, env: { VOUCHER: secret } });
    expect(run.code).toBe(0);
    // The agent's stdout and stderr are kept in the run bundle, redacted.
    const { run_dir: runDir, report } = JSON.parse(run.stdout) as {
      run_dir: string;
      report: { steps: Array<{ agent?: { output?: { stdout: string; stderr: string } } }> };
    };
    const output = report.steps[0]!.agent!.output!;
    expect(readFileSync(resolve(p.dir, runDir, output.stdout), "utf8")).toContain("Booked");
    const stderr = readFileSync(resolve(p.dir, runDir, output.stderr), "utf8");
    expect(stderr).toContain("voucher ");
    expect(stderr).toContain(" in hand");
    for (const f of p.files()) expect(readFileSync(join(p.dir, f), "utf8").includes(secret)).toBe(false);
  });
});

describe("the agent's processes", () => {
  // Running, not a zombie waiting for a parent (in a container, init may not reap at once).
  const alive = (pid: number) => {
    try {
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
    } catch {
      return false;
    }
  };

  /** Live processes whose command line holds `marker` (found by name: inside a PID namespace a pid means another thing). */
  const livingWith = (marker: string): number[] =>
    readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return readFileSync(`/proc/${d}/cmdline`, "utf8").includes(marker) && alive(Number(d));
        } catch {
          return false;
        }
      })
      .map(Number);

  let slowAgents = 0;
  /** Records an agent flow whose agent starts a child and waits; answers flowproof's process and the pids of the agent and its child. */
  async function slowAgent() {
    const p = project();
    const marker = `120.${process.pid}0${++slowAgents}`;
    p.write("slow.flow.yaml", `name: Slow\napp: agent\nagent: {command: "sleep ${marker} & echo started > agent.pid; wait"}\nsteps:\n  - prompt: hi\n`);
    const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), "record", "slow.flow.yaml"], {
      cwd: p.dir,
      env: { ...process.env, ...recordEnv() },
      stdout: "pipe",
      stderr: "pipe",
    });
    const deadline = Date.now() + 30_000;
    // The agent's shell and its child, both named by the marker.
    while (!(p.files().includes("agent.pid") && livingWith(marker).length === 2) && Date.now() < deadline) await Bun.sleep(100);
    await Bun.sleep(200);
    const pids = livingWith(marker);
    expect(pids).toHaveLength(2);
    return { proc, pids };
  }

  async function ended(pids: readonly number[], withinMs: number): Promise<number[]> {
    const deadline = Date.now() + withinMs;
    while (pids.some(alive) && Date.now() < deadline) await Bun.sleep(100);
    return pids.filter(alive);
  }

  test("SIGTERM to flowproof ends the agent and every child it started", async () => {
    const { proc, pids } = await slowAgent();
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(143);
    expect(await ended(pids, 300)).toEqual([]);
  });

  test("SIGKILL to flowproof (no handler or exit hook runs) still ends the agent and every child it started", async () => {
    const { proc, pids } = await slowAgent();
    proc.kill("SIGKILL");
    await proc.exited;
    expect(await ended(pids, 5_000)).toEqual([]);
  });

  // A grandchild that double-forks into a session of its own (setsid) and keeps the agent's stdout open.
  const escapee = (marker: string) => `(setsid sh -c 'exec sleep ${marker}' &); echo started > started.txt; sleep 120`;

  describe.each([
    ["contained", "on"],
    ["not contained", "off"],
  ])("%s", (_name, containment) => {
    test("a descendant that left the agent's process group and holds its output ends with the flow, at the flow's bound", async () => {
      const p = project();
      const marker = `120.${process.pid}${containment === "on" ? 1 : 2}1`;
      p.write("slow.flow.yaml", `name: Slow\napp: agent\nagent: {command: "${escapee(marker)}", timeout_seconds: 2}\nsteps:\n  - prompt: hi\n`);
      const started = Date.now();
      const r = await runCli(["record", "slow.flow.yaml"], { cwd: p.dir, env: { ...recordEnv(), FLOWPROOF_CONTAINMENT: containment } });
      expect(r.stdout + r.stderr).toContain("did not finish within 2 s");
      expect(Date.now() - started).toBeLessThan(9_000);
      expect(livingWith(`sleep\0${marker}`)).toEqual([]);
    });

    test("SIGKILL to flowproof ends a descendant that left the agent's process group", async () => {
      const p = project();
      const marker = `120.${process.pid}${containment === "on" ? 1 : 2}2`;
      p.write("slow.flow.yaml", `name: Slow\napp: agent\nagent: {command: "${escapee(marker)}"}\nsteps:\n  - prompt: hi\n`);
      const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), "record", "slow.flow.yaml"], {
        cwd: p.dir,
        env: { ...process.env, ...recordEnv(), FLOWPROOF_CONTAINMENT: containment },
        stdout: "pipe",
        stderr: "pipe",
      });
      const deadline = Date.now() + 30_000;
      while (!(p.files().includes("started.txt") && livingWith(`sleep\0${marker}`).length > 0) && Date.now() < deadline) await Bun.sleep(100);
      expect(livingWith(`sleep\0${marker}`)).toHaveLength(1);
      proc.kill("SIGKILL");
      await proc.exited;
      const gone = Date.now() + 5_000;
      while (livingWith(`sleep\0${marker}`).length > 0 && Date.now() < gone) await Bun.sleep(100);
      expect(livingWith(`sleep\0${marker}`)).toEqual([]);
    });
  });
});

describe("an agent run as a service (agent.url)", () => {
  test("flowproof POSTs the task; the service's model client goes through proxy_port; replay needs no model", async () => {
    const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const proxyPort = probe.port!;
    probe.stop(true);
    const service = Bun.spawn([BUN, join(REPO_ROOT, "test", "fixtures", "agents", "service.mjs")], {
      env: { ...process.env, OPENAI_BASE_URL: `http://127.0.0.1:${proxyPort}/v1`, OPENAI_API_KEY: "service-placeholder" },
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      const reader = service.stdout.getReader();
      const port = new TextDecoder().decode((await reader.read()).value).trim();
      const p = project();
      p.write(
        "svc.flow.yaml",
        [
          "name: Book through the service",
          "app: agent",
          "agent:",
          `  url: http://127.0.0.1:${port}/run`,
          `  proxy_port: ${proxyPort}`,
          "  headers: {X-Test: yes}",
          "steps:",
          "  - prompt: Book KQ311 for Ada",
          "  - assert_tool_call: book_flight where flight.id equals KQ311",
          "  - assert: reply contains Booked KQ311",
          "",
        ].join("\n"),
      );
      const before = model.requests.length;
      const rec = await runCli(["record", "svc.flow.yaml"], { cwd: p.dir, env: recordEnv() });
      expect(rec.stdout + rec.stderr).not.toContain(CANARY);
      expect(rec.code).toBe(0);
      expect(model.requests.length - before).toBe(2);
      const replayed = model.requests.length;
      const run = await runCli(["run", "svc.flow.yaml"], { cwd: p.dir, env: {} });
      expect(run.code).toBe(0);
      expect(model.requests.length).toBe(replayed);
    } finally {
      service.kill();
    }
  });

  test("follow_up: one POST per delivery, each after the previous one was answered, under one conversation id; replay needs no model", async () => {
    const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const proxyPort = probe.port!;
    probe.stop(true);
    const p = project();
    const log = join(p.dir, "service.log");
    const service = Bun.spawn([BUN, join(REPO_ROOT, "test", "fixtures", "agents", "service.mjs")], {
      env: { ...process.env, OPENAI_BASE_URL: `http://127.0.0.1:${proxyPort}/v1`, OPENAI_API_KEY: "service-placeholder", SERVICE_LOG: log },
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      const reader = service.stdout.getReader();
      const port = new TextDecoder().decode((await reader.read()).value).trim();
      p.write(
        "svc.flow.yaml",
        [
          "name: Book and add a seat through the service",
          "app: agent",
          "agent:",
          `  url: http://127.0.0.1:${port}/run`,
          `  proxy_port: ${proxyPort}`,
          "steps:",
          "  - prompt: Book KQ311 for Ada",
          "  - assert_tool_call: book_flight where flight.id equals KQ311",
          "  - follow_up: Add a window seat",
          "  - assert: reply contains Window seat 14A",
          "",
        ].join("\n"),
      );
      const before = model.requests.length;
      const rec = await runCli(["record", "svc.flow.yaml"], { cwd: p.dir, env: recordEnv() });
      expect(rec.code, rec.stdout + rec.stderr).toBe(0);
      const recorded = model.requests.length - before;
      expect(recorded).toBeGreaterThanOrEqual(3);
      type Posted = { prompt: string; conversation: string; delivery: number; deliveries: number; received_at: number };
      type Answered = { answered: number; answered_at: number };
      const lines = () =>
        readFileSync(log, "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as Posted | Answered);
      const posts = () => lines().filter((l): l is Posted => "prompt" in l);
      const atRecord = posts();
      expect(atRecord.map((b) => [b.prompt, b.delivery, b.deliveries])).toEqual([
        ["Book KQ311 for Ada", 1, 2],
        ["Add a window seat", 2, 2],
      ]);
      expect(atRecord[0]!.conversation).toBe(atRecord[1]!.conversation);
      // The second delivery was sent only once the first was answered.
      const firstAnswered = lines().find((l): l is Answered => "answered" in l && l.answered === 1)!;
      expect(atRecord[1]!.received_at).toBeGreaterThanOrEqual(firstAnswered.answered_at);
      const replayed = model.requests.length;
      const run = await runCli(["run", "svc.flow.yaml", "--json"], { cwd: p.dir, env: {} });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(model.requests.length).toBe(replayed);
      const atReplay = posts().slice(2);
      expect(atReplay.map((b) => [b.prompt, b.delivery])).toEqual([
        ["Book KQ311 for Ada", 1],
        ["Add a window seat", 2],
      ]);
      // A new execution is a new conversation.
      expect(atReplay[0]!.conversation).not.toBe(atRecord[0]!.conversation);
      expect(atReplay[0]!.conversation).toBe(atReplay[1]!.conversation);
    } finally {
      service.kill();
    }
  });
});

describe("assert_no_secret_leak in an agent flow", () => {
  const steps = ["  - prompt: Book KQ311 for Ada", "  - assert_tool_call: book_flight", "  - assert_no_secret_leak: ${LEAKY_NOTE}"];
  const secret = "canary-9b7e1f0c2d";

  test("passes when no body at the model boundary holds the value", async () => {
    const p = project();
    p.write("book.flow.yaml", agentFlow(OPENAI_AGENT, { steps }));
    const r = await runCli(["record", "book.flow.yaml"], { cwd: p.dir, env: { ...recordEnv(), LEAKY_NOTE: secret } });
    expect(r.code).toBe(0);
    const run = await runCli(["run", "book.flow.yaml"], { cwd: p.dir, env: { LEAKY_NOTE: secret } });
    expect(run.code).toBe(0);
  });

  test("a tool result carrying the secret to the model fails the record, naming where; no trace and no value anywhere", async () => {
    const p = project();
    p.write("book.flow.yaml", agentFlow(OPENAI_AGENT, { steps }));
    const r = await runCli(["record", "book.flow.yaml"], { cwd: p.dir, env: { ...recordEnv(), LEAKY_NOTE: secret, LEAK: "1" } });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain("secret leak: ${LEAKY_NOTE} surfaced in model request 2 of step s0001");
    expect(r.stdout + r.stderr).not.toContain(secret);
    expect(p.files().filter((f) => f.endsWith(".trace.jsonl"))).toEqual([]);
    for (const f of p.files()) expect(readFileSync(join(p.dir, f), "utf8").includes(secret)).toBe(false);
  });
});

describe("the library", () => {
  test("Flow.record and Flow.run drive an agent flow like any other; the conversation is in the report", async () => {
    const p = project();
    p.write("book.flow.yaml", agentFlow(OPENAI_AGENT));
    const flow = new Flow(join(p.dir, "book.flow.yaml"));
    const rec = await flow.record({ env: { ...process.env, ...recordEnv() } });
    expect(rec.ok).toBe(true);
    const before = model.requests.length;
    const { report } = await flow.run({ env: { PATH: process.env["PATH"] ?? "" } });
    expect(report.passed).toBe(true);
    expect(model.requests.length).toBe(before);
    expect(report.steps[0]!.agent?.calls.map((c) => c.name)).toEqual(["book_flight"]);
    expect(report.steps[0]!.agent?.reply).toBe("Booked KQ311 for Ada.");
  });
});

describe("flowproof doctor --agent", () => {
  test("a wired agent: OK with the dialect, path and model, exit 0; no key, no upstream", async () => {
    const before = model.requests.length;
    const r = await runCli(["doctor", "--agent", `${BUN} ${OPENAI_AGENT}`], { cwd: REPO_ROOT, env: {} });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("OK: the agent reached flowproof's model proxy (OpenAI chat-completions, POST /v1/chat/completions, model gpt-test)");
    expect(model.requests.length).toBe(before);
  });

  test("an agent with its base URL set in code: NOT WIRED with what to wire, exit 1", async () => {
    const r = await runCli(["doctor", "--agent", `OPENAI_BASE_URL=http://127.0.0.1:9/v1 ${BUN} ${OPENAI_AGENT}`, "--json"], { cwd: REPO_ROOT, env: {} });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { reached: boolean; advice: string[] };
    expect(report.reached).toBe(false);
    expect(report.advice.join("\n")).toContain("point its model client at the variables flowproof injects: OPENAI_BASE_URL");
  });
});

describe("a scripted conversation in an agent flow", () => {
  test("follow_up: steps are later deliveries of one execution: recorded, replayed with zero model requests, judged on the last reply", async () => {
    const p = project();
    const rec = await recordAndCount(
      p,
      agentFlow(OPENAI_AGENT, {
        steps: [
          "  - prompt: Book KQ311 for Ada",
          "  - assert_tool_call: book_flight where flight.id equals KQ311",
          "  - follow_up: Add a window seat",
          "  - assert: reply contains Window seat 14A",
        ],
      }),
    );
    expect(rec.code, rec.stdout + rec.stderr).toBe(0);
    expect(rec.requests).toBe(3);
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain("Add a window seat");
    const before = model.requests.length;
    const run = await runCli(["run", "book.flow.yaml", "--json"], { cwd: p.dir, env: {} });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(model.requests.length).toBe(before);
    const result = JSON.parse(run.stdout) as { report: { steps: Array<{ agent: { turns: number; reply: string } }> } };
    expect(result.report.steps[0]!.agent).toMatchObject({ turns: 3, reply: "Window seat 14A added to KQ311." });
    // An agent that drops the later delivery leaves a recorded turn unasked: the replay fails.
    const dropped = await runCli(["run", "book.flow.yaml"], { cwd: p.dir, env: { DROP_FOLLOW_UPS: "1" } });
    expect(dropped.code).toBe(1);
    expect(dropped.stdout + dropped.stderr).toContain(
      "the agent finished after 2 model requests, but the cassette holds 3: 1 recorded turn(s) were never asked for",
    );
    expect(model.requests.length).toBe(before);
  });

  test("an empty follow_up is refused at load with its position; follow_up on a web flow too", async () => {
    const p = project();
    p.write("bad.flow.yaml", agentFlow(OPENAI_AGENT, { steps: ["  - prompt: Book KQ311", '  - follow_up: ""'] }));
    const r = await runCli(["validate", "bad.flow.yaml"], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.stderr + r.stdout).toContain("bad.flow.yaml:7:16");
    expect(r.stderr + r.stdout).toContain("`follow_up:` takes text");
    p.write("web.flow.yaml", "name: w\napp: web\nurl: http://127.0.0.1:1/\nsteps:\n  - follow_up: more\n");
    const w = await runCli(["validate", "web.flow.yaml"], { cwd: p.dir });
    expect(w.code).toBe(2);
    expect(w.stderr + w.stdout).toContain("web.flow.yaml:5:5");
    expect(w.stderr + w.stdout).toContain("`follow_up:` is an agent step");
  });
});

describe("an agent surface in a multi-surface flow", () => {
  const FLOW = [
    "name: Book from the page",
    "apps:",
    '  site: { app: web, url: "${SITE_URL}/flight" }',
    "  assistant:",
    "    app: agent",
    `    agent: {command: ${BUN} ${OPENAI_AGENT}}`,
    "steps:",
    "  - in: site",
    "    steps:",
    '      - rules: Remember the "id:flight" as flight',
    "  - in: assistant",
    "    steps:",
    "      - prompt: Book ${captured.flight} for Ada",
    "      - assert_tool_call: book_flight where flight.id equals KQ311",
    "      - assert: reply contains Booked KQ311",
    "",
  ].join("\n");

  test("a web block's capture reaches the agent's prompt at execution, stays raw in the trace; one agent_run step replays with no model", async () => {
    requireChromium();
    const site = await startServer();
    site.setRoute("/flight", () => new Response('<!doctype html><title>Flight</title><p id="flight">KQ311</p>', { headers: { "content-type": "text/html" } }));
    try {
      const p = project();
      p.write("book.flow.yaml", FLOW);
      const before = model.requests.length;
      const rec = await runCli(["record", "book.flow.yaml", "--author", "rules"], { cwd: p.dir, env: { ...recordEnv(), SITE_URL: site.url } });
      expect(rec.code, rec.stdout + rec.stderr).toBe(0);
      expect(model.requests.length - before).toBe(2);
      expect(JSON.stringify(model.requests[before]!.body)).toContain("Book KQ311 for Ada");
      const lines = p
        .read("book.trace.jsonl")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect((lines[0]!["apps"] as Record<string, unknown>)["assistant"]).toEqual({ name: "assistant", adapter: "agent" });
      const agentSteps = lines.slice(1).filter((s) => (s["action"] as { type: string }).type === "agent_run") as Array<{
        surface: string;
        intent: string;
        action: { params: { cassette: unknown[] } };
      }>;
      expect(agentSteps).toHaveLength(1);
      expect(agentSteps[0]!.surface).toBe("assistant");
      expect(agentSteps[0]!.intent).toContain("prompt: Book ${captured.flight} for Ada");
      expect(agentSteps[0]!.action.params.cassette).toHaveLength(2);
      // The authored prompt stays raw; the cassette holds what the model was sent.
      expect((agentSteps[0]!.action.params as unknown as { steps: Array<{ text: string }> }).steps[0]!.text).toBe("Book ${captured.flight} for Ada");
      const replayed = model.requests.length;
      const run = await runCli(["run", "book.flow.yaml", "--json"], { cwd: p.dir, env: { SITE_URL: site.url } });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(model.requests.length).toBe(replayed);
      noCanaryUnder(p);
    } finally {
      site.stop();
    }
  }, 180_000);

  test("a scripted conversation: two deliveries in one agent block record as one agent_run step and replay with no model", async () => {
    requireChromium();
    const site = await startServer();
    site.setRoute("/flight", () => new Response('<!doctype html><title>Flight</title><p id="flight">KQ311</p>', { headers: { "content-type": "text/html" } }));
    try {
      const p = project();
      p.write(
        "book.flow.yaml",
        FLOW.replace(
          "      - assert: reply contains Booked KQ311",
          "      - follow_up: Add a window seat on ${captured.flight}\n      - assert: reply contains Window seat 14A",
        ),
      );
      const before = model.requests.length;
      const rec = await runCli(["record", "book.flow.yaml", "--author", "rules"], { cwd: p.dir, env: { ...recordEnv(), SITE_URL: site.url } });
      expect(rec.code, rec.stdout + rec.stderr).toBe(0);
      // Delivery 1: a tool call and its answer; delivery 2: one more turn, carrying the follow-up.
      expect(model.requests.length - before).toBe(3);
      const third = JSON.stringify(model.requests.at(-1)!.body);
      expect(third).toContain("Book KQ311 for Ada");
      expect(third).toContain("Booked KQ311 for Ada.");
      expect(third).toContain("Add a window seat on KQ311");
      const lines = p
        .read("book.trace.jsonl")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const agentSteps = lines.slice(1).filter((s) => (s["action"] as { type: string }).type === "agent_run") as Array<{
        intent: string;
        action: { params: { cassette: unknown[]; steps: Array<{ kind: string; message?: string }> } };
      }>;
      expect(agentSteps).toHaveLength(1);
      expect(agentSteps[0]!.intent).toContain("follow_up: Add a window seat on ${captured.flight}");
      expect(agentSteps[0]!.action.params.cassette).toHaveLength(3);
      expect(agentSteps[0]!.action.params.steps.find((s) => s.kind === "follow_up")!.message).toBe("Add a window seat on ${captured.flight}");
      const replayed = model.requests.length;
      const run = await runCli(["run", "book.flow.yaml", "--json"], { cwd: p.dir, env: { SITE_URL: site.url } });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(model.requests.length).toBe(replayed);
    } finally {
      site.stop();
    }
  }, 180_000);

  test("a UI step inside an agent block is a load error naming both grammars", async () => {
    const p = project();
    p.write("bad.flow.yaml", FLOW.replace("      - assert: reply contains Booked KQ311", '      - rules: Press the "Book" button'));
    const r = await runCli(["validate", "bad.flow.yaml"], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.stderr + r.stdout).toContain("bad.flow.yaml:15:9");
    expect(r.stderr + r.stdout).toContain("`rules:` is a UI/structured step (rules grammar); an agent flow takes agent steps only");
  });
});
