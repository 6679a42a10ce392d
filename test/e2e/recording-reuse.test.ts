// Frames are captured only when the screen may have changed: through the real CLI and real
// Chromium, a step that changes nothing reuses the previous frame (the same file, linked under its
// own offset), while a timer's change and a running CSS animation still force a capture, and a
// reused frame is as redacted as the capture it came from.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { expectValidResult } from "../support/schemas.ts";
import { decodePng, isUniform, type PixelRect } from "../../src/recording/image.ts";
import type { RunReport } from "../../src/report/schema.ts";

const html = (body: string) => () =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reuse</title><style>body { margin: 0; font: 20px sans-serif; } #box { position: absolute; left: 0; top: 0; width: 40px; height: 40px; background: rgb(0, 0, 200); } p, button { margin-left: 60px; }</style></head><body>${body}</body></html>`,
    { headers: { "content-type": "text/html" } },
  );
const BOX: PixelRect = { x: 5, y: 5, width: 30, height: 30 };
const BLUE = [0, 0, 200] as const;
const RED = [200, 0, 0] as const;

let server: TestServer;
const projects: TmpProject[] = [];
beforeAll(async () => {
  requireChromium();
  server = await startServer();
  server.setRoute(
    "/reuse/still.html",
    html(`<div id="box"></div><p>Ready</p><button onclick="document.getElementById('box').style.background = 'rgb(200, 0, 0)'">Paint</button>`),
  );
  // The timer repaints the box 300 ms after Start, then shows Done 300 ms later.
  server.setRoute(
    "/reuse/timer.html",
    html(
      `<div id="box"></div><p id="s">Idle</p><button onclick="setTimeout(() => { document.getElementById('box').style.background = 'rgb(200, 0, 0)'; }, 300); setTimeout(() => { document.getElementById('s').textContent = 'Done'; }, 600)">Start</button>`,
    ),
  );
  // An endless animation (600 px/s) that does not touch the DOM once started; 300 ms after Go a
  // timer writes local storage (no change on screen), which a step waits for while the box moves.
  server.setRoute(
    "/reuse/animated.html",
    html(
      `<style>@keyframes slide { from { left: 0; } to { left: 1200px; } } .moving { animation: slide 2s linear infinite; }</style><div id="box"></div><p>Still</p><button onclick="document.getElementById('box').classList.add('moving'); setTimeout(() => localStorage.setItem('phase', 'later'), 300)">Go</button>`,
    ),
  );
  server.setRoute(
    "/reuse/secret.html",
    html(
      `<p>Sign in</p><label for="pw">Password</label><input id="pw" type="password" style="position: absolute; left: 200px; top: 100px; width: 400px; height: 40px; box-sizing: border-box;">`,
    ),
  );
});
afterAll(() => {
  server.stop();
  for (const p of projects) p.remove();
});

/** Records the flow, replays it, and answers the run's report, its directory and each step's frames (files, in offset order). */
async function replay(page: string, steps: readonly string[], env: Record<string, string> = {}) {
  const project = tmpProject();
  projects.push(project);
  const spec = project.write(
    "reuse.flow.yaml",
    ["name: Reuse", "app: web", `url: ${server.url}/reuse/${page}`, "steps:", ...steps.map((s) => `  - ${s}`), ""].join("\n"),
  );
  const rec = await runCli(["record", spec], { cwd: project.dir, env });
  expect(rec.stderr).not.toContain("FAILED");
  expect(rec.code).toBe(0);
  const run = await runCli(["run", spec], { cwd: project.dir, env });
  expect(run.code).toBe(0);
  const dir = join(project.dir, /^result: (.*)$/m.exec(run.stdout)![1]!).replace(/\/result\.json$/, "");
  expectValidResult(join(dir, "result.json"));
  const report = JSON.parse(readFileSync(join(dir, "result.json"), "utf8")) as RunReport;
  const rec2 = report.recording!;
  const frames = rec2.steps.map((r) => rec2.frames.filter((f) => f.offset_ms >= r.start_ms && f.offset_ms <= r.end_ms).map((f) => f.file));
  return { project, report, dir, frames };
}
const inode = (dir: string, file: string) => statSync(join(dir, file)).ino;
const image = (dir: string, file: string) => decodePng(readFileSync(join(dir, file)));

