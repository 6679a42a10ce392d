// Menus, tabs, tree and list views, toolbars, headers and status bars as targets, end to end:
// the flowproof windows-x64 executable records and replays flows under Wine against Wine's own
// notepad, regedit and winecfg (programs nobody here wrote) and the common-controls fixture
// (test/fixtures/win32/controls.c) for the red paths. Launch errors never show a secret.
// One Wine bed (Xvfb + prefix) for the file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { resolve } from "node:path";
import { compileWin32, flowproofExecutable, showRun, startWineBed, winPath, type WineBed, type WineRun } from "../support/wine.ts";

const CONTROLS_C = resolve(import.meta.dir, "../fixtures/win32/controls.c");

let bed: WineBed;
let exe: string;
let controls: string;

beforeAll(async () => {
  [exe, controls] = await Promise.all([flowproofExecutable(), compileWin32(CONTROLS_C, ["-lcomctl32"])]);
  bed = await startWineBed();
}, 600_000);
afterAll(async () => {
  await bed?.stop();
}, 60_000);

const project = (name: string, flow: string): string => bed.writeFlow(name, flow);
const cli = (args: readonly string[], env: Record<string, string> = {}): Promise<WineRun> => bed.run(exe, args, { timeoutMs: 300_000, env });
const show = showRun;
const controlsApp = (): string => `app: {command: '"${winPath(controls)}"', window_title: "Flowproof Controls"}`;

/**
 * Records `flow`, then replays its trace: both must pass, the trace holds one line for every step
 * of the flow, and the replay prints a [PASS] line for each of them, in order.
 */
async function recordAndReplay(name: string, flow: string, before: () => Promise<void> = async () => {}): Promise<{ trace: string }> {
  const path = project(name, flow);
  await before();
  const intents = (parseYaml(flow) as { steps: { rules?: string; assert?: string }[] }).steps.map((s) => s.rules ?? s.assert ?? "");
  const rec = await cli(["record", winPath(path)]);
  expect(rec.code, show(rec)).toBe(0);
  const trace = readFileSync(path.replace(/\.flow\.yaml$/, ".trace.jsonl"), "utf8");
  const traced = trace
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => (JSON.parse(l) as { intent?: string }).intent);
  expect(traced).toEqual(intents);
  await before();
  const run = await cli(["run", winPath(path)]);
  expect(run.code, show(run)).toBe(0);
  const passed = run.stdout
    .split("\n")
    .filter((l) => /^\s*\[PASS\] s\d{4} /.test(l))
    .map((l) => l.replace(/^\s*\[PASS\] s\d{4} /, ""));
  expect(passed.map((p, i) => p.startsWith(intents[i]!))).toEqual(intents.map(() => true));
  return { trace };
}

/** The recorded selector ladder of the step with this intent: [tier, what it names]. */
function ladder(trace: string, intent: string): [string, unknown][] {
  const steps = trace
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l) as { intent?: string; selectors?: { tier: string; payload: Record<string, unknown> }[] });
  return (steps.find((s) => s.intent === intent)?.selectors ?? []).map((r) => [r.tier, r.payload["control_type"] ?? r.payload["text"] ?? r.payload["kind"]]);
}

/**
 * Regedit reopens at the key it showed when it closed (the `LastKey` value it writes on exit), so
 * the tree a run starts from depends on how the previous run left it: every run starts from a
 * collapsed tree. (A close that lands before the program is ended writes it; one that does not,
 * does not: which one happens depends on the machine's load.)
 */
async function forgetLastKey(): Promise<void> {
  const r = await bed.run("reg", ["delete", REGEDIT_KEY, "/v", "LastKey", "/f"]);
  expect([0, 1]).toContain(r.code);
}
const REGEDIT_KEY = "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Applets\\Regedit";

describe("Wine's own programs through flowproof.exe", () => {
  test("notepad: the menu bar opens a menu, a menu item is picked; the status bar reads", async () => {
    const { trace } = await recordAndReplay(
      "notepad-menus",
      `name: notepad menus
app: notepad
steps:
  - rules: Type hello world
  - rules: Click "Edit"
  - assert: page shows Select all
  - rules: Click "Select All"
  - rules: Type replaced
  - assert: document contains replaced
  - assert: page does not show hello world
  - assert: the "status bar" shows Ln 1
`,
    );
    expect(ladder(trace, 'Click "Select All"')).toEqual([
      ["structural", "menuitem"],
      ["text_anchor", "Select All"],
    ]);
  }, 600_000);

  test("regedit: tree items expand on a double-click and ArrowRight; the list view answers the table form", async () => {
    await recordAndReplay(
      "regedit",
      `name: regedit
app: {command: regedit, window_title: "Registry Editor"}
steps:
  - assert: page shows HKEY_CURRENT_USER
  - rules: Double-click "HKEY_CURRENT_USER"
  - rules: Click "Environment"
  - assert: the "Environment" is selected
  - assert: the "Type" column of the row containing "TEMP" shows REG_SZ
  - rules: Click "Software"
  - rules: Press ArrowRight
  - assert: page shows Wine
`,
      forgetLastKey,
    );
  }, 600_000);

  test("winecfg: a tab of the property sheet is clicked and reads as selected", async () => {
    await recordAndReplay(
      "winecfg",
      `name: winecfg
app: {command: winecfg, window_title: "Wine configuration"}
steps:
  - rules: Click "Graphics"
  - assert: the "Graphics" is selected
  - assert: the "Applications" is not selected
  - rules: Click "About"
  - assert: the "About" is selected
`,
    );
  }, 600_000);
});

