// Windows apps end to end: the flowproof windows-x64 executable records and replays flows under
// Wine against the Win32 fixture app and Wine's notepad. One Wine bed (Xvfb + prefix) for the file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { PNG } from "pngjs";
import { compileWin32, flowproofExecutable, showRun, startWineBed, winPath, type WineBed, type WineRun } from "../support/wine.ts";
import { createRecordDir, listRecords, runsRoot, writeRecord } from "../../src/commands/run-records.ts";

const CMDLINE_C = resolve(import.meta.dir, "../fixtures/win32/cmdline.c");

let bed: WineBed;
let exe: string;
let fixture: string;

beforeAll(async () => {
  [exe, fixture] = await Promise.all([flowproofExecutable(), compileWin32()]);
  bed = await startWineBed();
}, 600_000);
afterAll(async () => {
  await bed?.stop();
}, 60_000);

const project = (name: string, flow: string): string => bed.writeFlow(name, flow);

// Each recording or replay is bounded; Wine on a loaded two-core machine takes seconds per step.
const cli = (args: readonly string[], env: Record<string, string> = {}): Promise<WineRun> => bed.run(exe, args, { timeoutMs: 300_000, env });
const fixtureApp = (args = "") => `app: {command: '"${winPath(fixture)}"${args ? ` ${args}` : ""}', window_title: "Flowproof Fixture"}`;
const show = showRun;

