// The Windows bindings for real, under Wine: a probe program built from plugins/windows/ffi as a
// Bun windows-x64 exe runs in the Wine test bed against Wine's notepad and the Win32 fixture app,
// and reports what each binding saw. One bed (Xvfb + prefix) for the whole file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { PNG } from "pngjs";
import {
  buildTimings,
  compileWin32,
  processAlive,
  processesOfPrefix,
  requireWineTools,
  startWineBed,
  windowsExecutable,
  winPath,
  type WineBed,
  type WineRun,
} from "../support/wine.ts";

const PROBE = resolve(import.meta.dir, "../fixtures/wine/probe.ts");
const WINDOWS_CHECK = resolve(import.meta.dir, "../../scripts/windows-check.ts");
const ES_PASSWORD = 0x20;
const WS_DISABLED = 0x08000000;
const ROLE_TEXT = 0x2a;
const STATE_UNAVAILABLE = 0x1;
const STATE_PROTECTED = 0x20000000;

interface Control {
  id: number;
  className: string;
  text: string;
  style: number;
  password: boolean;
  enabled: boolean;
  checkable: boolean;
}
interface Facts {
  id: number;
  name: string;
  role: number;
  state: number;
  value: string;
  location: { x: number; y: number; width: number; height: number };
}
interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
// The probe's JSON report (test/fixtures/wine/probe.ts).
interface Probe {
  platform: string;
  notepadWindow: { hwnd: number; title: string; className: string; pid: number };
  findWindowW: boolean;
  notepadEditClass: string;
  posted: string;
  notepadForeground: { set: boolean; foreground: boolean };
  typed: { accepted: boolean; text: string };
  chord: string;
  placed: Rect;
  notepadImage: string;
  fixtureWindow: { hwnd: number; title: string; className: string; rect: Rect };
  controls: Control[];
  combo: { items: string[]; selected: boolean; index: number; status: string };
  list: { items: string[]; selected: boolean; index: number; status: string };
  greet: { before: string; after: string };
  checkbox: { before: number; after: number; status: string };
  msaa: Facts[];
  fixtureForeground: { set: boolean; foreground: boolean };
  frame: { width: number; height: number; rect: Rect; windowRect: Rect; nonBlack: number; colours: number };
  com: { clsid: string; gotUnknown: boolean; notAccessible: boolean; left: number; variant: unknown; bstr: string };
  uia: { created: boolean; code?: string };
  pid: number;
  errors: Record<string, string>;
  costs: Record<string, number>;
}

let bed: WineBed;
let probe: Probe;
let probeRun: WineRun;
let framePng: string;
let checkExe: string;
const setup: Record<string, number> = {};

beforeAll(async () => {
  const t0 = performance.now();
  // Builds (cached per machine) and the bed start overlap.
  const [probeExe, fixtureExe, started, check] = await Promise.all([
    windowsExecutable(PROBE, "probe"),
    compileWin32(),
    startWineBed(),
    windowsExecutable(WINDOWS_CHECK, "windows-check"),
  ]);
  checkExe = check;
  bed = started;
  setup["setup total"] = performance.now() - t0;
  framePng = join(bed.dir, "frame.png");
  bed.start("notepad");
  bed.start(fixtureExe);
  probeRun = await bed.run(probeExe, [winPath(framePng), "Flowproof Fixture"], { timeoutMs: 120_000 });
  const line = probeRun.stdout.trim().split("\n").pop() ?? "";
  try {
    probe = JSON.parse(line) as Probe;
  } catch {
    throw new Error(`the probe printed no report (exit ${probeRun.code}):\n${probeRun.stdout}\n${probeRun.stderr.slice(-3000)}`);
  }
  console.log(
    "wine bed timings (ms):",
    JSON.stringify({
      ...bed.timings,
      ...setup,
      probeRun: probeRun.ms,
      builds: buildTimings.map((b) => `${b.label} ${Math.round(b.ms)}${b.cached ? " (cached)" : ""}`),
    }),
  );
  console.log("per-call medians under Wine (ms):", JSON.stringify(probe.costs));
}, 900_000);

afterAll(async () => {
  await bed?.stop();
});

