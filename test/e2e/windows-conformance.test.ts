// The driver conformance suite's form cases against the Windows surface for real: a Windows
// executable built from test/fixtures/wine/conformance.ts drives the Win32 fixture
// (test/fixtures/win32/fixture.c) through the Windows adapter under Wine, and this file judges each
// case's outcome with the same gaps the in-memory run declares. One Wine bed for the file.
import { afterAll } from "bun:test";
import { resolve } from "node:path";
import { runDriverConformance } from "../conformance/driver.ts";
import type { FormRun } from "../conformance/form.ts";
import { WINDOWS_FORM_IDS, WINDOWS_GAPS } from "../conformance/surfaces.ts";
import { compileWin32, showRun, startWineBed, windowsExecutable, winPath, type WineBed } from "../support/wine.ts";

const RUNNER = resolve(import.meta.dir, "../fixtures/wine/conformance.ts");
let bed: WineBed | undefined;
afterAll(async () => {
  await bed?.stop();
}, 60_000);

runDriverConformance({
  name: "windows (Win32 under Wine)",
  ran: async () => {
    const [runner, fixture, started] = await Promise.all([windowsExecutable(RUNNER, "conformance"), compileWin32(), startWineBed()]);
    bed = started;
    const r = await bed.run(runner, ["windows", winPath(fixture)], { timeoutMs: 280_000 });
    const line = r.stdout.trim().split("\n").pop() ?? "";
    try {
      return JSON.parse(line) as FormRun;
    } catch {
      throw new Error(`the conformance runner printed no outcome:\n${showRun(r)}`);
    }
  },
  ids: WINDOWS_FORM_IDS,
  expectations: WINDOWS_GAPS,
});
