// User plugins end to end: the worked examples in examples/plugins/ (assert_stock, an assertion
// kind, and notes, an adapter for an in-house HTTP-driven app) record and replay from source and
// through the compiled executable; broken plugins stop the run with exit 2 naming the plugin file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, REPO_ROOT, type CliResult } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { buildSandbox, type Sandbox } from "../support/executable.ts";
import { startNotesApp, type NotesApp } from "../../examples/plugins/notes/app.ts";
import { startStockApi, type StockApi } from "../../examples/plugins/stock/stock-api.ts";
import { readTrace } from "../support/trace.ts";

const EXAMPLE = join(REPO_ROOT, "examples", "plugins", "notes");
const BROKEN = join(REPO_ROOT, "test", "fixtures", "plugins", "broken");

let app: NotesApp;
let sandbox: Sandbox;
const projects: TmpProject[] = [];

beforeAll(async () => {
  app = startNotesApp();
  sandbox = await buildSandbox();
}, 120_000);
afterAll(() => {
  app?.stop();
  sandbox?.remove();
  for (const p of projects) p.remove();
});

/** A copy of the example project (package.json, plugins/, the flow) in a fresh directory. */
function exampleProject(): TmpProject {
  const project = tmpProject();
  projects.push(project);
  for (const f of ["package.json", "plugins", "add-note.flow.yaml"]) cpSync(join(EXAMPLE, f), join(project.dir, f), { recursive: true });
  return project;
}

type Cli = (args: readonly string[], o: { cwd: string; env?: Record<string, string | undefined> }) => Promise<CliResult>;
const source: Cli = (args, o) => runCli(args, o);
const binary: Cli = (args, o) => sandbox.run(args, o);

describe("the assert_stock assertion plugin (examples/plugins/stock)", () => {
  test.each([
    ["from source", source],
    ["through the compiled executable", binary],
  ] as const)(
    "records and replays assert_stock %s, and fails when the stock runs low",
    async (_, cli) => {
      const api: StockApi = startStockApi();
      try {
        const project = tmpProject();
        projects.push(project);
        const example = join(REPO_ROOT, "examples", "plugins", "stock");
        for (const f of ["package.json", "plugins", "check-stock.flow.yaml"]) cpSync(join(example, f), join(project.dir, f), { recursive: true });
        const env = { STOCK_API: api.url };
        const rec = await cli(["record", "check-stock.flow.yaml", "--author", "rules"], { cwd: project.dir, env });
        expect(rec.code).toBe(0);
        expectValidTrace(join(project.dir, "check-stock.trace.jsonl"));
        const ok = await cli(["run", "check-stock.flow.yaml", "--json"], { cwd: project.dir, env });
        expect(ok.code).toBe(0);
        const out = JSON.parse(ok.stdout) as { report: { passed: boolean; steps: Array<{ status: string }> }; report_path: string };
        expect(out.report.steps.map((s) => s.status)).toEqual(["passed", "passed"]);
        expectValidResult(out.report_path);
        // The stock runs low after recording: the replay fails on the plugin's step, with its message.
        api.set("B2", 1);
        const low = await cli(["run", "check-stock.flow.yaml", "--json"], { cwd: project.dir, env: { ...env, FLOWPROOF_STEP_TIMEOUT_MS: "1000" } });
        expect(low.code).toBe(1);
        const failed = (JSON.parse(low.stdout) as { report: { steps: Array<{ status: string; detail?: string }> } }).report.steps[0]!;
        expect(failed.status).toBe("failed");
        expect(failed.detail).toContain("1 of B2 in stock");
      } finally {
        api.stop();
      }
    },
    120_000,
  );
});

