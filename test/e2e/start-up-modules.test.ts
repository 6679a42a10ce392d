// A web run loads only what it uses: through the real CLI and real Chromium, `flowproof run` of a
// web flow never loads the OCR engine, the spreadsheet, PDF and DOCX readers, the SQL client, the
// MCP SDK, the model clients, nor the modules of the other commands and of the other surfaces'
// drivers (the agent plugin's proxy, dialects and runner among them), nor the general PNG codec
// (Chromium's captures decode on a fast path and are kept as they came). Each of them costs
// start-up time in every run that never uses it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { REPO_ROOT, runCli } from "../support/cli.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";

const MODULE_LOG = join(REPO_ROOT, "test", "support", "module-log.ts");
const MAIN = join(REPO_ROOT, "src", "cli", "main.ts");

/** npm packages a web run has no use for. */
const PACKAGES = [
  "tesseract.js",
  "tesseract.js-core",
  "@tesseract.js-data",
  "exceljs",
  "unpdf",
  "mammoth",
  "postgres",
  "@modelcontextprotocol/sdk",
  "openai",
  "pixelmatch",
  "pngjs",
];

/** The packages the control imports (the OCR model and core are loaded by tesseract.js's worker, not imported). */
const CONTROL = PACKAGES.filter((p) => p !== "@tesseract.js-data" && p !== "tesseract.js-core");

/** The agent plugin's modules but its face (index.ts) and its flow keys: the proxy, the dialects, the runner, containment, MCP lanes, the checks, the doctor probe. */
const AGENT_EXECUTION = readdirSync(join(REPO_ROOT, "plugins", "agent"))
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && f !== "index.ts" && f !== "flow-keys.ts")
  .map((f) => `plugins/agent/${f}`);

/** flowproof's own modules a web run has no use for: other commands, the MCP server, the document readers, the other surfaces' drivers, the agent's execution, the SQL client. */
const OWN = [
  ...["record", "heal", "mcp", "audit", "merge", "doctor", "config", "author-from-doc", "capture", "codegen", "init", "trace", "validate", "suite"].map(
    (c) => `src/cli/${c}.ts`,
  ),
  "src/mcp/",
  "src/authoring/from-doc/",
  "plugins/vision/ocr/",
  "plugins/vision/session.ts",
  "plugins/windows/driver.ts",
  "plugins/sap/launch.ts",
  "plugins/assert-screenshot/compare.ts",
  "plugins/assert-sql/query.ts",
  ...AGENT_EXECUTION,
];

/** Runs the CLI with the module log preloaded; the paths it loaded. */
async function loadedBy(args: readonly string[], cwd: string, env: Record<string, string>): Promise<{ code: number; stderr: string; modules: string[] }> {
  const log = join(cwd, `modules-${Date.now()}.json`);
  const proc = Bun.spawn([process.execPath, "--preload", MODULE_LOG, MAIN, ...args], {
    cwd,
    env: { ...process.env, ...env, NO_COLOR: "1", FLOWPROOF_TEST_MODULE_LOG: log },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited, new Response(proc.stdout).text()]);
  return { code, stderr, modules: JSON.parse(readFileSync(log, "utf8")) as string[] };
}

const packagesIn = (modules: readonly string[]) => PACKAGES.filter((p) => modules.some((m) => m.includes(`/node_modules/${p}/`)));
const ownIn = (modules: readonly string[]) => OWN.filter((o) => modules.some((m) => m.startsWith(join(REPO_ROOT, o))));

let server: TestServer;
let project: TmpProject;
beforeAll(async () => {
  requireChromium();
  server = await startServer();
  project = tmpProject("flowproof-startup-");
});
afterAll(() => {
  server.stop();
  project.remove();
});

describe("a web run's module graph", () => {
  test("the module log sees ES modules and CommonJS packages alike (the check below can fail)", async () => {
    // Absolute paths, resolved from the repository: the control script lives outside it.
    const entry = (p: string) => Bun.resolveSync(p === "@modelcontextprotocol/sdk" ? `${p}/server/index.js` : p, REPO_ROOT);
    project.write(
      "loads-all.ts",
      [...CONTROL.map(entry), join(REPO_ROOT, "src", "mcp", "server.ts")].map((f) => `await import(${JSON.stringify(f)});`).join("\n"),
    );
    const log = join(project.dir, "control.json");
    const proc = Bun.spawn([process.execPath, "--preload", MODULE_LOG, join(project.dir, "loads-all.ts")], {
      cwd: REPO_ROOT,
      env: { ...process.env, FLOWPROOF_TEST_MODULE_LOG: log },
      stderr: "pipe",
    });
    expect(await proc.exited).toBe(0);
    const modules = JSON.parse(readFileSync(log, "utf8")) as string[];
    expect(packagesIn(modules)).toEqual(CONTROL);
    expect(ownIn(modules)).toContain("src/mcp/");
  });

  test("flowproof run of a web flow loads none of the OCR, document, SQL, MCP or model-client modules, nor other commands' and surfaces'", async () => {
    project.write("counter.flow.yaml", flowYaml("Counter", `${server.url}/counter.html`, ['Click "Add"', "assert: page shows 42"]));
    const recorded = await runCli(["record", "counter.flow.yaml", "--author", "rules"], { cwd: project.dir });
    expect(recorded.code, recorded.stderr).toBe(0);
    for (const flags of [[], ["--video"], ["--recording-detail", "off"]]) {
      const ran = await loadedBy(["run", "counter.flow.yaml", ...flags], project.dir, {});
      expect(ran.code, ran.stderr).toBe(0);
      // The run did load the web driver: the log is not empty by accident.
      expect(ran.modules).toContain(join(REPO_ROOT, "plugins", "web", "driver.ts"));
      expect({ flags, packages: packagesIn(ran.modules), own: ownIn(ran.modules) }).toEqual({ flags, packages: [], own: [] });
    }
  });
});