describe("the probe exe under Wine", () => {
  test("runs as a Windows program and reports no binding error", () => {
    expect(probeRun.code).toBe(0);
    expect(probe.platform).toBe("win32");
    expect(probe.errors).toEqual({});
  });

  test("finds notepad by enumerating windows (JSCallback) and by FindWindowW", () => {
    expect(probe.notepadWindow.className).toBe("Notepad");
    expect(probe.notepadWindow.title).toBe("Untitled - Notepad");
    expect(probe.notepadWindow.pid).not.toBe(probe.pid);
    expect(probe.findWindowW).toBe(true);
    expect(probe.notepadImage.toLowerCase()).toEndWith("\\notepad.exe");
  });

  test("types into notepad's edit (WM_CHAR, then SendInput after SetForegroundWindow) and reads it back with WM_GETTEXT", () => {
    expect(probe.notepadEditClass).toBe("Edit");
    expect(probe.posted).toBe("posted");
    expect(probe.notepadForeground).toEqual({ set: true, foreground: true });
    expect(probe.typed).toEqual({ accepted: true, text: "Hello from SendInput" });
    // Home (a virtual key), then a Unicode X: it lands at the start.
    expect(probe.chord).toBe("XHello from SendInput");
    expect(probe.placed).toEqual({ x: 600, y: 40, width: 500, height: 300 });
  });

  test("reads the fixture's control ids, classes and styles: the password box has ES_PASSWORD, the disabled button WS_DISABLED", () => {
    expect(probe.fixtureWindow.className).toBe("FlowproofFixture");
    const byId = new Map(probe.controls.map((c) => [c.id, c]));
    expect([...byId.keys()].sort((a, b) => a - b)).toEqual([
      100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 118, 119, 120, 121, 122,
    ]);
    expect(byId.get(100)).toMatchObject({ className: "Static", text: "Name:" });
    expect(byId.get(101)?.className).toBe("Edit");
    expect((byId.get(105)?.style ?? 0) & ES_PASSWORD).toBe(ES_PASSWORD);
    expect(byId.get(105)?.password).toBe(true);
    expect((byId.get(101)?.style ?? ES_PASSWORD) & ES_PASSWORD).toBe(0);
    expect(byId.get(101)?.password).toBe(false);
    expect((byId.get(114)?.style ?? 0) & WS_DISABLED).toBe(WS_DISABLED);
    expect(byId.get(114)?.enabled).toBe(false);
    expect(byId.get(111)?.enabled).toBe(true);
    expect(byId.get(106)).toMatchObject({ className: "Button", checkable: true });
    expect(byId.get(111)?.checkable).toBe(false);
    expect(byId.get(108)?.className).toBe("ComboBox");
    expect(byId.get(110)?.className).toBe("ListBox");
  });

  test("drives the classic controls with messages: combo and list selection, BM_CLICK, BM_GETCHECK", () => {
    expect(probe.combo).toEqual({ items: ["Belgium", "France", "Germany"], selected: true, index: 1, status: "Country: France" });
    expect(probe.list).toEqual({ items: ["Red", "Green", "Blue"], selected: true, index: 2, status: "Colour: Blue" });
    expect(probe.greet).toEqual({ before: "Waiting", after: "Hello, Ada!" });
    expect(probe.checkbox).toEqual({ before: 0, after: 1, status: "Subscribe: on" });
  });

  test("reads MSAA names, roles and states of the fixture's controls", () => {
    const byId = new Map(probe.msaa.map((f) => [f.id, f]));
    // An edit is named by the label before it, has the text role and its value.
    expect(byId.get(101)).toMatchObject({ name: "Name:", role: ROLE_TEXT, value: "Ada" });
    // The password box is protected and its value is never read.
    expect(byId.get(105)).toMatchObject({ name: "Password:", role: ROLE_TEXT, value: "" });
    expect((byId.get(105)?.state ?? 0) & STATE_PROTECTED).toBe(STATE_PROTECTED);
    expect(byId.get(111)?.name).toBe("Greet");
    expect(byId.get(106)?.name).toBe("Subscribe");
    expect(byId.get(108)?.name).toBe("France");
    expect((byId.get(114)?.state ?? 0) & STATE_UNAVAILABLE).toBe(STATE_UNAVAILABLE);
    expect((byId.get(111)?.state ?? STATE_UNAVAILABLE) & STATE_UNAVAILABLE).toBe(0);
    const loc = byId.get(111)?.location;
    const win = probe.fixtureWindow.rect;
    expect(loc?.width).toBe(100);
    expect(loc?.height).toBe(26);
    expect(loc?.x ?? 0).toBeGreaterThan(win.x);
    expect(loc?.y ?? 0).toBeGreaterThan(win.y);
  });

  test("brings the fixture to the foreground and sees it there", () => {
    expect(probe.fixtureForeground).toEqual({ set: true, foreground: true });
  });

  test("captures the fixture with BitBlt: a PNG of the window's size that is not black", () => {
    expect(probe.frame.width).toBe(probe.frame.windowRect.width);
    expect(probe.frame.height).toBe(probe.frame.windowRect.height);
    expect(probe.frame.width).toBe(480);
    expect(probe.frame.height).toBe(470);
    expect(existsSync(framePng)).toBe(true);
    const png = PNG.sync.read(readFileSync(framePng));
    expect([png.width, png.height]).toEqual([480, 470]);
    let nonBlack = 0;
    const colours = new Set<number>();
    for (let i = 0; i < png.data.length; i += 4) {
      const rgb = ((png.data[i] ?? 0) << 16) | ((png.data[i + 1] ?? 0) << 8) | (png.data[i + 2] ?? 0);
      if (rgb !== 0) nonBlack++;
      colours.add(rgb);
    }
    // The window is mostly button-face grey with text: far from black, more than a handful of colours.
    expect(nonBlack).toBeGreaterThan(png.width * png.height * 0.5);
    expect(colours.size).toBeGreaterThan(4);
    expect(nonBlack).toBe(probe.frame.nonBlack);
  });

  test("creates COM objects, queries interfaces and round-trips BSTR and VARIANT", () => {
    expect(probe.com).toEqual({
      clsid: "{EE09B103-97E0-11CF-978F-00A02463E06F}",
      gotUnknown: true,
      notAccessible: true,
      left: 0,
      variant: { kind: "bstr", value: "DEVELOPER é" },
      bstr: "round trip",
    });
  });

  test("UI Automation: Wine 8 has no CUIAutomation class (a ComError with its hex code), a newer Wine creates it", () => {
    const version = Bun.spawnSync(["/usr/lib/wine/wine64", "--version"]).stdout.toString();
    if (/^wine-8\./.test(version)) expect(probe.uia).toEqual({ created: false, code: "0x80040154" });
    else expect(probe.uia).toEqual({ created: true });
  });
});