describe("the common-controls fixture", () => {
  test("menu, toolbar buttons by text and by tooltip, tabs, tree items, a header and a list cell", async () => {
    await recordAndReplay(
      "controls",
      `name: controls
${controlsApp()}
steps:
  - rules: Click "File"
  - rules: Click "Open"
  - assert: the "status bar" shows Opened
  - rules: Click "New"
  - assert: the "status bar" shows New clicked
  - rules: Click "Refresh"
  - assert: the "status bar" shows Refreshed
  - assert: the "Print" is disabled
  - rules: Click "Sharing"
  - assert: the "Sharing" is selected
  - rules: Double-click "Fruits"
  - rules: Click "Pear"
  - assert: 'the "status bar" shows Tree: Pear'
  - rules: Click "Size"
  - assert: the "status bar" shows Sorted by Size
  - assert: the "Type" column of the row containing "photo.png" shows Image
  - rules: Double-click the "Name" column of the row containing "report.pdf"
  - assert: the "status bar" shows Opened report.pdf
  - assert: page shows 3 items
  - rules: Click "View > Large icons"
  - assert: the "status bar" shows Large icons
`,
    );
  }, 600_000);

  test("red paths: a disabled menu item, a miss naming the nearest texts, a row no cell names", async () => {
    const env = { FLOWPROOF_STEP_TIMEOUT_MS: "2000" };
    const disabled = project(
      "disabled",
      `name: disabled
${controlsApp()}
steps:
  - rules: Click "File"
  - rules: Click "Save"
`,
    );
    const d = await cli(["record", winPath(disabled)], env);
    expect(d.code, show(d)).toBe(1);
    expect(d.stdout + d.stderr).toContain('menuitem "Save" is disabled');

    const miss = project(
      "miss",
      `name: miss
${controlsApp()}
steps:
  - rules: Click "Refesh"
`,
    );
    const m = await cli(["record", winPath(miss)], env);
    expect(m.code, show(m)).toBe(1);
    expect(m.stdout + m.stderr).toContain('no control in "Flowproof Controls" matches "Refesh"; nearest texts it shows: "Refresh"');

    const row = project(
      "row",
      `name: row
${controlsApp()}
steps:
  - assert: the "Type" column of the row containing "movie.mp4" shows Video within 1s
`,
    );
    const r = await cli(["record", winPath(row)], env);
    expect(r.code, show(r)).toBe(1);
    expect(r.stdout + r.stderr).toContain('expected the "Type" column of the row containing "movie.mp4" to show "Video"');
  }, 600_000);
});

describe("launch errors", () => {
  test("show the command as written and redact what the program echoes: the token never appears", async () => {
    const env = { SECRET_TOKEN: "tok-4711-canary" };
    const missing = project(
      "missing",
      `name: missing
app: {command: 'C:\\nope\\missing.exe --token \${SECRET_TOKEN}', window_title: "Nope"}
steps:
  - rules: Click "OK"
`,
    );
    const a = await cli(["record", winPath(missing)], env);
    expect(a.code, show(a)).toBe(2);
    expect(a.stderr).toContain("missing.exe --token ${SECRET_TOKEN}");
    expect(a.stdout + a.stderr).not.toContain("tok-4711-canary");

    const echo = project(
      "echo",
      `name: echo
app: {command: 'cmd.exe /c echo token \${SECRET_TOKEN} 1>&2 && exit /b 3', window_title: "Nope"}
steps:
  - rules: Click "OK"
`,
    );
    const b = await cli(["record", winPath(echo)], env);
    expect(b.code, show(b)).toBe(2);
    expect(b.stderr).toContain("exited with code 3");
    expect(b.stderr).toContain("its stderr: token ${SECRET_TOKEN}");
    expect(b.stdout + b.stderr).not.toContain("tok-4711-canary");
  }, 300_000);
});