describe("the fixture app, recorded and replayed through flowproof.exe under Wine", () => {
  test("typing, fill, a button that changes a label, check and uncheck, combo and list, the late control; password masked in the frames", async () => {
    const flow = project(
      "fixture",
      `name: fixture
${fixtureApp("--late-ms=400")}
window: {width: 420, height: 560, x: 0, y: 0}
steps:
  - rules: Type Ada into the "Name" field
  - rules: Type \${FIXTURE_PASSWORD} into the "Password" field
  - rules: Click "Greet"
  - assert: the "id:112" shows Hello, Ada!
  - rules: Check the "Subscribe" checkbox
  - assert: the "Subscribe" checkbox is checked
  - rules: Uncheck the "Subscribe" checkbox
  - assert: the "Subscribe" checkbox is not checked
  - rules: Select France from the "Country" dropdown
  - assert: "page shows Country: France"
  - rules: Select Green from the "Colour" dropdown
  - assert: "page shows Colour: Green"
  - rules: Click "Load"
  - rules: Click "Continue"
  - assert: page shows Continue
  - assert: the "Disabled" is disabled
  - assert: the "Name" field contains Ada
`,
    );
    const env = { FIXTURE_PASSWORD: "hunter2-secret" };
    const rec = await cli(["record", winPath(flow)], env);
    expect(rec.code, show(rec)).toBe(0);
    const trace = readFileSync(flow.replace(/\.flow\.yaml$/, ".trace.jsonl"), "utf8");
    expect(trace).not.toContain("hunter2-secret");
    const header = JSON.parse(trace.split("\n")[0]!) as { app: Record<string, unknown> };
    expect(header.app).toMatchObject({
      name: "windows",
      adapter: "windows",
      window_title: "Flowproof Fixture",
      backend: "win32",
      geometry: { x: 0, y: 0, width: 420, height: 560 },
    });
    // Recorded ladders lead with the live control: its AutomationId, then its type and name, then the step's own rung.
    const steps = trace
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l) as { intent?: string; selectors?: { tier: string; payload: Record<string, unknown> }[] });
    const ladder = (intent: string) => steps.find((st) => st.intent === intent)?.selectors ?? [];
    expect(ladder('Type Ada into the "Name" field')[0]).toMatchObject({ tier: "native_id", payload: { automation_id: "101" } });
    expect(ladder('Click "Greet"').map((r) => [r.tier, r.payload["automation_id"] ?? r.payload["control_type"] ?? r.payload["text"]])).toEqual([
      ["native_id", "111"],
      ["structural", "button"],
      ["text_anchor", "Greet"],
    ]);

    const run = await cli(["run", winPath(flow), "--json"], env);
    expect(run.code, show(run)).toBe(0);
    // report_path is result.json's Windows path (Z:\…): the run bundle is its folder.
    const reportPath = (JSON.parse(run.stdout) as { report_path: string }).report_path;
    const bundle = dirname(reportPath.replace(/^Z:/i, "").replaceAll("\\", "/"));
    expect(existsSync(join(bundle, "report.html"))).toBe(true);
    // Per-step replay times under Wine, for the record of what a desktop step costs here.
    const result = JSON.parse(readFileSync(join(bundle, "result.json"), "utf8")) as { steps: { id: string; duration_ms?: number }[] };
    const ms = result.steps.map((st) => st.duration_ms ?? 0).sort((a, b) => a - b);
    console.log(`windows replay under Wine: ${ms.length} steps, median ${ms[Math.floor(ms.length / 2)]} ms, max ${ms.at(-1)} ms, run ${run.ms.toFixed(0)} ms`);
    expect(readFileSync(join(bundle, "report.html"), "utf8")).not.toContain("hunter2-secret");
    // The password field (id 105) is masked solid black in every frame after it was typed into.
    // Frames are recording/frame-<ms>-<hash>.png; the last one is taken after the password was typed.
    const frames = readdirSync(join(bundle, "recording"))
      .filter((f) => f.endsWith(".png"))
      .sort((a, b) => Number(a.split("-")[1]) - Number(b.split("-")[1]));
    expect(frames.length).toBeGreaterThan(0);
    const last = PNG.sync.read(readFileSync(join(bundle, "recording", frames.at(-1)!)));
    expect(maskedBlackBox(last)).toBe(true);
  }, 900_000);

  test("a red assertion fails the recording with exit 1, naming what it expected", async () => {
    const flow = project(
      "red",
      `name: red
${fixtureApp()}
steps:
  - rules: Type Ada into the "Name" field
  - assert: the "id:112" shows Goodbye within 1s
`,
    );
    const rec = await cli(["record", winPath(flow)]);
    expect(rec.code, show(rec)).toBe(1);
    expect(rec.stderr + rec.stdout).toContain("Goodbye");
  }, 120_000);

  test("a window that took the foreground is sent back before typing: the text lands in the flow's field", async () => {
    const flow = project(
      "stolen",
      `name: stolen
${fixtureApp("--steal-ms=200")}
steps:
  - rules: Click "Steal focus"
  - rules: Wait until page shows Intruder opened within 5s
  - rules: Type Ada into the "Name" field
  - assert: the "Name" field contains Ada
`,
    );
    const rec = await cli(["record", winPath(flow)]);
    expect(rec.code, show(rec)).toBe(0);
  }, 120_000);

  test("a window that keeps the foreground fails the step, naming it; nothing is typed into it", async () => {
    const log = join(bed.dir, "intruder.txt");
    const flow = project(
      "held",
      `name: held
${fixtureApp(`--steal-ms=100 --steal-hold --intruder-log=${winPath(log)}`)}
steps:
  - rules: Click "Steal focus"
  - rules: Wait until page shows Intruder opened within 5s
  - rules: Type Ada into the "Name" field
`,
    );
    const rec = await cli(["record", winPath(flow)]);
    expect(rec.code, show(rec)).toBe(1);
    expect(rec.stdout + rec.stderr).toContain('no input was sent: the window "Intruder" (FlowproofIntruder, pid');
    // The intruder writes its field's text on every change: it never received a keystroke.
    expect(existsSync(log) ? readFileSync(log, "utf8") : "").toBe("");
  }, 180_000);

  test("Right-click opens a control's context menu and Double-click opens a file entry; a single click only selects it", async () => {
    const flow = project(
      "gestures",
      `name: gestures
${fixtureApp()}
steps:
  - rules: Right-click "report.txt"
  - assert: the "id:122" shows Menu for report.txt
  - rules: Double-click "report.txt"
  - assert: the "id:122" shows Opened report.txt
`,
    );
    const rec = await cli(["record", winPath(flow)]);
    expect(rec.code, show(rec)).toBe(0);
    const run = await cli(["run", winPath(flow)]);
    expect(run.code, show(run)).toBe(0);

    const red = project(
      "gestures-red",
      `name: gestures red
${fixtureApp()}
steps:
  - rules: Click "report.txt"
  - assert: the "id:122" shows Opened report.txt within 1s
`,
    );
    const redRec = await cli(["record", winPath(red)]);
    expect(redRec.code, show(redRec)).toBe(1);
    expect(redRec.stdout + redRec.stderr).toContain("Selected report.txt");

    const disabled = project(
      "gestures-disabled",
      `name: gestures disabled
${fixtureApp()}
steps:
  - rules: Double-click "Disabled"
`,
    );
    const off = await cli(["record", winPath(disabled)], { FLOWPROOF_STEP_TIMEOUT_MS: "2000" });
    expect(off.code, show(off)).toBe(1);
    expect(off.stdout + off.stderr).toContain('button "Disabled" (id 114) is disabled');
  }, 400_000);

  test("a window that never appears names the windows seen; exit 2", async () => {
    const flow = project(
      "nowindow",
      `name: nowindow
app: {command: '"${winPath(fixture)}" --title=Elsewhere', window_title: "No Such Window"}
steps:
  - rules: Click "Greet"
`,
    );
    const rec = await cli(["record", winPath(flow)], { FLOWPROOF_WINDOW_TIMEOUT_MS: "20000" });
    expect(rec.code, show(rec)).toBe(2);
    expect(rec.stderr).toContain('no window titled "No Such Window" appeared');
    expect(rec.stderr).toContain('windows seen: "Elsewhere"');
  }, 120_000);
});