describe("scripts/windows-check.ts under Wine", () => {
  test("passes every check but UI Automation, which Wine 8 lacks, and says which failed", async () => {
    const r = await bed.run(checkExe, [], { timeoutMs: 120_000 });
    const lines = r.stdout.trim().split("\n");
    const verdict = (name: string): string | undefined => lines.find((l) => l.includes(name))?.slice(0, 4);
    for (const name of [
      "find the notepad window",
      "find its text area",
      "bring it to the foreground",
      "type with SendInput",
      "capture a frame",
      "MSAA",
      "end notepad",
    ]) {
      expect(`${name}: ${verdict(name)}`).toBe(`${name}: ok  `);
    }
    const version = Bun.spawnSync(["/usr/lib/wine/wine64", "--version"]).stdout.toString();
    if (/^wine-8\./.test(version)) {
      expect(verdict("UI Automation")).toBe("FAIL");
      expect(r.stdout).toContain("0x80040154 (REGDB_E_CLASSNOTREG)");
      expect(lines.at(-1)).toBe("7 of 8 checks passed; failed: UI Automation (CUIAutomation → ElementFromHandle → properties, FindAll)");
      expect(r.code).toBe(1);
    }
  }, 150_000);
});

describe("the bed", () => {
  test("refuses to start without Wine, naming the apt-get command", () => {
    expect(() => requireWineTools({ wine64: "/nonexistent/wine64" })).toThrow(
      /Wine \(\/nonexistent\/wine64\).*apt-get install -y --no-install-recommends wine wine64 libwine fonts-wine gcc-mingw-w64-x86-64/,
    );
    expect(() => requireWineTools({ gcc: "no-such-mingw-gcc" })).toThrow(/mingw \(no-such-mingw-gcc\).*apt-get install/);
  });

  test("stop() leaves no Wine process of the prefix and no Xvfb behind", async () => {
    expect(processesOfPrefix(bed.prefix).length).toBeGreaterThan(0);
    expect(processAlive(bed.xvfbPid)).toBe(true);
    await bed.stop();
    expect(processesOfPrefix(bed.prefix)).toEqual([]);
    expect(processAlive(bed.xvfbPid)).toBe(false);
    expect(existsSync(bed.dir)).toBe(false);
  }, 60_000);
});
