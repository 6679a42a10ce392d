// Frames are step-exact at every recording detail: through the real CLI and real Chromium, a page
// where every action changes a box's colour (a counter: a click, typing, a key, a checkbox, a
// select, and a click whose change lands on a timer 40 ms later, inside the quiet window that ends
// a step's effect, on a button that becomes clickable only 400 ms into its step), replayed with full, low and off detail and with --video. Every kept frame shows
// the state of its own step: a step's after-frame the page once its effect settled, which is also
// the next step's before-frame.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { requireFirefox } from "../support/firefox.ts";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { decodePng, isUniform, type PixelRect } from "../../src/recording/image.ts";
import type { RunReport } from "../../src/report/schema.ts";

/** The box's colour at each count. */
const COLOURS: ReadonlyArray<readonly [number, number, number]> = Array.from({ length: 12 }, (_, i) => [(i * 23) % 256, 255 - i * 20, (i * 71) % 256] as const);
const BOX: PixelRect = { x: 4, y: 4, width: 32, height: 32 };

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Counter</title>
<style>body { margin: 0; font: 18px sans-serif; } #box { position: absolute; left: 0; top: 0; width: 40px; height: 40px; } main { margin-left: 60px; } body.locked #later { visibility: hidden; }</style></head>
<body><div id="box"></div><main><p id="count">Count 0</p>
<button id="next">Next</button> <button id="later">Later</button>
<p><label for="field">Field</label> <input id="field"></p>
<p><label><input type="checkbox" id="agree"> Agree</label></p>
<p><label for="choice">Choice</label> <select id="choice"><option>One</option><option>Two</option></select></p></main>
<script>
const colours = ${JSON.stringify(COLOURS.map(([r, g, b]) => `rgb(${r}, ${g}, ${b})`))};
let count = 0;
const bump = () => { count++; document.getElementById("box").style.background = colours[count]; document.getElementById("count").textContent = "Count " + count; };
document.getElementById("box").style.background = colours[0];
document.getElementById("next").onclick = bump;
document.getElementById("later").onclick = () => setTimeout(bump, 40);
let typed = false;
document.getElementById("field").addEventListener("input", () => { if (!typed) { typed = true; bump(); } });
document.getElementById("field").addEventListener("keydown", (e) => { if (e.key === "Enter") bump(); });
document.getElementById("agree").addEventListener("change", bump);
// "Later" is hidden for a while after the select (by a class far from it): its click waits for it, long after its step began.
document.getElementById("choice").addEventListener("change", () => { bump(); document.body.classList.add("locked"); setTimeout(() => document.body.classList.remove("locked"), 400); });
</script></body></html>`;

/** The flow's steps and the count each leaves on the page. */
const STEPS: ReadonlyArray<readonly [string, number]> = [
  ["assert: page shows Count 0", 0],
  ['rules: Click "Next"', 1],
  ['rules: Type abc into the "Field" field', 2],
  ["rules: Press Enter", 3],
  ['rules: Check the "Agree" checkbox', 4],
  ['rules: Select Two from the "Choice" dropdown', 5],
  ['rules: Click "Later"', 6],
  ["assert: page shows Count 6", 6],
  ['rules: Click "Next"', 7],
  ['rules: Click "Next"', 8],
  ["assert: page shows Count 8", 8],
  ['rules: Click "Next"', 9],
];

let server: TestServer;
let project: TmpProject;
let spec = "";
beforeAll(async () => {
  requireChromium();
  server = await startServer();
  server.setRoute("/counter.html", () => new Response(PAGE, { headers: { "content-type": "text/html" } }));
  project = tmpProject();
  spec = project.write(
    "counter.flow.yaml",
    ["name: Counter", "app: web", `url: ${server.url}/counter.html`, "steps:", ...STEPS.map(([s]) => `  - ${s}`), ""].join("\n"),
  );
  const rec = await runCli(["record", spec], { cwd: project.dir, env: {} });
  expect(rec.stderr).not.toContain("FAILED");
  expect(rec.code).toBe(0);
}, 120_000);
afterAll(() => {
  server.stop();
  project.remove();
});

/** Replays the flow with `args` and answers its report and run directory. */
async function replay(args: readonly string[]): Promise<{ report: RunReport; dir: string }> {
  const run = await runCli(["run", spec, ...args], { cwd: project.dir, env: {} });
  expect(run.code).toBe(0);
  const dir = join(project.dir, /^result: (.*)$/m.exec(run.stdout)![1]!).replace(/\/result\.json$/, "");
  const report = JSON.parse(readFileSync(join(dir, "result.json"), "utf8")) as RunReport;
  expect(report.passed).toBe(true);
  return { report, dir };
}

/**
 * The count each kept frame must show: a frame at a step's start is its before-frame (the count
 * the previous step left), any other frame in a step's range its after-frame (the step's own);
 * one before the first step shows the start page, one after the last the final count.
 */
function expectedCounts(report: RunReport): Array<{ file: string; offset: number; count: number }> {
  const ranges = report.recording!.steps;
  expect(ranges.length).toBe(STEPS.length);
  return report.recording!.frames.map((f) => {
    const i = ranges.findIndex((r) => f.offset_ms >= r.start_ms && f.offset_ms <= r.end_ms);
    if (i === -1) return { file: f.file, offset: f.offset_ms, count: f.offset_ms < ranges[0]!.start_ms ? 0 : STEPS.at(-1)![1] };
    const atStart = f.offset_ms === ranges[i]!.start_ms;
    return { file: f.file, offset: f.offset_ms, count: atStart ? (i === 0 ? 0 : STEPS[i - 1]![1]) : STEPS[i]![1] };
  });
}

/** The count whose colour a frame's box shows, or -1. */
function shownCount(dir: string, file: string): number {
  const image = decodePng(readFileSync(join(dir, file)));
  return COLOURS.findIndex((c) => isUniform(image, BOX, c));
}

function expectStepExact(report: RunReport, dir: string): void {
  for (const { file, offset, count } of expectedCounts(report)) {
    expect({ file, offset, shows: shownCount(dir, file) }).toEqual({ file, offset, shows: count });
  }
}

describe("every kept frame shows its own step's state (real browser)", () => {
  test("full detail: each step's before-frame shows the previous step's count and its after-frame its own, a timer's change included", async () => {
    const { report, dir } = await replay([]);
    // The timer's change is the click's own effect, though the click came long after its step began.
    const later = report.steps.find((s) => s.intent === 'Click "Later"');
    expect(later?.effect?.recorded).toEqual({ focus: true, dom: "near" });
    const ranges = report.recording!.steps;
    // Two frames per step: before and after.
    for (const r of ranges) expect(report.recording!.frames.filter((f) => f.offset_ms >= r.start_ms && f.offset_ms <= r.end_ms).length).toBe(2);
    expectStepExact(report, dir);
  }, 120_000);

  test("low detail: the start page, the after-frames of the 5th and 10th steps, and the final page, each its own state", async () => {
    const { report, dir } = await replay(["--recording-detail", "low"]);
    const counts = expectedCounts(report).map((e) => e.count);
    expect(counts).toEqual([0, STEPS[4]![1], STEPS[9]![1], STEPS[11]![1]]);
    expectStepExact(report, dir);
  }, 120_000);

  test("--video: the same step-exact frames, and the GIF made from them", async () => {
    const { report, dir } = await replay(["--video"]);
    expect(report.recording!.frames.length).toBe(2 * STEPS.length);
    expectStepExact(report, dir);
    expect(existsSync(join(dir, report.recording!.gif!))).toBe(true);
  }, 120_000);

  test("off: no frame, the same verdict", async () => {
    const { report } = await replay(["--recording-detail", "off"]);
    expect(report.recording?.frames ?? []).toEqual([]);
  }, 120_000);

  test("in Firefox (recorded in Chromium), full detail: the same step-exact frames, the timer's change included", async () => {
    requireFirefox();
    const { report, dir } = await replay(["--browser", "firefox"]);
    const ranges = report.recording!.steps;
    for (const r of ranges) expect(report.recording!.frames.filter((f) => f.offset_ms >= r.start_ms && f.offset_ms <= r.end_ms).length).toBe(2);
    expectStepExact(report, dir);
  }, 180_000);
});
