// The vision surface's Win32 screen under Wine: a Windows executable built from
// test/fixtures/vision/wine-probe.ts (the OCR worker and model embedded) attaches to the Win32
// fixture app by title, pins its geometry, reads it by OCR (BitBlt), types and clicks with
// SendInput after verifying the foreground, and reads the app's answer; then flowproof.exe itself
// records and replays an `app: vision` flow on that window. One Wine bed for the file.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PNG } from "pngjs";
import { compileWin32, flowproofExecutable, showRun, startWineBed, windowsExecutable, winPath, type WineBed } from "../support/wine.ts";

let bed: WineBed;
let probe: string;
let fixture: string;
let exe: string;

beforeAll(async () => {
  [fixture, probe, exe] = await Promise.all([
    compileWin32(),
    windowsExecutable(join(import.meta.dir, "../fixtures/vision/wine-probe.ts")),
    flowproofExecutable(),
  ]);
  bed = await startWineBed();
}, 600_000);
afterAll(async () => {
  await bed?.stop();
}, 60_000);

test("the Windows executable reads the Win32 app by OCR, fills its field, clicks its button and reads the answer", async () => {
  const app = bed.start(fixture, []);
  try {
    const r = await bed.run(probe, [], { timeoutMs: 180_000 });
    expect(r.code, showRun(r)).toBe(0);
    const out = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
    expect(out["error"], showRun(r)).toBeUndefined();
    expect(out["app"]).toMatchObject({
      window_title: "Flowproof Fixture",
      platform: "win32",
      geometry: { x: 0, y: 0, width: 480, height: 470 },
      geometry_pinned: true,
    });
    expect(out["scene"]).toContain("Greet");
    expect(out["fill"]).toMatchObject({ ok: true });
    expect(out["greet"]).toMatchObject({ ok: true });
    expect(out["greeted"]).toBe(true);
    // The frame is the window at its pinned size, with its drawing in it (not a blank capture).
    expect(out["frame"]).toMatchObject({ width: 480, height: 470 });
    expect((out["frame"] as { colours: number }).colours).toBeGreaterThan(3);
  } finally {
    app.kill();
  }
}, 240_000);

test("flowproof.exe records and replays an `app: vision` flow on the Win32 app's pixels, a typed secret masked in its frames", async () => {
  const app = bed.start(fixture, []);
  try {
    const flow = bed.writeFlow(
      "greet",
      [
        "name: Greet through the pixels",
        "app: vision",
        'window: {title: "Flowproof Fixture", width: 480, height: 470, x: 0, y: 0}',
        "steps:",
        '  - rules: Type Ada into the "Name" field',
        '  - rules: Type ${FIXTURE_EMAIL} into the "Email" field',
        '  - rules: Click "Greet"',
        "  - assert: page shows Hello, Ada!",
        "",
      ].join("\n"),
    );
    const env = { FIXTURE_EMAIL: "ada-Secret@example.org" };
    const rec = await bed.run(exe, ["record", winPath(flow), "--author", "rules"], { timeoutMs: 300_000, env });
    expect(rec.code, showRun(rec)).toBe(0);
    const trace = readFileSync(flow.replace(/\.flow\.yaml$/, ".trace.jsonl"), "utf8");
    const header = JSON.parse(trace.split("\n")[0]!) as { app: Record<string, unknown> };
    expect(header.app).toMatchObject({
      adapter: "vision",
      window_title: "Flowproof Fixture",
      platform: "win32",
      geometry: { x: 0, y: 0, width: 480, height: 470 },
      geometry_pinned: true,
    });
    const run = await bed.run(exe, ["run", winPath(flow), "--json"], { timeoutMs: 300_000, env });
    expect(run.code, showRun(run)).toBe(0);
    const out = JSON.parse(run.stdout) as { report_path: string; report: { steps: { status: string }[]; recording: { frames: { file: string }[] } } };
    expect(out.report.steps.map((st) => st.status)).toEqual(["passed", "passed", "passed", "passed"]);
    // The Email field (client 100,42 220×24; the frame is the whole window, its caption bar above) is black in the last frame.
    const bundle = dirname(out.report_path.replace(/^Z:/i, "").replaceAll("\\", "/"));
    const last = PNG.sync.read(readFileSync(join(bundle, out.report.recording.frames.at(-1)!.file)));
    const pixel = (x: number, y: number) => [...last.data.subarray((y * last.width + x) * 4, (y * last.width + x) * 4 + 3)];
    expect(pixel(200, 76)).toEqual([0, 0, 0]);
    expect(pixel(200, 44)).toEqual([255, 255, 255]);
    expect(readFileSync(join(bundle, "report.html"), "utf8")).not.toContain("ada-Secret");
    expect(trace).not.toContain("ada-Secret");
  } finally {
    app.kill();
  }
}, 700_000);
