import { describe, expect, test } from "bun:test";
import { CORE_WINDOW_CLASS, FRAME_WINDOW_CLASS, hostOf, openWindow, splitCommand, uwpAumid } from "./launch.ts";
import { FakeDesktop } from "./backends/fake.ts";
import { FlowproofError } from "../../src/plugins/api.ts";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe("splitCommand", () => {
  test("a quoted path keeps its spaces and the arguments stay verbatim", () => {
    expect(splitCommand(`"C:\\Program Files\\App\\app.exe" --open "a b.txt"  -x`)).toEqual({
      exe: "C:\\Program Files\\App\\app.exe",
      program: `"C:\\Program Files\\App\\app.exe"`,
      args: `--open "a b.txt"  -x`,
    });
    expect(splitCommand("notepad.exe C:\\a.txt")).toEqual({ exe: "notepad.exe", program: "notepad.exe", args: "C:\\a.txt" });
    expect(splitCommand("calc.exe")).toEqual({ exe: "calc.exe", program: "calc.exe", args: "" });
  });

  test("an unclosed quote or an empty command is named", () => {
    expect(splitCommand(`"C:\\x.exe --a`)).toContain("never closes");
    expect(splitCommand("  ")).toBe("the command is empty");
  });
});

describe("openWindow", () => {
  const window = {
    handle: "500",
    title: "Fixture App",
    className: "FixtureWindow",
    visible: true,
    rect: { x: 0, y: 0, width: 300, height: 200 },
    controls: [],
  };

  test("waits for a window that appears late, by a part of its title, and applies window: geometry", async () => {
    const desk = new FakeDesktop();
    desk.programs.set("C:\\Apps\\fixture.exe", { windows: [window], delayMs: 150 });
    const opened = await openWindow(
      desk,
      { command: `"C:\\Apps\\fixture.exe" --late`, windowTitle: "Fixture", geometry: { x: 40, y: 30, width: 640, height: 420 }, timeoutMs: 5_000 },
      sleep,
    );
    expect(desk.launches).toEqual([["C:\\Apps\\fixture.exe", "--late"]]);
    expect(opened.window.title).toBe("Fixture App");
    expect(opened.geometry).toEqual({ x: 40, y: 30, width: 640, height: 420 });
    expect(desk.windows[0]!.rect).toEqual({ x: 40, y: 30, width: 640, height: 420 });
  });

  test("a size without a position keeps the window where it is", async () => {
    const desk = new FakeDesktop();
    desk.programs.set("app.exe", { windows: [{ ...window, rect: { x: 7, y: 8, width: 1, height: 1 } }] });
    const opened = await openWindow(desk, { command: "app.exe", windowTitle: "Fixture", geometry: { width: 500, height: 400 }, timeoutMs: 1_000 }, sleep);
    expect(opened.geometry).toEqual({ x: 7, y: 8, width: 500, height: 400 });
  });

  test("a window that never appears: the error lists the windows seen and the program is ended", async () => {
    const desk = new FakeDesktop();
    desk.addWindow({ title: "Some Other App" });
    desk.programs.set("app.exe", { windows: [{ ...window, title: "Wrong Title" }] });
    const error = await openWindow(desk, { command: "app.exe", windowTitle: "Fixture", timeoutMs: 300 }, sleep).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlowproofError);
    expect((error as FlowproofError).code).toBe("app-launch");
    expect((error as Error).message).toBe(
      `no window titled "Fixture" appeared within 300 ms of starting \`app.exe\`; windows seen: "Some Other App", "Wrong Title"`,
    );
    expect(desk.killed).toHaveLength(1);
  });

  test("a program that exits with an error names its exit code and stderr", async () => {
    const desk = new FakeDesktop();
    desk.programs.set("bad.exe", { exit: { code: 3, stderr: "cannot open config\n" } });
    const error = await openWindow(desk, { command: "bad.exe --x", windowTitle: "Fixture", timeoutMs: 5_000 }, sleep).catch((e: unknown) => e);
    expect((error as Error).message).toBe('`bad.exe --x` exited with code 3 before a window titled "Fixture" appeared; its stderr: cannot open config');
  });

  test("a program that is not there fails at once", async () => {
    const desk = new FakeDesktop();
    const started = Date.now();
    const error = await openWindow(desk, { command: "missing.exe", windowTitle: "Fixture", timeoutMs: 10_000 }, sleep).catch((e: unknown) => e);
    expect((error as Error).message).toContain("exited with code 1");
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("UWP apps", () => {
  const AUMID = "Microsoft.WindowsCalculator_8wekyb3d8bbwe!App";

  test("`explorer.exe shell:AppsFolder\\<AUMID>` is recognised in any case, with or without explorer's path", () => {
    expect(uwpAumid(`explorer.exe shell:AppsFolder\\${AUMID}`)).toBe(AUMID);
    expect(uwpAumid(`EXPLORER shell:appsfolder\\${AUMID}`)).toBe(AUMID);
    expect(uwpAumid(`"C:\\Windows\\explorer.exe" "shell:AppsFolder\\${AUMID}"`)).toBe(AUMID);
    expect(uwpAumid("explorer.exe C:\\Users")).toBeUndefined();
    expect(uwpAumid(`myexplorer.exe shell:AppsFolder\\${AUMID}`)).toBeUndefined();
    expect(uwpAumid("calc.exe")).toBeUndefined();
  });

  const core = { handle: "700", title: "Calculator", className: CORE_WINDOW_CLASS, visible: true, pid: 41 };
  const frame = { handle: "701", title: "Calculator", className: FRAME_WINDOW_CLASS, visible: true, pid: 42 };

  test("a CoreWindow is hosted by the ApplicationFrameWindow of the same title; another window is its own host", () => {
    expect(hostOf(core, [core, frame])).toEqual(frame);
    expect(hostOf(core, [core])).toBeUndefined();
    expect(hostOf(core, [core, { ...frame, title: "Settings" }])).toBeUndefined();
    expect(hostOf(frame, [frame])).toEqual(frame);
  });

  /** A desktop where explorer exits at once (code 1, as it does after handing the start over) and the app's windows appear later under other processes. */
  function uwpDesktop(appearAfterMs: number, withFrameAfterMs = appearAfterMs): FakeDesktop {
    const desk = new FakeDesktop();
    desk.programs.set("explorer.exe", { exit: { code: 1, stderr: "" } });
    setTimeout(() => desk.addWindow({ handle: "700", title: "Calculator", className: CORE_WINDOW_CLASS, pid: 41 }), appearAfterMs);
    setTimeout(
      () => desk.addWindow({ handle: "701", title: "Calculator", className: FRAME_WINDOW_CLASS, pid: 42, rect: { x: 5, y: 5, width: 320, height: 500 } }),
      withFrameAfterMs,
    );
    return desk;
  }

  test("explorer exiting at once is not a failure: the app's window of another process is awaited, and window: is applied to the host frame", async () => {
    const desk = uwpDesktop(100, 300);
    const opened = await openWindow(
      desk,
      { command: `explorer.exe shell:AppsFolder\\${AUMID}`, windowTitle: "Calc", geometry: { x: 10, y: 20, width: 400, height: 600 }, timeoutMs: 5_000 },
      sleep,
    );
    expect(desk.launches).toEqual([["explorer.exe", `shell:AppsFolder\\${AUMID}`]]);
    expect(opened.aumid).toBe(AUMID);
    expect(opened.window).toMatchObject({ handle: "701", className: FRAME_WINDOW_CLASS });
    expect(opened.geometry).toEqual({ x: 10, y: 20, width: 400, height: 600 });
    expect(desk.windows.find((w) => w.handle === "701")!.rect).toEqual({ x: 10, y: 20, width: 400, height: 600 });
    expect(desk.windows.find((w) => w.handle === "700")!.rect).toEqual({ x: 0, y: 0, width: 400, height: 300 });
    expect(desk.killed).toEqual([]);
  });

  test("a UWP app that never shows its window: the error names the AUMID, says it may not be installed and lists the windows seen; explorer is not killed", async () => {
    const desk = new FakeDesktop();
    desk.programs.set("explorer.exe", { exit: { code: 1, stderr: "" } });
    desk.addWindow({ title: "Program Manager" });
    const started = Date.now();
    const error = await openWindow(desk, { command: `explorer.exe shell:AppsFolder\\${AUMID}`, windowTitle: "Calculator", timeoutMs: 300 }, sleep).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FlowproofError);
    expect((error as FlowproofError).code).toBe("app-launch");
    expect((error as Error).message).toBe(
      `no window titled "Calculator" appeared within 300 ms of starting the UWP app ${AUMID}; the app may not be installed on this machine; windows seen: "Program Manager"`,
    );
    expect((error as FlowproofError).diagnostics[0]?.hint).toContain("Get-StartApps");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(desk.killed).toEqual([]);
  });
});
