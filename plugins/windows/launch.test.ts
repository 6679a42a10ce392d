import { describe, expect, test } from "bun:test";
import { openWindow, splitCommand } from "./launch.ts";
import { FakeDesktop } from "./backends/fake.ts";
import { FlowproofError } from "../../src/plugins/api.ts";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe("splitCommand", () => {
  test("a quoted path keeps its spaces and the arguments stay verbatim", () => {
    expect(splitCommand(`"C:\\Program Files\\App\\app.exe" --open "a b.txt"  -x`)).toEqual({ exe: "C:\\Program Files\\App\\app.exe", args: `--open "a b.txt"  -x` });
    expect(splitCommand("notepad.exe C:\\a.txt")).toEqual({ exe: "notepad.exe", args: "C:\\a.txt" });
    expect(splitCommand("calc.exe")).toEqual({ exe: "calc.exe", args: "" });
  });

  test("an unclosed quote or an empty command is named", () => {
    expect(splitCommand(`"C:\\x.exe --a`)).toContain("never closes");
    expect(splitCommand("  ")).toBe("the command is empty");
  });
});

describe("openWindow", () => {
  const window = { handle: "500", title: "Fixture App", className: "FixtureWindow", visible: true, rect: { x: 0, y: 0, width: 300, height: 200 }, controls: [] };

  test("waits for a window that appears late, by a part of its title, and applies window: geometry", async () => {
    const desk = new FakeDesktop();
    desk.programs.set("C:\\Apps\\fixture.exe", { windows: [window], delayMs: 150 });
    const opened = await openWindow(desk, { command: `"C:\\Apps\\fixture.exe" --late`, windowTitle: "Fixture", geometry: { x: 40, y: 30, width: 640, height: 420 }, timeoutMs: 5_000 }, sleep);
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
    expect((error as Error).message).toBe(`no window titled "Fixture" appeared within 300 ms of starting \`app.exe\`; windows seen: "Some Other App", "Wrong Title"`);
    expect(desk.killed).toHaveLength(1);
  });

  test("a program that exits with an error names its exit code and stderr", async () => {
    const desk = new FakeDesktop();
    desk.programs.set("bad.exe", { exit: { code: 3, stderr: "cannot open config\n" } });
    const error = await openWindow(desk, { command: "bad.exe --x", windowTitle: "Fixture", timeoutMs: 5_000 }, sleep).catch((e: unknown) => e);
    expect((error as Error).message).toBe("`bad.exe --x` exited with code 3 before a window titled \"Fixture\" appeared; its stderr: cannot open config");
  });

  test("a program that is not there fails at once", async () => {
    const desk = new FakeDesktop();
    const started = Date.now();
    const error = await openWindow(desk, { command: "missing.exe", windowTitle: "Fixture", timeoutMs: 10_000 }, sleep).catch((e: unknown) => e);
    expect((error as Error).message).toContain("exited with code 1");
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