describe("the notes adapter plugin (examples/plugins/notes)", () => {
  test.each([
    ["from source", source],
    ["through the compiled executable", binary],
  ] as const)(
    "records and replays `app: notes` %s",
    async (_, cli) => {
      const project = exampleProject();
      const env = { NOTES_URL: app.url };
      const spec = join(project.dir, "add-note.flow.yaml");
      const rec = await cli(["record", spec, "--author", "rules"], { cwd: project.dir, env });
      expect(rec.stderr).not.toContain("error");
      expect(rec.code).toBe(0);
      expect(rec.stdout).toContain("Recorded 'Add a note': 6 steps -> add-note.trace.jsonl");
      const tracePath = join(project.dir, "add-note.trace.jsonl");
      expectValidTrace(tracePath);
      const header = readTrace<{ app: Record<string, string> }>(tracePath).header;
      expect(header.app).toEqual({ name: "notes", adapter: "notes", url: "${NOTES_URL}" });

      const run = await cli(["run", spec, "--json"], { cwd: project.dir, env });
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout) as { report: { passed: boolean; steps: Array<{ status: string }> }; report_path: string };
      expect(out.report.passed).toBe(true);
      expect(out.report.steps.map((s) => s.status)).toEqual(Array(6).fill("passed"));
      expectValidResult(out.report_path);
    },
    60_000,
  );

  test("a failing step on the plugin's app is a FAIL verdict (exit 1), not an error", async () => {
    const project = exampleProject();
    const spec = project.write(
      "wrong.flow.yaml",
      'name: Wrong count\napp: notes\nurl: ${NOTES_URL}\nsteps:\n  - rules: Press the "Clear all" button\n  - assert: page shows 3 notes within 1s\n',
    );
    const rec = await runCli(["record", spec, "--author", "rules"], { cwd: project.dir, env: { NOTES_URL: app.url } });
    expect(rec.code).toBe(1);
    expect(rec.stderr).toContain("RECORD FAILED: step s0002 (page shows 3 notes within 1s) failed");
  }, 30_000);

  test("a step the plugin's app cannot do is refused at load: validate exits 2 naming the step and the missing capability", async () => {
    const project = exampleProject();
    const spec = project.write(
      "beyond.flow.yaml",
      [
        "name: Beyond the notes app",
        "app: notes",
        "url: ${NOTES_URL}",
        "steps:",
        '  - rules: Drag "Buy milk" onto "Done"',
        "  - assert: page shows Buy milk",
        '  - rules: Select Red from the "Colour" dropdown',
        "",
      ].join("\n"),
    );
    const r = await runCli(["validate", spec], { cwd: project.dir, env: { NOTES_URL: app.url } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'beyond.flow.yaml:5:12: error[unsupported-step] `Drag "Buy milk" onto "Done"` needs the drag capability, which an `app: notes` surface does not have',
    );
    expect(r.stderr).toContain(
      'beyond.flow.yaml:7:12: error[unsupported-step] `Select Red from the "Colour" dropdown` needs the select capability, which an `app: notes` surface does not have',
    );
    expect(r.stderr).toContain("`app: notes` can do: pointer, navigation; write a step it can run");
  });

  test("finds plugins in .flowproof/plugins/ and FLOWPROOF_PLUGINS too", async () => {
    const project = tmpProject();
    projects.push(project);
    project.write("package.json", "{}");
    project.write(".flowproof/plugins/notes.ts", readFileSync(join(EXAMPLE, "plugins", "notes.ts"), "utf8"));
    const spec = project.write("n.flow.yaml", "name: N\napp: notes\nsteps:\n  - assert: page shows Notes\n");
    const viaDot = await binary(["validate", spec, "--json"], { cwd: project.dir });
    expect(viaDot.code).toBe(0);
    expect(JSON.parse(viaDot.stdout)).toEqual({ valid: true, name: "N", app: "notes", steps: 1 });

    const elsewhere = tmpProject();
    projects.push(elsewhere);
    const spec2 = elsewhere.write("n.flow.yaml", "name: N\napp: notes\nsteps:\n  - assert: page shows Notes\n");
    const viaEnv = await runCli(["validate", spec2], { cwd: elsewhere.dir, env: { FLOWPROOF_PLUGINS: join(EXAMPLE, "plugins") } });
    expect(viaEnv.code).toBe(0);
    const without = await runCli(["validate", spec2], { cwd: elsewhere.dir });
    expect(without.code).toBe(2);
    expect(without.stderr).toContain("unknown app `notes`");
    expect(without.stderr).toContain("add an adapter plugin for it (docs/plugins.md)");
  });

  test.each([
    ["from source", source],
    ["through the compiled executable", binary],
  ] as const)("a plugin importing engine internals stops the command with exit 2 naming its file (%s)", async (_, cli) => {
    const project = tmpProject();
    projects.push(project);
    const spec = project.write("w.flow.yaml", "name: W\napp: web\nurl: http://127.0.0.1:1/\nsteps:\n  - assert: page shows x\n");
    const r = await cli(["validate", spec, "--json"], { cwd: BROKEN, env: { FLOWPROOF_PLUGINS: join(BROKEN, "engine-import.ts") } });
    expect(r.code).toBe(2);
    const error = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("plugin-error");
    expect(error.message).toBe('engine-import.ts: imports "../../../../src/engine/loop.ts" (flowproof\'s src/engine/loop.ts), an engine internal');
  });
});
