// Agent flows end to end through the real CLI: real agent programs (the official `openai`
// package with a tool-calling loop, streaming on and off; raw-HTTP Anthropic Messages) recorded
// against a scripted local model server, then replayed with that server stopped.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { runCli, REPO_ROOT } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { startAgentModel, type AgentModel } from "../support/model-server.ts";

const BUN = process.execPath;
const OPENAI_AGENT = join(REPO_ROOT, "test", "fixtures", "agents", "openai-agent.mjs");
const ANTHROPIC_AGENT = join(REPO_ROOT, "test", "fixtures", "agents", "anthropic-agent.mjs");
const CANARY = "sk-canary-7f3a9c1e5b";

let model: AgentModel;
let modelUrl: string;
const projects: TmpProject[] = [];

beforeAll(() => {
  model = startAgentModel((turn) => (turn === 0
    ? { tool: "book_flight", args: { flight: { id: "KQ311" }, passengers: [{ name: "Ada" }] } }
    : { text: "Booked KQ311 for Ada." }));
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
  ["openai, streaming", OPENAI_AGENT, "{AGENT_STREAM: \"1\"}"],
  ["anthropic over raw HTTP", ANTHROPIC_AGENT, undefined],
] as const)("%s", (_name, file, env) => {
  test("records through the proxy, then replays with zero model requests; the key reaches only the upstream header", async () => {
    const p = project();
    const rec = await recordAndCount(p, agentFlow(file, env ? { env } : {}));
    expect(rec.stderr + rec.stdout).not.toContain(CANARY);
    expect(rec.code).toBe(0);
    expect(rec.requests).toBe(2);
    const last = model.requests.at(-1)!;
    expect(last.authorization === `Bearer ${CANARY}` || last.apiKey === CANARY).toBe(true);
    const trace = p.read("book.trace.jsonl").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(trace).toHaveLength(2);
    const step = trace[1] as { action: { type: string; params: { cassette: unknown[] } } };
    expect(step.action.type).toBe("agent_run");
    expect(step.action.params.cassette).toHaveLength(2);
    const before = model.requests.length;
    // Replay: no upstream configured at all, and the model server must not be asked.
    const run = await runCli(["run", "book.flow.yaml", "--json"], { cwd: p.dir, env: {} });
    expect(run.code).toBe(0);
    expect(model.requests.length).toBe(before);
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
