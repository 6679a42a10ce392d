// `app: vision` flows through the real CLI, on the vision test bed (the Tk form on a hidden Xvfb
// display, served by x11vnc, shown by TigerVNC's viewer on a second display: the Citrix/RDP
// stand-in). Record, replay (repeated), a regressed app failing, a typed secret masked in frames,
// an `apps:` flow handing values between a web page and the window, the scene tokens a model
// grounds on, and the load-time refusals. One bed for the file; the form restarts per test.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { PNG } from "pngjs";
import { runCli } from "../support/cli.ts";
import { isAlive } from "../support/processes.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { startScriptedModel, type ScriptedModel } from "../support/model-server.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { readTrace } from "../support/trace.ts";
import { DESKTOP_NAME, startVisionBed, VIEWER_TITLE, type VisionBed } from "../support/vision-bed.ts";

const WINDOW = `window: {title: "${DESKTOP_NAME}", width: 700, height: 480, x: 0, y: 0}`;
const TOKEN = "tok-4711-Canary";

/** The 7-step flow of docs/vision.md. */
const PAY = [
  "name: Pay a vendor through the remote desktop",
  "app: vision",
  WINDOW,
  "steps:",
  '  - rules: Type ACME Ltd into the "Payee" field',
  '  - rules: Type 42.50 into the "Amount" field',
  '  - rules: Click "Save"',
  "  - assert: page shows Saved ACME Ltd, 42.50",
  '  - rules: Click the 2nd "Pay"',
  "  - assert: page shows Paid 1002",
  '  - rules: Click "Clear"',
  "",
].join("\n");

let bed: VisionBed;
let project: TmpProject;
let model: ScriptedModel;
let server: TestServer;
let pids: number[] = [];

beforeAll(async () => {
  bed = await startVisionBed();
  pids = bed.pids();
  project = tmpProject("flowproof-vision-flows-");
  model = await startScriptedModel();
  server = await startServer();
}, 60_000);

afterAll(async () => {
  server?.stop();
  model?.stop();
  project?.remove();
  await bed?.stop();
  expect(pids.filter(isAlive)).toEqual([]);
}, 60_000);

const cli = (args: readonly string[], extra: Record<string, string> = {}) =>
  runCli(args, { cwd: project.dir, env: { DISPLAY: bed.viewDisplay, PAYMENT_TOKEN: TOKEN, ...extra } });

interface RunJson {
  report: {
    passed: boolean;
    steps: Array<{ id: string; status: string; detail?: string }>;
    recording?: { frames: Array<{ offset_ms: number; file: string }>; steps: Array<{ id: string; start_ms: number; end_ms: number }> };
  };
  report_path: string;
  run_dir: string;
}

/** Every file under `dir`, as text, for leak checks. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => readFileSync(join(e.parentPath, e.name), "latin1")).join("\n");
}

describe("app: vision through the CLI", () => {
  test("records the 7-step flow, then replays it three times with the same verdict; the trace keeps the window, its geometry as applied and each text's box", async () => {
    await bed.startForm();
    const spec = project.write("pay.flow.yaml", PAY);
    const rec = await cli(["record", spec, "--author", "rules"]);
    expect(rec.code, rec.stderr).toBe(0);
    expect(rec.stdout).toContain("Recorded 'Pay a vendor through the remote desktop': 7 steps -> pay.trace.jsonl");
    const tracePath = join(project.dir, "pay.trace.jsonl");
    expectValidTrace(tracePath);
    const { header, steps } = readTrace<{ app: Record<string, unknown> }, { selectors: Array<{ tier: string; provenance: string; payload: Record<string, unknown> }> }>(tracePath);
    expect(header.app).toMatchObject({
      adapter: "vision",
      window: { title: DESKTOP_NAME, width: 700, height: 480, x: 0, y: 0 },
      window_title: VIEWER_TITLE,
      platform: "x11",
      geometry: { x: 0, y: 0, width: 700, height: 480 },
      geometry_pinned: true,
      ocr: { engine: "tesseract.js 7" },
    });
    const save = steps[2]!.selectors[0]!;
    expect(save).toMatchObject({ tier: "text_anchor", provenance: "recorder", payload: { text: "Save", window: { width: 700, height: 480 } } });
    expect(steps[0]!.selectors[0]!.payload).toMatchObject({ text: "Payee", field_box: { x: 140, y: 62, width: 264, height: 28 } });

    await bed.startForm();
    const run = await cli(["run", spec, "--repeat-each", "3", "--json"]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  }, 240_000);
});