describe("the command line", () => {
  test("reaches the program exactly as written: a quoted path with spaces keeps its quotes, arguments verbatim", async () => {
    const probe = await compileWin32(CMDLINE_C, ["-municode", "-mwindows"]);
    const dir = join(bed.dir, "Program Files", "cmd probe");
    mkdirSync(dir, { recursive: true });
    const target = join(dir, "cmd probe.exe");
    copyFileSync(probe, target);
    const command = `"${winPath(target)}" --profile "a b" x`;
    const flow = project(
      "cmdline",
      `name: cmdline
app: {command: '${command}', window_title: "Cmdline Probe"}
steps:
  - assert: page shows --profile
`,
    );
    const rec = await cli(["record", winPath(flow)]);
    expect(rec.code, show(rec)).toBe(0);
    expect(readFileSync(join(dir, "cmdline.txt"), "utf8")).toBe(command);
  }, 300_000);
});

describe("Wine's notepad", () => {
  test("a dialog over the window is in the frames as the screen shows it, not a black box", async () => {
    const flow = project(
      "about",
      `name: about
app: notepad
window: {width: 640, height: 480, x: 0, y: 0}
steps:
  - rules: Type frames show dialogs
  - rules: Click "Help"
  - rules: Click "About Notepad"
  - assert: page shows Wine
`,
    );
    const rec = await cli(["record", winPath(flow)]);
    expect(rec.code, show(rec)).toBe(0);
    const run = await cli(["run", winPath(flow), "--json"]);
    expect(run.code, show(run)).toBe(0);
    const bundle = dirname((JSON.parse(run.stdout) as { report_path: string }).report_path.replace(/^Z:/i, "").replaceAll("\\", "/"));
    const frames = readdirSync(join(bundle, "recording"))
      .filter((f) => f.endsWith(".png"))
      .sort((a, b) => Number(a.split("-")[1]) - Number(b.split("-")[1]));
    const blackShare = (name: string): number => {
      const png = PNG.sync.read(readFileSync(join(bundle, "recording", name)));
      let black = 0;
      for (let i = 0; i < png.data.length; i += 4) if (png.data[i] === 0 && png.data[i + 1] === 0 && png.data[i + 2] === 0) black++;
      return black / (png.width * png.height);
    };
    // The first frame shows notepad alone; the last the About box over it. A dialog captured from the
    // window's own pixels is a black box (a fifth of the window or more); from the screen, it is drawn.
    expect(frames.length).toBeGreaterThan(1);
    expect(blackShare(frames.at(-1)!) - blackShare(frames[0]!)).toBeLessThan(0.03);
  }, 300_000);

  test("Type goes into the document and document contains reads it", async () => {
    const flow = project(
      "notes",
      `name: notes
app: notepad
steps:
  - rules: Type flowproof drove this
  - assert: document contains flowproof drove this
`,
    );
    const rec = await cli(["record", winPath(flow)]);
    expect(rec.code, show(rec)).toBe(0);
    // Eleven older run records, one holding a nested folder: this run's record makes twelve, so two are pruned.
    const projectDir = dirname(flow);
    const old: string[] = [];
    for (let i = 0; i < 11; i++) {
      const { runId, dir } = createRecordDir(projectDir, new Date(Date.UTC(2026, 0, 1, 0, 0, i)));
      mkdirSync(join(dir, "frames", "deep"), { recursive: true });
      writeFileSync(join(dir, "frames", "deep", "frame.png"), "x");
      writeRecord(dir, { run_id: runId, started_at: "2026-01-01T00:00:00Z", flowproof_version: "0", env: { os: "win32" }, suite: ".", flows: [] });
      old.push(runId);
    }
    const run = await cli(["run", winPath(flow)]);
    expect(run.code, show(run)).toBe(0);
    // Pruning works under Wine (the recursive removal fails there with EFAULT) and this run's record stands.
    expect(run.stdout + run.stderr).not.toContain("WARNING");
    const records = listRecords(projectDir);
    expect(records.length).toBe(10);
    expect(records.slice(0, 9)).toEqual(old.slice(2));
    expect(existsSync(join(runsRoot(projectDir), old[0]!))).toBe(false);
  }, 180_000);
});

/**
 * Whether the frame has a solid black box of a field's size inside the window (the masked password
 * field): at least 15 rows in a row, each with a black run of 150 px or more touching neither edge
 * (the band above the client area, where Wine draws no title bar, is black from edge to edge).
 */
function maskedBlackBox(png: PNG): boolean {
  const black = (x: number, y: number) => {
    const i = (y * png.width + x) * 4;
    return png.data[i] === 0 && png.data[i + 1] === 0 && png.data[i + 2] === 0;
  };
  const boxRow = (y: number) => {
    let start = -1;
    for (let x = 0; x <= png.width; x++) {
      if (x < png.width && black(x, y)) {
        if (start < 0) start = x;
        continue;
      }
      if (start > 0 && x < png.width && x - start >= 150) return true;
      start = -1;
    }
    return false;
  };
  let rows = 0;
  for (let y = 0; y < png.height; y++) {
    rows = boxRow(y) ? rows + 1 : 0;
    if (rows >= 15) return true;
  }
  return false;
}
