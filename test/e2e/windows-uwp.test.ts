// A UWP app started as `explorer.exe shell:AppsFolder\<AUMID>`, through the flowproof windows-x64
// executable under Wine. Wine has no UWP apps, so only the not-installed path can run here: the
// flow fails at launch within the window bound, naming the AUMID, and leaves no process behind.
// One Wine bed (Xvfb + prefix) for the file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { flowproofExecutable, processesOfPrefix, showRun, startWineBed, winPath, type WineBed, type WineRun } from "../support/wine.ts";

let bed: WineBed;
let exe: string;

beforeAll(async () => {
  exe = await flowproofExecutable();
  bed = await startWineBed();
}, 600_000);
afterAll(async () => {
  await bed?.stop();
  // wineserver -k ends every process of the prefix, a lingering explorer included.
  expect(processesOfPrefix(bed.prefix)).toEqual([]);
}, 60_000);

const project = (name: string, flow: string): string => bed.writeFlow(name, flow);

const cli = (args: readonly string[], env: Record<string, string> = {}): Promise<WineRun> => bed.run(exe, args, { timeoutMs: 300_000, env });
const show = showRun;

/** The command lines of the prefix's processes still running. */
function commandLines(): string[] {
  return processesOfPrefix(bed.prefix).map((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    } catch {
      return "";
    }
  });
}

describe("a UWP app that is not installed", () => {
  test("record fails at launch within the window bound, naming the AUMID and the windows seen; exit 2, never a hang", async () => {
    const aumid = "Microsoft.WindowsCalculator_8wekyb3d8bbwe!App";
    const flow = project(
      "uwp",
      `name: uwp
app: {command: 'EXPLORER.EXE shell:AppsFolder\\${aumid}', window_title: Calculator}
window: {width: 400, height: 600, x: 0, y: 0}
steps:
  - rules: Click "Seven"
`,
    );
    const r = await cli(["record", winPath(flow)], { FLOWPROOF_WINDOW_TIMEOUT_MS: "4000" });
    expect(r.code, show(r)).toBe(2);
    expect(r.stderr).toContain(
      `no window titled "Calculator" appeared within 4000 ms of starting the UWP app ${aumid}; the app may not be installed on this machine; windows seen:`,
    );
    expect(r.stderr).toContain("Get-StartApps");
    // Bounded: the window wait, plus Wine's start-up of the executable.
    expect(r.ms, show(r)).toBeLessThan(90_000);
    console.log(`record: exit ${r.code} in ${Math.round(r.ms)} ms; ${r.stderr.trim()}`);
    // No flowproof process outlives its command; whatever explorer Wine kept is the bed's to end.
    expect(commandLines().filter((c) => /flowproof/i.test(c))).toEqual([]);
    console.log(`prefix processes after the runs: ${JSON.stringify(commandLines())}`);
  }, 400_000);
});
