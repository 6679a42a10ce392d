import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { runCli, REPO_ROOT } from "../../test/support/cli.ts";
import { tmpProject } from "../../test/support/tmp-project.ts";

const AGENT = join(REPO_ROOT, "test", "fixtures", "agents", "openai-agent.mjs");
const p = tmpProject("flowproof-doctor-");
afterAll(() => p.remove());

describe("flowproof doctor --agent", () => {
  test("a wired agent: OK, exit 0", async () => {
    const r = await runCli(["doctor", "--agent", `${process.execPath} ${AGENT}`], { cwd: p.dir });
    expect(r.stdout).toContain("OK: the agent reached flowproof's model proxy (OpenAI chat-completions, POST /v1/chat/completions, model gpt-test)");
    expect(r.code).toBe(0);
  });
  test("an unwired agent: what to wire, exit 1; --json says the same", async () => {
    const unwired = `OPENAI_BASE_URL=http://127.0.0.1:9/v1 ${process.execPath} ${AGENT}`;
    const r = await runCli(["doctor", "--agent", unwired], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("NOT WIRED");
    expect(r.stdout).toContain("OPENAI_BASE_URL");
    const j = await runCli(["doctor", "--agent", unwired, "--json"], { cwd: p.dir });
    expect(j.stdout + j.stderr).toContain('"reached": false');
    expect(j.code).toBe(1);
    expect((JSON.parse(j.stdout) as { reached: boolean }).reached).toBe(false);
  });
  test("no --agent is a usage error, exit 2", async () => {
    const r = await runCli(["doctor"], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--agent");
  });
});
