import { describe, expect, test } from "bun:test";
import { keepOpenOption, noDisplayReason } from "./keep-open.ts";
import { Lifecycle } from "../plugins/lifecycle.ts";
import type { KeepOpenFlags } from "./keep-open.ts";
import type { AppDriver } from "../plugins/api.ts";

const args = (flags: KeepOpenFlags): KeepOpenFlags => flags;
const quiet = { out: () => undefined, err: () => undefined };

describe("noDisplayReason", () => {
  test("Linux needs DISPLAY or WAYLAND_DISPLAY; other systems always have a screen", () => {
    expect(noDisplayReason({}, "linux")).toContain("no display");
    expect(noDisplayReason({ DISPLAY: ":0" }, "linux")).toBeUndefined();
    expect(noDisplayReason({ WAYLAND_DISPLAY: "wayland-0" }, "linux")).toBeUndefined();
    expect(noDisplayReason({}, "darwin")).toBeUndefined();
    expect(noDisplayReason({}, "win32")).toBeUndefined();
  });
});

describe("keepOpenOption", () => {
  test("is undefined without the flag", () => {
    expect(keepOpenOption(args({}), quiet, { DISPLAY: ":0" }, new Lifecycle())).toBeUndefined();
  });

  test("refuses what cannot wait for a person", () => {
    const env = { DISPLAY: ":0" };
    expect(() => keepOpenOption(args({ keepOpen: true, json: true }), quiet, env, new Lifecycle())).toThrow("--json");
    expect(() => keepOpenOption(args({ keepOpen: true, verify: true }), quiet, env, new Lifecycle())).toThrow("--verify");
    expect(() => keepOpenOption(args({ keepOpen: true, retries: 1 }), quiet, env, new Lifecycle())).toThrow("--retries");
  });

  test("leaves the environment alone and waits for the surface to close", async () => {
    const env: Record<string, string | undefined> = { DISPLAY: ":0" };
    const lines: string[] = [];
    const hold = keepOpenOption(args({ keepOpen: true, retries: 0 }), { out: () => undefined, err: (l) => lines.push(l) }, env, new Lifecycle())!;
    expect(env).toEqual({ DISPLAY: ":0" });
    let close!: () => void;
    const closed = new Promise<void>((r) => (close = r));
    let done = false;
    const waiting = hold({ untilClosed: () => closed } as unknown as AppDriver).then(() => (done = true));
    await Bun.sleep(10);
    expect(done).toBe(false);
    expect(lines.join("\n")).toContain("[KEEP-OPEN]");
    close();
    await waiting;
    expect(done).toBe(true);
  });

  test("a surface that cannot stay open is closed at once, with a note", async () => {
    const lines: string[] = [];
    const hold = keepOpenOption(args({ keepOpen: true }), { out: () => undefined, err: (l) => lines.push(l) }, { DISPLAY: ":0" }, new Lifecycle())!;
    await hold({} as AppDriver);
    expect(lines).toEqual(["[KEEP-OPEN] this surface cannot stay open; closing it"]);
  });

  test("a SIGINT ends the wait without stopping the run; a SIGTERM stops the run and ends it too", async () => {
    const quietIo = { out: () => undefined, err: () => undefined };
    const never = { untilClosed: () => new Promise<void>(() => undefined) } as unknown as AppDriver;
    const lifecycle = new Lifecycle();
    const hold = keepOpenOption(args({ keepOpen: true }), quietIo, { DISPLAY: ":0" }, lifecycle)!;
    const waiting = hold(never);
    expect(lifecycle.requestStop({ reason: "SIGINT", signal: "SIGINT" })).toBe("intercepted");
    await waiting;
    expect(lifecycle.signal.aborted).toBe(false);
    expect(lifecycle.exitCode(1)).toBe(1);
    const term = new Lifecycle();
    const waitingTerm = keepOpenOption(args({ keepOpen: true }), quietIo, { DISPLAY: ":0" }, term)!(never);
    expect(term.requestStop({ reason: "SIGTERM", signal: "SIGTERM" })).toBe("stopping");
    await waitingTerm;
    expect(term.exitCode(1)).toBe(143);
  });
});
