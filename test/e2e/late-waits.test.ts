// Waits and assertions on changes that land late, through the real CLI and real Chromium: text a
// fetch answered after 300 ms shows, and text a timer writes 40 ms after a click. A wait is read
// again as soon as the page changes (not only at its backoff interval), and its verdicts stay what
// they were: it passes once the text shows, and fails at its bound when the text never comes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import type { RunReport } from "../../src/report/schema.ts";

let server: TestServer;
/** What the late API answers (a replay may be given another answer than the recording). */
let answer = "Saved";
const projects: TmpProject[] = [];

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  server.setRoute(
    "/late/page.html",
    () =>
      new Response(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Late</title></head><body>
        <button id="send" onclick="fetch('/late/api', { method: 'POST' }).then((r) => r.text()).then((t) => { document.getElementById('s').textContent = t; })">Send</button>
        <button id="soon" onclick="setTimeout(() => { document.getElementById('t').textContent = 'Soon done'; }, 40)">Soon</button>
        <p id="s">Idle</p><p id="t">Not yet</p></body></html>`,
        { headers: { "content-type": "text/html" } },
      ),
  );
  server.setRoute("/late/api", async () => {
    await Bun.sleep(300);
    return new Response(answer);
  });
});
afterAll(() => {
  server.stop();
  for (const p of projects) p.remove();
});

const STEPS = ['Click "Send"', "Wait until page shows Saved within 3s", 'Click "Soon"', "assert: page shows Soon done"];

async function recordFlow(): Promise<{ project: TmpProject; spec: string }> {
  const project = tmpProject();
  projects.push(project);
  const spec = project.write(
    "late.flow.yaml",
    ["name: Late", "app: web", `url: ${server.url}/late/page.html`, "steps:", ...STEPS.map((s) => `  - ${s}`), ""].join("\n"),
  );
  answer = "Saved";
  const rec = await runCli(["record", spec, "--author", "rules", "--recording-detail", "off"], { cwd: project.dir });
  expect(rec.code).toBe(0);
  return { project, spec };
}

async function replay(project: TmpProject, spec: string): Promise<{ code: number | null; report: RunReport }> {
  const run = await runCli(["run", spec, "--recording-detail", "off"], { cwd: project.dir });
  const result = /^result: (.*)$/m.exec(run.stdout)?.[1];
  if (!result) throw new Error(`no result line:\n${run.stdout}\n${run.stderr}`);
  return { code: run.code, report: JSON.parse(readFileSync(join(project.dir, result), "utf8")) as RunReport };
}

describe("waits on late changes (real browser)", () => {
  test("a wait for what a fetch answered after 300 ms shows, and an assertion on a timer's change 40 ms after a click, pass", async () => {
    const { project, spec } = await recordFlow();
    const { code, report } = await replay(project, spec);
    expect(code).toBe(0);
    expect(report.steps.map((s) => s.status)).toEqual(["passed", "passed", "passed", "passed"]);
    // The wait covered the answer's 300 ms: it did not pass before the text was there.
    expect(report.steps[0]!.duration_ms + report.steps[1]!.duration_ms).toBeGreaterThanOrEqual(250);
  }, 120_000);

  test("a wait whose text never comes fails at its bound, as before", async () => {
    const { project, spec } = await recordFlow();
    answer = "Refused";
    const { code, report } = await replay(project, spec);
    expect(code).toBe(1);
    expect(report.steps.map((s) => s.status)).toEqual(["passed", "failed", "skipped", "skipped"]);
    expect(report.steps[1]!.detail).toContain("within 3000 ms");
    expect(report.steps[1]!.duration_ms).toBeGreaterThanOrEqual(3000);
  }, 120_000);
});
