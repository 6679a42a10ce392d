// One error shape: an error reaches the CLI (`--json`) and an MCP client with the same code and
// hint. "No Chromium" is the case that used to differ (no-browser with a hint on the CLI, a bare
// io-error over MCP).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { REPO_ROOT, runCli } from "../support/cli.ts";

let project: TmpProject;
let spec: string;
const NO_CHROME = { FLOWPROOF_CHROME: "/nonexistent/flowproof-test/chromium" };

beforeAll(() => {
  project = tmpProject();
  spec = project.write("greet.flow.yaml", flowYaml("Greet", "http://127.0.0.1:9/greeter.html", ['rules: Press the "Greet" button']));
});
afterAll(() => project?.remove());

interface ErrorDoc {
  readonly code: string;
  readonly message: string;
  readonly diagnostics: readonly { readonly code: string; readonly message: string; readonly hint?: string }[];
}

async function overMcp(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; error: ErrorDoc }> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: "1", ...NO_CHROME })) if (v !== undefined) env[k] = v;
  const client = new Client({ name: "flowproof-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [join(REPO_ROOT, "src/cli/main.ts"), "mcp"], cwd: project.dir, env, stderr: "ignore" }),
  );
  try {
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
    return { isError: r.isError === true, error: (JSON.parse(r.content[0]!.text) as { error: ErrorDoc }).error };
  } finally {
    await client.close();
  }
}

describe("one error shape across the CLI and MCP", () => {
  test("no Chromium is no-browser with the same hint on the CLI and over MCP", async () => {
    const cli = await runCli(["record", spec, "--author", "rules", "--json"], { cwd: project.dir, env: NO_CHROME });
    expect(cli.code).toBe(2);
    const fromCli = (JSON.parse(cli.stdout) as { error: ErrorDoc }).error;
    expect(fromCli.code).toBe("no-browser");
    expect(fromCli.diagnostics[0]!.hint).toContain("FLOWPROOF_CHROME");

    const mcp = await overMcp("flowproof_record", { spec, author: "rules" });
    expect(mcp.isError).toBe(true);
    expect(mcp.error.code).toBe("no-browser");
    expect(mcp.error.diagnostics[0]!.hint).toBe(fromCli.diagnostics[0]!.hint!);
    expect(mcp.error.message).toBe(fromCli.message);
  });
});
