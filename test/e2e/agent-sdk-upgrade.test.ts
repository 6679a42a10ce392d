// An agent SDK upgrade does not break replay: a booking agent on the OpenAI Agents SDK, two
// published versions from npm pinned side by side in test/fixtures/agent-sdk-upgrade/package.json
// (installed at test time with `npm install --ignore-scripts`), recorded with the older one and
// replayed with the newer one, whose chat-completions requests differ on the wire (the newer drops
// `response_format`, sends `content: null` on a tool-calling message). By the conversation (the
// default `match:`) the replay passes with those differences as notes; `match: strict` still
// diverges on them; and a changed tool result still fails, in the flow's words.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, REPO_ROOT } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { startAgentModel, type AgentModel } from "../support/model-server.ts";

const BUN = process.execPath;
const FIXTURE = join(REPO_ROOT, "test", "fixtures", "agent-sdk-upgrade");

let model: AgentModel;
let project: TmpProject;

beforeAll(async () => {
  model = startAgentModel((turn) =>
    turn === 0 ? { tool: "book_flight", args: { flight: { id: "KQ311" }, passengers: [{ name: "Ada" }] } } : { text: "Booked KQ311 for Ada." },
  );
  project = tmpProject("flowproof-agent-upgrade-");
  for (const f of ["package.json", "agent.mjs"]) copyFileSync(join(FIXTURE, f), join(project.dir, f));
  const npm = Bun.spawn(["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: project.dir, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(npm.stdout).text(), new Response(npm.stderr).text(), npm.exited]);
  if (code !== 0) throw new Error(`npm install of the fixture's SDK versions failed (${code}):\n${out}${err}`);
}, 300_000);
afterAll(() => {
  model?.stop();
  project?.remove();
});

const flow = (match?: string) =>
  [
    "name: Book with the Agents SDK",
    "app: agent",
    "agent:",
    `  command: ${BUN} agent.mjs`,
    ...(match ? [`match: ${match}`] : []),
    "steps:",
    "  - prompt: Book KQ311 for Ada",
    "  - assert_tool_call: book_flight where flight.id equals KQ311",
    "  - assert: reply contains Booked KQ311",
    "",
  ].join("\n");

describe("an agent SDK upgrade between record and replay", () => {
  test("recorded with @openai/agents 0.3.0, replays green with 0.20.0 by the conversation; strict still sees the wire change; a changed tool result still fails", async () => {
    project.write("book.flow.yaml", flow());
    const rec = await runCli(["record", "book.flow.yaml"], { cwd: project.dir, env: { FLOWPROOF_AGENT_UPSTREAM: model.url, AGENTS_PACKAGE: "agents-old" } });
    expect(rec.code, rec.stdout + rec.stderr).toBe(0);
    const cassette = (
      JSON.parse(project.read("book.trace.jsonl").trim().split("\n")[1]!) as { action: { params: { cassette: Array<{ request: Record<string, unknown> }> } } }
    ).action.params.cassette;
    expect(cassette).toHaveLength(2);
    expect(cassette[0]!.request["response_format"]).toEqual({ type: "text" });

    const asked = model.requests.length;
    const run = await runCli(["run", "book.flow.yaml", "--json"], { cwd: project.dir, env: { AGENTS_PACKAGE: "agents-new" } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(model.requests.length).toBe(asked);
    const { report } = JSON.parse(run.stdout) as { report: { steps: Array<{ status: string; agent?: { notes?: string[] } }> } };
    expect(report.steps.map((s) => s.status)).toEqual(["passed", "passed", "passed"]);
    // What the newer SDK sends differently is a note on the step, not a divergence.
    expect(report.steps[0]!.agent!.notes!.join("\n")).toContain(
      'turn 1: request fields that differ from the recording, not compared (match: conversation): response_format: recorded {"type":"text"}, replayed (absent)',
    );

    // Recorded under `match: strict`, the wire change is a divergence…
    const recordOld = async (match?: string) => {
      project.write("book.flow.yaml", flow(match));
      const r = await runCli(["record", "book.flow.yaml"], { cwd: project.dir, env: { FLOWPROOF_AGENT_UPSTREAM: model.url, AGENTS_PACKAGE: "agents-old" } });
      expect(r.code, r.stdout + r.stderr).toBe(0);
    };
    await recordOld("strict");
    const strict = await runCli(["run", "book.flow.yaml"], { cwd: project.dir, env: { AGENTS_PACKAGE: "agents-new" } });
    expect(strict.code, strict.stdout + strict.stderr).toBe(1);
    expect(strict.stdout).toContain("turn 1: the request differs outside the conversation (`match: strict` compares every field)");
    expect(strict.stdout).toContain('model request 1 (wire): response_format: recorded {"type":"text"}, replayed (absent)');
    // …unless the flow names the fields to ignore.
    await recordOld("{by: strict, ignore: [response_format, messages.2.content]}");
    const ignored = await runCli(["run", "book.flow.yaml"], { cwd: project.dir, env: { AGENTS_PACKAGE: "agents-new" } });
    expect(ignored.code, ignored.stdout + ignored.stderr).toBe(0);

    // The upgraded agent's tool now answers differently: a divergence in the flow's words; the tool-call line is still judged.
    await recordOld();
    const recorded = model.requests.length;
    const drift = await runCli(["run", "book.flow.yaml"], { cwd: project.dir, env: { AGENTS_PACKAGE: "agents-new", BOOKED_FLIGHT: "BA065" } });
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain("[FAIL] s0001.1 prompt: Book KQ311 for Ada — turn 2: book_flight returned booking.flight.id BA065 (recorded KQ311)");
    expect(drift.stdout).toContain("model request 2 (wire): messages.3.content.booking.flight.id: recorded KQ311, replayed BA065");
    expect(drift.stdout).toContain("[PASS] s0001.2 assert_tool_call: book_flight where flight.id equals KQ311");
    expect(model.requests.length).toBe(recorded);
  }, 240_000);
});
