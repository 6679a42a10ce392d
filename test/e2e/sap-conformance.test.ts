// The driver conformance suite's form cases against the SAP GUI surface for real: a Windows
// executable built from test/fixtures/wine/conformance.ts reaches the SAP GUI Scripting simulator
// (test/fixtures/sap/mocksap.c) cross-process through the Running Object Table under Wine, opens
// connections of its own, logs on and runs each case on transaction ZFORM; this file judges each
// outcome with the same gaps the in-memory run declares. One Wine bed and one simulator for the file.
import { afterAll } from "bun:test";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { runDriverConformance } from "../conformance/driver.ts";
import type { FormRun } from "../conformance/form.ts";
import { SAP_FORM_IDS, SAP_GAPS } from "../conformance/surfaces.ts";
import { compileWin32, showRun, startWineBed, windowsExecutable, winPath, type WineBed, type WineProcess } from "../support/wine.ts";

const RUNNER = resolve(import.meta.dir, "../fixtures/wine/conformance.ts");
const MOCKSAP_C = resolve(import.meta.dir, "../fixtures/sap/mocksap.c");
const CLERK_PW = "Canary-Conform-4e7b1";
let bed: WineBed | undefined;
let simulator: WineProcess | undefined;
afterAll(async () => {
  simulator?.kill();
  await bed?.stop();
}, 60_000);

runDriverConformance({
  name: "sap (SAP GUI Scripting under Wine)",
  ran: async () => {
    const [runner, mocksap, started] = await Promise.all([
      windowsExecutable(RUNNER, "conformance"),
      compileWin32(MOCKSAP_C, ["-lole32", "-loleaut32", "-luuid", "-lgdi32"]),
      startWineBed(),
    ]);
    bed = started;
    // SAP Logon is started once, as on a desk: every case opens a connection of its own in it.
    const ready = join(bed.dir, "sap-ready.txt");
    simulator = bed.start(mocksap, ["--user", `CLERK=${CLERK_PW}`, "--ready", winPath(ready), "--exit-after", "600"]);
    const deadline = Date.now() + 60_000;
    while (!existsSync(ready) && Date.now() < deadline) await Bun.sleep(100);
    if (!existsSync(ready)) throw new Error("the SAP GUI simulator did not register SAPGUI within 60 s");
    const r = await bed.run(runner, ["sap"], { timeoutMs: 280_000, env: { SAP_LOGON_EXE: winPath(mocksap), CLERK_PW } });
    const line = r.stdout.trim().split("\n").pop() ?? "";
    if (line.includes(CLERK_PW) || r.stderr.includes(CLERK_PW)) throw new Error("the password reached the runner's output");
    try {
      return JSON.parse(line) as FormRun;
    } catch {
      throw new Error(`the conformance runner printed no outcome:\n${showRun(r)}`);
    }
  },
  ids: SAP_FORM_IDS,
  expectations: SAP_GAPS,
});
