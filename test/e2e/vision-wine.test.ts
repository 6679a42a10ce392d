// The vision surface's Win32 screen under Wine: a Windows executable built from
// test/fixtures/vision/wine-probe.ts (the OCR worker and model embedded) attaches to the Win32
// fixture app by title, pins its geometry, reads it by OCR (BitBlt), types and clicks with
// SendInput after verifying the foreground, and reads the app's answer. One Wine bed for the file.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { compileWin32, showRun, startWineBed, windowsExecutable, type WineBed } from "../support/wine.ts";

let bed: WineBed;
let probe: string;
let fixture: string;

beforeAll(async () => {
  [fixture, probe] = await Promise.all([compileWin32(), windowsExecutable(join(import.meta.dir, "../fixtures/vision/wine-probe.ts"))]);
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
    expect(out["app"]).toMatchObject({ window_title: "Flowproof Fixture", platform: "win32", geometry: { x: 0, y: 0, width: 480, height: 470 }, geometry_pinned: true });
    expect(out["scene"]).toContain("Greet");
    expect(out["fill"]).toMatchObject({ ok: true });
    expect(out["greet"]).toMatchObject({ ok: true });
    expect(out["greeted"]).toBe(true);
    expect(out["frame"]).toBeGreaterThan(0);
  } finally {
    app.kill();
  }
}, 240_000);
