import { describe, expect, test } from "bun:test";
import { chooseBackend, launchSpec, windowTimeoutFromEnv, WINDOW_TIMEOUT_MS, plugins, WindowsSession, UnsupportedPlatformError } from "./index.ts";
import { FakeDesktop, control } from "./backends/fake.ts";
import type { ElementBackend } from "../desktop/backend.ts";
import { WindowsDriver } from "./driver.ts";

const ctx = { baseDir: "/tmp", log: () => undefined };

describe("the Windows adapters", () => {
  test("three app kinds: windows, notepad, calc", () => {
    expect(plugins.map((p) => p.kind)).toEqual(["windows", "notepad", "calc"]);
  });

  test("on another OS launching is an unsupported-platform error saying it requires Windows", async () => {
    const session = new WindowsSession(
      "notepad",
      async () => {
        throw new Error("must not load the Windows bindings");
      },
      "linux",
    );
    const error = await session.launch({}, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedPlatformError);
    expect((error as UnsupportedPlatformError).code).toBe("unsupported-platform");
    expect((error as Error).message).toBe("`app: notepad` requires Windows; this machine runs linux");
  });

  test("notepad and calc start their program; a windows app needs command and window_title", () => {
    expect(launchSpec("notepad", {})).toMatchObject({ command: "notepad.exe", windowTitle: "Notepad" });
    expect(launchSpec("calc", { window: { width: 400, height: 600 } })).toMatchObject({
      command: "calc.exe",
      windowTitle: "Calculator",
      geometry: { width: 400, height: 600 },
    });
    expect(launchSpec("windows", { command: "a.exe", window_title: "A", backend: "win32" })).toMatchObject({
      command: "a.exe",
      windowTitle: "A",
      backend: "win32",
    });
    expect(() => launchSpec("windows", {})).toThrow("needs `command` and `window_title`");
  });

  test("FLOWPROOF_WINDOW_TIMEOUT_MS bounds the wait for the window; a value that is no bound stops the launch naming it", () => {
    expect(windowTimeoutFromEnv({ FLOWPROOF_WINDOW_TIMEOUT_MS: "3000" })).toBe(3000);
    expect(windowTimeoutFromEnv({})).toBe(WINDOW_TIMEOUT_MS);
    expect(() => windowTimeoutFromEnv({ FLOWPROOF_WINDOW_TIMEOUT_MS: "soon" })).toThrow(
      'FLOWPROOF_WINDOW_TIMEOUT_MS must be a positive whole number of milliseconds, not "soon"',
    );
    expect(() => windowTimeoutFromEnv({ FLOWPROOF_WINDOW_TIMEOUT_MS: "2200000000" })).toThrow(
      "FLOWPROOF_WINDOW_TIMEOUT_MS=2200000000 is longer than the longest bound flowproof can wait",
    );
  });

  test("the backend: the one the trace recorded, else the first that can search the window", async () => {
    const w = { handle: "1", title: "A", className: "A", pid: 1, visible: true };
    const uia = { name: "uia", canSearch: async () => false } as unknown as ElementBackend;
    const win32 = { name: "win32", canSearch: async () => true } as unknown as ElementBackend;
    expect((await chooseBackend([uia, win32], w)).name).toBe("win32");
    expect((await chooseBackend([{ ...uia, canSearch: async () => true } as ElementBackend, win32], w)).name).toBe("uia");
    expect((await chooseBackend([{ ...uia, canSearch: async () => true } as ElementBackend, win32], w, "win32")).name).toBe("win32");
  });

  test("on Windows a session starts the program, waits for its window and closes it at the end", async () => {
    const desk = new FakeDesktop();
    desk.programs.set("fixture.exe", {
      windows: [{ handle: "9", title: "Fixture", className: "F", visible: true, rect: { x: 0, y: 0, width: 10, height: 10 }, controls: [] }],
    });
    const session = new WindowsSession("windows", async () => ({ desktop: desk, backends: [desk] }), "win32");
    const driver = await session.launch({ command: "fixture.exe", window_title: "Fixture", window: { x: 5, y: 6, width: 300, height: 200 } }, ctx);
    expect(driver).toBeInstanceOf(WindowsDriver);
    expect((driver as WindowsDriver).appInfo()).toEqual({ backend: "fake", geometry: { x: 5, y: 6, width: 300, height: 200 } });
    await driver.close();
    expect(desk.windows).toEqual([]);
    // The program is tied to this process (it ends with it, however it ends).
    expect(desk.handOffs).toEqual([false]);
  });

  test("a dialog the program opens beside its main window as it starts is reported (steps would act on it first)", async () => {
    const desk = new FakeDesktop();
    desk.programs.set("wordpad.exe", {
      windows: [
        { handle: "9", title: "Document - WordPad", className: "F", visible: true, rect: { x: 0, y: 0, width: 10, height: 10 }, controls: [] },
        { handle: "10", title: "WordPad", className: "#32770", visible: true, owner: "9", rect: { x: 0, y: 0, width: 5, height: 5 }, controls: [] },
      ],
    });
    const lines: string[] = [];
    const session = new WindowsSession("windows", async () => ({ desktop: desk, backends: [desk] }), "win32");
    const driver = await session.launch(
      { command: "wordpad.exe Files\\report.rtf", window_title: "WordPad" },
      { ...ctx, log: (l: string) => void lines.push(l) },
    );
    await driver.close();
    expect(lines).toEqual([
      'WARNING: the app opened a dialog as it started, "WordPad"; the steps act on it first. If it reports an error, check the flow\'s `command:` (a program path with spaces needs quotes)',
    ]);
  });

  test("a UWP app: geometry, input and closing go to its ApplicationFrameWindow host; explorer, though still running, and the app's process are never killed", async () => {
    const desk = new FakeDesktop();
    // An explorer that lingers after handing the start over (it never exits on its own here).
    desk.programs.set("explorer.exe", { windows: [] });
    const other = desk.addWindow({ handle: "50", title: "Elsewhere", pid: 7 });
    desk.addWindow({ handle: "700", title: "Calculator", className: "Windows.UI.Core.CoreWindow", pid: 41 });
    desk.addWindow({
      handle: "701",
      title: "Calculator",
      className: "ApplicationFrameWindow",
      pid: 42,
      controls: [control({ name: "Expression", controlType: "edit", automationId: "expr" })],
    });
    desk.foregroundHandle = other.handle;
    const session = new WindowsSession("windows", async () => ({ desktop: desk, backends: [desk] }), "win32");
    const driver = (await session.launch(
      {
        command: "explorer.exe shell:AppsFolder\\Microsoft.WindowsCalculator_8wekyb3d8bbwe!App",
        window_title: "Calculator",
        window: { x: 0, y: 0, width: 400, height: 600 },
      },
      ctx,
    )) as WindowsDriver;
    expect(driver.window).toMatchObject({ handle: "701", className: "ApplicationFrameWindow" });
    expect(desk.windows.find((w) => w.handle === "701")!.rect).toEqual({ x: 0, y: 0, width: 400, height: 600 });
    const typed = await driver.fill([{ tier: "native_id", provenance: "rules", payload: { id: "expr" } }], "7+5", {});
    expect(typed.ok).toBe(true);
    expect(desk.foregroundHandle).toBe("701");
    expect(desk.windows.find((w) => w.handle === "701")!.controls[0]!.value).toBe("7+5");
    expect(other.typed).toBe("");
    const started = Date.now();
    await driver.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(desk.windows.map((w) => w.handle)).toEqual(["50", "700"]);
    expect(desk.killed).toEqual([]);
    // explorer hands the start over: it is not tied to this process.
    expect(desk.handOffs).toEqual([true]);
  });
});