describe("recording reuses the previous frame only when nothing changed (real browser)", () => {
  test("steps that change nothing show the previous frame: the same file, each at an offset inside its own step", async () => {
    const { dir, frames, report } = await replay("still.html", [
      "assert: page shows Ready",
      "assert: page shows Ready",
      'rules: Click "Paint"',
      "assert: page shows Ready",
    ]);
    expect(frames.map((f) => f.length)).toEqual([2, 2, 2, 2]);
    const [a1, a2, click, a3] = frames as [string[], string[], string[], string[]];
    // Every frame file is named by its offset and picture, so the bundle still maps offsets to
    // files: a name never stands for two offsets. (A step's last frame and the next step's first
    // may fall in the same millisecond with the same picture: then they are one file.)
    for (const f of frames.flat()) expect(existsSync(join(dir, f))).toBe(true);
    const listed = report.recording!.frames;
    const offsetsOf = (file: string) => new Set(listed.filter((f) => f.file === file).map((f) => f.offset_ms));
    for (const f of new Set(listed.map((l) => l.file))) expect(offsetsOf(f).size).toBe(1);
    expect(new Set(frames.flat()).size).toBe(new Set(listed.map((l) => l.offset_ms)).size);
    expect(new Set(frames.flat()).size).toBeGreaterThanOrEqual(5);
    // The two assertions changed nothing: one picture (the first capture) for all four of their frames.
    const first = inode(dir, a1[0]!);
    expect([a1[1], a2[0], a2[1], click[0]].map((f) => inode(dir, f!))).toEqual([first, first, first, first]);
    // The click repainted the box: a new capture, which the last assertion then reuses.
    expect(inode(dir, click[1]!)).not.toBe(first);
    expect(isUniform(image(dir, click[0]!), BOX, BLUE)).toBe(true);
    expect(isUniform(image(dir, click[1]!), BOX, RED)).toBe(true);
    expect(inode(dir, a3[1]!)).toBe(inode(dir, click[1]!));
    // Two captures for eight frames, on disk as two files.
    const inodes = new Set(readdirSync(join(dir, "recording")).map((f) => inode(dir, `recording/${f}`)));
    expect(inodes.size).toBe(2);
    expect(report.steps.every((s) => s.status === "passed")).toBe(true);
  });

  test("a change a timer makes while a step only waits is captured, not reused", async () => {
    const { dir, frames } = await replay("timer.html", ['rules: Click "Start"', "rules: Wait until page shows Done within 5s", "assert: page shows Done"]);
    const [start, wait] = frames as [string[], string[]];
    expect(isUniform(image(dir, start[1]!), BOX, BLUE)).toBe(true);
    // The wait did no input; the timer repainted the box during it.
    expect(inode(dir, wait[1]!)).not.toBe(inode(dir, wait[0]!));
    expect(isUniform(image(dir, wait[1]!), BOX, RED)).toBe(true);
  });

  test("a CSS animation running across a step forces a capture at its end", async () => {
    const { dir, frames } = await replay("animated.html", ['rules: Click "Go"', 'assert: local storage "phase" contains later', "assert: page shows Still"]);
    for (const step of frames.slice(1)) {
      expect(step.length).toBe(2);
      expect(inode(dir, step[1]!)).not.toBe(inode(dir, step[0]!));
    }
    // The box was moving while they were captured: the storage step lasted about 300 ms (180 px of
    // movement), so its two pictures differ. (Two captures close in time can land on one compositor
    // frame, so the quick last step's pair is not compared.)
    const picture = (f: string) => Buffer.from(image(dir, f).data).toString("base64");
    expect(picture(frames[1]![1]!)).not.toBe(picture(frames[1]![0]!));
  });

  test("a reused frame is the redacted capture: the password stays masked and the secret never reaches disk", async () => {
    const secret = "pw-Reuse-7731-secret";
    const { project, dir, frames } = await replay(
      "secret.html",
      ['rules: Type ${SECRET_PW} into the "Password" field', "assert: page shows Sign in", "assert: page shows Sign in"],
      { SECRET_PW: secret },
    );
    const [typed, a1, a2] = frames as [string[], string[], string[]];
    // Each step's before-frame is the previous step's after-frame, linked, never captured again.
    // (Whether an assertion's after-frame is reused too depends on when the page's last
    // selectionchange of the typing lands, so it is not compared: a fresh capture is masked the same.)
    expect(inode(dir, a1[0]!)).toBe(inode(dir, typed[1]!));
    expect(inode(dir, a2[0]!)).toBe(inode(dir, a1[1]!));
    for (const f of [typed[1]!, a1[0]!, a1[1]!, a2[0]!, a2[1]!])
      expect(isUniform(image(dir, f), { x: 200, y: 100, width: 400, height: 40 }, [0, 0, 0])).toBe(true);
    const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
    for (const file of walk(project.dir)) expect([file, readFileSync(file, "latin1").includes(secret)]).toEqual([file, false]);
  });
});
