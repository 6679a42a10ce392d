// Agents written with real agent frameworks from npm — the OpenAI Agents SDK (on the Responses API,
// streaming, and on chat completions) and the Vercel AI SDK (@ai-sdk/openai on the Responses API,
// @ai-sdk/anthropic, @ai-sdk/google on Gemini generateContent) — recorded through the real CLI
// against a scripted local model server, replayed with that server unasked, each authored step a
// report line of its own.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { runCli, REPO_ROOT } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { startAgentModel, type AgentModel } from "../support/model-server.ts";

const BUN = process.execPath;
const AGENT = join(REPO_ROOT, "test", "fixtures", "agents", "sdk-agent.mjs");
const CANARY = "sk-canary-2c8e4f6a1d";

let model: AgentModel;
const projects: TmpProject[] = [];

beforeAll(() => {
  model = startAgentModel((turn) =>
    turn === 0 ? { tool: "book_flight", args: { flight: { id: "KQ311" }, passengers: [{ name: "Ada" }] } } : { text: "Booked KQ311 for Ada." },
  );
});
afterAll(() => {
  model.stop();
  for (const p of projects) p.remove();
});

function project(): TmpProject {
  const p = tmpProject("flowproof-agent-sdk-");
  projects.push(p);
  return p;
}

const flow = (sdk: string, stream = false) =>
  [
    `name: Book with ${sdk}`,
    "app: agent",
    "agent:",
    `  command: ${BUN} ${AGENT}`,
    `  env: {AGENT_SDK: ${sdk}${stream ? ', AGENT_STREAM: "1"' : ""}}`,
    "steps:",
    "  - prompt: Book KQ311 for Ada",
    "  - assert_tool_call: book_flight where flight.id equals KQ311 and passengers.0.name is Ada",
    "  - assert: reply contains Booked KQ311",
    "",
  ].join("\n");

interface Result {
  model_calls?: number;
  steps: Array<{
    id: string;
    intent: string;
    status: string;
    detail?: string;
    agent?: { turns: number; model_calls: number; calls: Array<{ turn: number; name: string }> };
  }>;
}

describe.each([
  ["the OpenAI Agents SDK on the Responses API, streaming", "agents-responses", true, "openai-responses"],
  ["the OpenAI Agents SDK on chat completions", "agents-chat", false, "openai"],
  ["the Vercel AI SDK with @ai-sdk/openai (Responses), generateText", "ai-openai", false, "openai-responses"],
  ["the Vercel AI SDK with @ai-sdk/anthropic, streamText", "ai-anthropic", false, "anthropic"],
  ["the Vercel AI SDK with @ai-sdk/google (Gemini), streamText", "ai-google", false, "gemini"],
] as const)("%s", (_name, sdk, stream, protocol) => {
  test("records through the proxy with the key only in the upstream header, replays with zero model calls, one line per step; a changed tool result fails its prompt line", async () => {
    const p = project();
    p.write("book.flow.yaml", flow(sdk, stream));
    const before = model.requests.length;
    const rec = await runCli(["record", "book.flow.yaml"], { cwd: p.dir, env: { FLOWPROOF_AGENT_UPSTREAM: model.url, FLOWPROOF_AGENT_KEY: CANARY } });
    expect(rec.code, rec.stdout + rec.stderr).toBe(0);
    // An agent run is recorded, not authored: each of its steps is a line of its own.
    expect(rec.stderr).toContain("[RECORD agent] 1.1: prompt: Book KQ311 for Ada\n[RECORD agent] 1.2: assert_tool_call: book_flight");
    expect(rec.stderr).not.toContain("[AUTHOR");
    const sent = model.requests.slice(before);
    expect(sent.map((r) => r.protocol)).toEqual([protocol, protocol]);
    expect(sent.every((r) => r.authorization === `Bearer ${CANARY}` || r.apiKey === CANARY)).toBe(true);
    const step = JSON.parse(p.read("book.trace.jsonl").trim().split("\n")[1]!) as { action: { params: { cassette: Array<{ protocol: string }> } } };
    expect(step.action.params.cassette.map((t) => t.protocol)).toEqual([protocol, protocol]);

    const replayed = model.requests.length;
    const run = await runCli(["run", "book.flow.yaml", "--json"], { cwd: p.dir, env: {} });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(model.requests.length).toBe(replayed);
    const { report } = JSON.parse(run.stdout) as { report: Result };
    expect(report.model_calls).toBe(0);
    expect(report.steps.map((s) => [s.id, s.intent, s.status])).toEqual([
      ["s0001.1", "prompt: Book KQ311 for Ada", "passed"],
      ["s0001.2", "assert_tool_call: book_flight where flight.id equals KQ311 and passengers.0.name is Ada", "passed"],
      ["s0001.3", "assert: reply contains Booked KQ311", "passed"],
    ]);
    expect(report.steps[0]!.agent).toMatchObject({ turns: 2, model_calls: 0, calls: [{ turn: 1, name: "book_flight" }] });

    // The agent's own tool now answers differently: the divergence is the prompt's line, in the flow's words with the wire path
    // as a detail line; the tool-call assertion is judged over the calls made up to there, the reply is not.
    const drift = await runCli(["run", "book.flow.yaml"], { cwd: p.dir, env: { BOOKED_FLIGHT: "KQ999" } });
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain("[FAIL] s0001.1 prompt: Book KQ311 for Ada — turn 2: book_flight returned booking.flight.id KQ999 (recorded KQ311)");
    expect(drift.stdout).toMatch(/model request 2 \(wire\): \S*booking\.flight\.id: recorded KQ311, replayed KQ999/);
    expect(drift.stdout).toContain("[PASS] s0001.2 assert_tool_call");
    expect(drift.stdout).toContain("[SKIP] s0001.3 assert: reply contains Booked KQ311");
    // report.html shows the call with the result it had at replay, and marks the turn that diverged.
    const html = p.read(/-> (\S+report\.html)/.exec(drift.stdout)![1]!);
    expect(html).toContain('turn 2 · <span class="badge failed">diverged</span>');
    expect(html).toContain('<div class="result-label">result at replay</div>');
    expect(html).toContain("KQ999");
    expect(model.requests.length).toBe(replayed);
    for (const f of p.files()) expect(readFileSync(join(p.dir, f), "utf8").includes(CANARY)).toBe(false);
  });
});

