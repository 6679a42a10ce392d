// `flowproof heal` of an agent flow through the real CLI: the recorded turns are served while the
// agent's requests still match them; from the first that does not, the live (scripted) upstream
// answers and is recorded. The proposal and `<stem>.heal.html` (turn by turn, recorded beside new)
// are left for review; only `--apply` replaces the trace.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runCli, REPO_ROOT } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { startAgentModel, type AgentModel } from "../support/model-server.ts";

const BUN = process.execPath;
const AGENT = join(REPO_ROOT, "test", "fixtures", "agents", "openai-agent.mjs");

let model: AgentModel;
const projects: TmpProject[] = [];

beforeAll(() => {
  // The final reply names the flight the tool booked, so a changed tool changes the conversation after it.
  model = startAgentModel((turn, body) => {
    if (turn === 0) return { tool: "book_flight", args: { flight: { id: "KQ311" }, passengers: [{ name: "Ada" }] } };
    const booked = /"id":"(\w+)"/.exec(JSON.stringify((body["messages"] as unknown[]).at(-1)).replace(/\\"/g, '"'))?.[1] ?? "?";
    return { text: `Booked ${booked} for Ada.` };
  });
});
afterAll(() => {
  model.stop();
  for (const p of projects) p.remove();
});

const FLOW = [
  "name: Book a flight",
  "app: agent",
  "agent:",
  `  command: ${BUN} ${AGENT}`,
  "steps:",
  "  - prompt: Book KQ311 for Ada",
  "  - assert_tool_call: book_flight where flight.id equals KQ311",
  "  - assert: reply contains Booked",
  "",
].join("\n");
const upstream = () => ({ FLOWPROOF_AGENT_UPSTREAM: model.url, FLOWPROOF_AGENT_KEY: "sk-heal-test" });

describe("flowproof heal <agent flow>", () => {
  test("re-records from the first diverging turn, writes a turn-by-turn review, applies only with --apply", async () => {
    const p = tmpProject("flowproof-agent-heal-");
    projects.push(p);
    p.write("book.flow.yaml", FLOW);
    expect((await runCli(["record", "book.flow.yaml"], { cwd: p.dir, env: upstream() })).code).toBe(0);
    const recorded = p.read("book.trace.jsonl");

    // Nothing changed: healthy, no upstream call, no proposal.
    let asked = model.requests.length;
    const healthy = await runCli(["heal", "book.flow.yaml"], { cwd: p.dir, env: upstream() });
    expect(healthy.code, healthy.stdout + healthy.stderr).toBe(0);
    expect(healthy.stdout).toContain("HEALTHY: Book a flight");
    expect(model.requests.length).toBe(asked);
    expect(existsSync(join(p.dir, "book.proposed.jsonl"))).toBe(false);

    // The agent's tool now books BA065: turn 1 still matches (kept), turn 2 is asked of the live model.
    asked = model.requests.length;
    const heal = await runCli(["heal", "book.flow.yaml"], { cwd: p.dir, env: { ...upstream(), BOOKED_FLIGHT: "BA065" } });
    expect(heal.stdout).toContain("[CHANGED] s0001 agent run: 1 of 2 recorded turns kept, re-recorded from turn 2 (2 turns now)");
    expect(heal.stdout).toContain("REVIEW: book.heal.html");
    expect(heal.stdout).toContain("PROPOSED: review book.proposed.jsonl then re-run with --apply");
    expect(model.requests.length - asked).toBe(1);
    expect(p.read("book.trace.jsonl")).toBe(recorded);
    const html = p.read("book.heal.html");
    expect(html).toContain('<tr class="kept"><th>turn 1');
    expect(html).toContain('<tr class="diverged"><th>turn 2');
    expect(html).toContain("reply: Booked KQ311 for Ada.");
    expect(html).toContain("reply: Booked BA065 for Ada.");
    expect(html).not.toContain("sk-heal-test");

    // Applied: the trace now replays the agent as it is, with no model call.
    const applied = await runCli(["heal", "book.flow.yaml", "--apply"], { cwd: p.dir, env: { ...upstream(), BOOKED_FLIGHT: "BA065" } });
    expect(applied.stdout).toContain("APPLIED: book.trace.jsonl updated in place");
    asked = model.requests.length;
    const run = await runCli(["run", "book.flow.yaml"], { cwd: p.dir, env: { BOOKED_FLIGHT: "BA065" } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(model.requests.length).toBe(asked);
    expect(p.read("book.trace.jsonl")).not.toContain("sk-heal-test");
  }, 180_000);
});
