// A project's own adapter for an app unlike a web page, end to end through the real CLI: the
// terminal plugin of examples/plugins/terminal runs the stockroom console in a pseudo-terminal
// (`script`), records and replays it with frames whose typed API token is masked, as two surfaces
// of one `apps:` flow, and with a plain step grounded by a (scripted) model on its scene tokens.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { PNG } from "pngjs";
import { runCli, REPO_ROOT } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { readTrace } from "../support/trace.ts";
import { startScriptedModel, type ScriptedModel } from "../support/model-server.ts";

const EXAMPLE = join(REPO_ROOT, "examples", "plugins", "terminal");
const TOKEN = "tok-4711-canary";
/** The example's picture: 12 x 18 pixels a cell, paper (17,17,17), masks pure black. */
const CELL = { width: 12, height: 18 };

let project: TmpProject;
let model: ScriptedModel;
let env: Record<string, string>;

beforeAll(async () => {
  project = tmpProject();
  for (const f of ["package.json", "plugins", "stockroom.ts", "restock.flow.yaml", "audit.flow.yaml"])
    cpSync(join(EXAMPLE, f), join(project.dir, f), { recursive: true });
  // The flows start the app as `bun stockroom.ts`: the bun running the tests is `bun` on PATH.
  const bin = join(project.dir, ".bin");
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, "bun"));
  env = { PATH: `${bin}:${process.env["PATH"] ?? ""}`, STOCKROOM_STORE: join(project.dir, "store.json"), STOCKROOM_TOKEN: TOKEN };
  model = await startScriptedModel();
});
afterAll(() => {
  model?.stop();
  project?.remove();
});

const fresh = () => rmSync(join(project.dir, "store.json"), { force: true });
const cli = (args: readonly string[], extra: Record<string, string> = {}) => runCli(args, { cwd: project.dir, env: { ...env, ...extra } });