describe("the report of an agent run", () => {
  test("junit.xml and report.html list each authored step; the header counts model calls, not frames", async () => {
    const p = project();
    p.write("book.flow.yaml", flow("agents-chat"));
    expect((await runCli(["record", "book.flow.yaml"], { cwd: p.dir, env: { FLOWPROOF_AGENT_UPSTREAM: model.url } })).code).toBe(0);
    const run = await runCli(["run", "book.flow.yaml", "--json"], { cwd: p.dir, env: {} });
    const paths = JSON.parse(run.stdout) as { junit_path: string; html_path: string };
    const junit = readFileSync(paths.junit_path, "utf8");
    expect(junit.match(/<testcase /g)).toHaveLength(3);
    expect(junit).toContain("s0001.2 assert_tool_call: book_flight");
    const html = readFileSync(paths.html_path, "utf8");
    expect(html.match(/<tr class="passed[^"]*" data-step="s0001\.\d"/g)).toHaveLength(3);
    expect(html).toContain(" · 0 model calls</div>");
    expect(html).not.toContain("frames (filmstrip/1)");
    expect(html).not.toContain('<th class="num">Frames</th>');
    // Every line of the run shows its conversation.
    expect(html.match(/<div class="conversation">/g)).toHaveLength(3);
    expect(html).toContain("turn 1 · call #1 <b>book_flight</b>");
  });
});

describe("flowproof doctor --agent on every dialect", () => {
  test.each([
    ["agents-responses", "OpenAI Responses, POST /v1/responses, model gpt-test"],
    ["ai-google", "Google Gemini streamGenerateContent, POST /v1beta/models/gemini-test:streamGenerateContent, model gemini-test"],
  ])("%s: OK with the dialect, path and model, no key, no upstream", async (sdk, said) => {
    const before = model.requests.length;
    const r = await runCli(["doctor", "--agent", `AGENT_SDK=${sdk} ${BUN} ${AGENT}`], { cwd: REPO_ROOT, env: {} });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`OK: the agent reached flowproof's model proxy (${said})`);
    expect(model.requests.length).toBe(before);
  });
});

describe("an endpoint flowproof does not serve", () => {
  test("fails the record naming the method and path, not as an agent that never reached the proxy (exit 2, no trace)", async () => {
    const p = project();
    p.write("embed.mjs", 'const r = await fetch(`${process.env.OPENAI_BASE_URL}/embeddings`, { method: "POST", body: "{}" });\nprocess.exit(r.ok ? 0 : 1);\n');
    p.write("embed.flow.yaml", ["name: Embeddings", "app: agent", "agent:", `  command: ${BUN} embed.mjs`, "steps:", "  - prompt: Embed this", ""].join("\n"));
    const r = await runCli(["record", "embed.flow.yaml"], { cwd: p.dir, env: { FLOWPROOF_AGENT_UPSTREAM: model.url } });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain(
      "the agent sent POST /v1/embeddings to flowproof's model proxy, which serves POST …/chat/completions, POST …/responses",
    );
    expect(r.stdout + r.stderr).not.toContain("before reaching the model proxy");
    expect(p.files().filter((f) => f.endsWith(".trace.jsonl"))).toEqual([]);
  });
});