/** Every file under `dir`, as text, for leak checks. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), "latin1"))
    .join("\n");
}

describe("the terminal adapter plugin (examples/plugins/terminal)", () => {
  test("records and replays `app: terminal`: its keys in the trace header as written, frames with the typed token masked", async () => {
    fresh();
    const spec = join(project.dir, "restock.flow.yaml");
    const rec = await cli(["record", spec, "--author", "rules"]);
    expect(rec.stderr).not.toContain("error");
    expect(rec.code).toBe(0);
    expect(rec.stdout).toContain("Recorded 'Restock a widget': 11 steps -> restock.trace.jsonl");
    const tracePath = join(project.dir, "restock.trace.jsonl");
    expectValidTrace(tracePath);
    const { header } = readTrace<{ app: Record<string, unknown>; env: { resolution: number[] } }>(tracePath);
    expect(header.app).toEqual({ name: "terminal", adapter: "terminal", command: "bun stockroom.ts --store ${STOCKROOM_STORE}", columns: 60, rows: 16 });
    expect(header.env.resolution).toEqual([60 * CELL.width, 16 * CELL.height]);

    fresh();
    const run = await cli(["run", spec, "--json"]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as {
      report: {
        passed: boolean;
        steps: Array<{ id: string; status: string }>;
        recording: { frames: Array<{ offset_ms: number; file: string }>; steps: Array<{ id: string; start_ms: number; end_ms: number }> };
      };
      report_path: string;
      run_dir: string;
    };
    expect(out.report.passed).toBe(true);
    expect(out.report.steps.map((s) => s.status)).toEqual(Array(11).fill("passed"));
    expectValidResult(out.report_path);

    // The frame that closes the token step shows the prompt `API token: ` (row 7, 11 cells) and the
    // 15 cells after it masked: pure black, where the paper is (17,17,17).
    const tokenStep = out.report.recording.steps.find((s) => s.id === "s0003")!;
    const frame = [...out.report.recording.frames].reverse().find((f) => f.offset_ms <= tokenStep.end_ms && f.offset_ms >= tokenStep.start_ms);
    expect(frame).toBeDefined();
    const png = PNG.sync.read(Buffer.from(readFileSync(join(out.run_dir, frame!.file))));
    const pixel = (x: number, y: number) => [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3)];
    const region = (col: number, row: number, cells: number) => {
      const seen = new Set<string>();
      for (let y = row * CELL.height; y < (row + 1) * CELL.height; y++)
        for (let x = col * CELL.width; x < (col + cells) * CELL.width; x++) seen.add(pixel(x, y).join(","));
      return [...seen].sort();
    };
    expect(region(11, 7, TOKEN.length)).toEqual(["0,0,0"]);
    expect(region(0, 7, 9)).toContain("221,221,221");
    // The token reached no file: not the trace, the result, the report or any frame's bytes.
    expect(allText(project.dir).includes(TOKEN)).toBe(false);
  }, 120_000);

  test("two surfaces of the plugin in one `apps:` flow: the auditor finds the item the clerk's screen numbered", async () => {
    fresh();
    const spec = join(project.dir, "audit.flow.yaml");
    const rec = await cli(["record", spec, "--author", "rules"]);
    expect(rec.code).toBe(0);
    const { header } = readTrace<{ apps: Record<string, Record<string, unknown>> }>(join(project.dir, "audit.trace.jsonl"));
    expect(header.apps["auditor"]).toEqual({ name: "auditor", adapter: "terminal", command: "bun stockroom.ts --store ${STOCKROOM_STORE} --read-only" });
    fresh();
    const run = await cli(["run", spec, "--json"]);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { report: { passed: boolean } }).report.passed).toBe(true);
  }, 120_000);

  test("a plain step is grounded by the model on the terminal's scene tokens, and replays with no model", async () => {
    fresh();
    const SHOW = "Open the list of everything in stock";
    model.script(SHOW, JSON.stringify({ action: "click", target: "text:Show stock" }));
    const spec = project.write(
      "browse.flow.yaml",
      [
        "name: Browse the stock",
        "app: terminal",
        "command: bun stockroom.ts --store ${STOCKROOM_STORE}",
        "steps:",
        `  - ${SHOW}`,
        "  - assert: page shows The stock is empty.",
        "",
      ].join("\n"),
    );
    const rec = await cli(["record", spec, "--json"], model.env());
    expect(rec.code).toBe(0);
    const request = model.requests.find((r) => r.step === SHOW)!;
    const prompt = request.body.messages.map((m) => m.content).join("\n");
    for (const token of ["text:Log in", "text:Show stock", "text:Choice"]) expect(prompt).toContain(token);
    const { steps } = readTrace<unknown, { action: { type: string }; selectors: Array<{ payload: Record<string, unknown> }> }>(
      join(project.dir, "browse.trace.jsonl"),
    );
    expect(steps[0]!.action.type).toBe("click");
    expect(steps[0]!.selectors[0]!.payload).toEqual({ text: "Show stock" });
    const before = model.requests.length;
    const run = await cli(["run", spec]);
    expect(run.code).toBe(0);
    expect(model.requests.length).toBe(before);
  }, 120_000);

  test("steps a terminal cannot do are refused when the flow loads, saying what to write", async () => {
    const spec = project.write(
      "beyond.flow.yaml",
      [
        "name: Beyond a terminal",
        "app: terminal",
        "command: bun stockroom.ts --store x",
        "steps:",
        '  - rules: Drag "Blue widget" onto "Trash"',
        "  - assert: page shows Trash",
        '  - rules: Click "css:#login"',
        "  - assert: page url contains /x",
        "",
      ].join("\n"),
    );
    const r = await cli(["validate", spec]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'beyond.flow.yaml:5:12: error[unsupported-step] `Drag "Blue widget" onto "Trash"` needs the drag capability, which a terminal app (`app: terminal`) does not have',
    );
    expect(r.stderr).toContain(
      "beyond.flow.yaml:7:18: error[unsupported-step] A `css:` selector cannot be used on a terminal app: it has no CSS selectors (grammar form `css`).",
    );
    expect(r.stderr).toContain('hint: a terminal has no css; name what the screen shows, e.g. `Press the "Log in" button`');
    expect(r.stderr).toContain(
      "beyond.flow.yaml:8:13: error[unsupported-step] `page url` cannot be checked on a terminal app: it has no page address (grammar form `page_url`).",
    );
    const keys = project.write(
      "keys.flow.yaml",
      "name: K\napp: terminal\ncommand: bun stockroom.ts\ncolumns: 10\nurl: http://x/\nsteps:\n  - assert: page shows x\n",
    );
    const k = await cli(["validate", keys]);
    expect(k.code).toBe(2);
    expect(k.stderr).toContain("keys.flow.yaml:4:10: error[bad-value] `columns` must be a whole number from 20 to 240");
    expect(k.stderr).toContain("keys.flow.yaml:5:1: error[unknown-key] a terminal app has no start page: `url:` belongs to web flows");
  });
});
