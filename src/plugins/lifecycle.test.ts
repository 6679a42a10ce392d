import { describe, expect, test } from "bun:test";
import { Lifecycle, SIGNAL_EXIT_CODE, handleStopSignals, withDefaultStopSignals } from "./lifecycle.ts";

describe("Lifecycle", () => {
  test("the first stop request aborts the signal with the request; later ones answer again", () => {
    const l = new Lifecycle();
    expect(l.signal.aborted).toBe(false);
    expect(l.requestStop({ reason: "SIGTERM", signal: "SIGTERM" })).toBe("stopping");
    expect(l.signal.aborted).toBe(true);
    expect(l.signal.reason).toEqual({ reason: "SIGTERM", signal: "SIGTERM" });
    expect(l.requestStop({ reason: "SIGINT", signal: "SIGINT" })).toBe("again");
    expect(l.stopRequest).toEqual({ reason: "SIGTERM", signal: "SIGTERM" });
  });

  test("maps a signal stop to 130/143 and leaves other exit codes alone", () => {
    expect(SIGNAL_EXIT_CODE).toEqual({ SIGINT: 130, SIGTERM: 143, SIGHUP: 129 });
    const l = new Lifecycle();
    expect(l.exitCode(1)).toBe(1);
    l.requestStop({ reason: "SIGINT", signal: "SIGINT" });
    expect(l.exitCode(1)).toBe(130);
    const eof = new Lifecycle();
    eof.requestStop({ reason: "the MCP client closed stdin" });
    expect(eof.exitCode(0)).toBe(0);
  });

  test("an interceptor takes a SIGINT instead of stopping the process, but not a SIGTERM", () => {
    const l = new Lifecycle();
    const seen: string[] = [];
    const remove = l.intercept((r) => seen.push(r.reason));
    expect(l.requestStop({ reason: "SIGINT", signal: "SIGINT" })).toBe("intercepted");
    expect(l.signal.aborted).toBe(false);
    remove();
    expect(l.requestStop({ reason: "SIGINT", signal: "SIGINT" })).toBe("stopping");
    expect(seen).toEqual(["SIGINT"]);
    const t = new Lifecycle();
    t.intercept(() => seen.push("no"));
    expect(t.requestStop({ reason: "SIGTERM", signal: "SIGTERM" })).toBe("stopping");
    expect(seen).toEqual(["SIGINT"]);
  });

  test("stopAll stops every owned thing together and bounds a stop that hangs", async () => {
    const l = new Lifecycle();
    const stopped: string[] = [];
    l.own({ stop: async () => void stopped.push("a") });
    l.own({ stop: () => new Promise<void>(() => undefined) });
    const release = l.own({ stop: () => void stopped.push("released") });
    release();
    const began = Date.now();
    await l.stopAll(100);
    expect(Date.now() - began).toBeLessThan(2_000);
    expect(stopped).toEqual(["a"]);
    // The hung one is still owned, so the exit-time kill reaches it.
    expect(l.ownedCount).toBe(1);
  });

  test("killAll calls every synchronous kill and survives one that throws", () => {
    const l = new Lifecycle();
    const killed: string[] = [];
    l.own({
      stop: () => undefined,
      kill: () => {
        throw new Error("already gone");
      },
    });
    l.own({ stop: () => undefined, kill: () => void killed.push("b") });
    l.killAll();
    expect(killed).toEqual(["b"]);
  });
});

describe("Lifecycle.scoped", () => {
  test("a scoped stop aborts the signal seen inside that work only, with its reason", async () => {
    const lifecycle = new Lifecycle();
    const cancel = new AbortController();
    let inside: AbortSignal | undefined;
    let other: AbortSignal | undefined;
    const cancelled = lifecycle.scoped(cancel.signal, "the MCP client cancelled the call", async () => {
      await Promise.resolve();
      inside = lifecycle.signal;
      cancel.abort();
      await Bun.sleep(5);
      return lifecycle.stopRequest?.reason;
    });
    const untouched = lifecycle.scoped(new AbortController().signal, "never", async () => {
      await cancelled;
      other = lifecycle.signal;
      return lifecycle.stopRequest;
    });
    expect(await cancelled).toBe("the MCP client cancelled the call");
    expect(inside?.aborted).toBe(true);
    expect(await untouched).toBeUndefined();
    expect(other?.aborted).toBe(false);
    expect(lifecycle.signal.aborted).toBe(false);
    expect(lifecycle.stopRequest).toBeUndefined();
  });

  test("a process stop reaches the work running in a scope", async () => {
    const lifecycle = new Lifecycle();
    const seen = await lifecycle.scoped(new AbortController().signal, "never", async () => {
      lifecycle.requestStop({ reason: "SIGTERM", signal: "SIGTERM" });
      return [lifecycle.signal.aborted, lifecycle.stopRequest?.reason];
    });
    expect(seen).toEqual([true, "SIGTERM"]);
  });
});

describe("handleStopSignals", () => {
  test("a signal stops the lifecycle; an immediate repeat is the same request; the grace period forces the exit after stopping what is owned", async () => {
    const lifecycle = new Lifecycle();
    const lines: string[] = [];
    const stopped: string[] = [];
    lifecycle.own({ stop: () => void stopped.push("browser") });
    let exited: (code: number) => void = () => undefined;
    const exitCode = new Promise<number>((resolve) => (exited = resolve));
    const remove = handleStopSignals(lifecycle, { notify: (l) => lines.push(l), graceMs: 200, exit: (code) => exited(code) });
    try {
      process.emit("SIGTERM");
      expect(lifecycle.stopRequest).toEqual({ reason: "SIGTERM", signal: "SIGTERM" });
      process.emit("SIGTERM");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toStartWith("[INTERRUPTED] SIGTERM: stopping the run");
      expect(await exitCode).toBe(143);
      expect(stopped).toEqual(["browser"]);
      expect(lines[1]).toBe("[INTERRUPTED] the run did not stop within 200 ms; stopping every browser and child now");
    } finally {
      remove();
    }
  });
});

describe("withDefaultStopSignals", () => {
  test("takes the stop handlers off while work runs with nothing owned, and puts them back after", async () => {
    const lifecycle = new Lifecycle();
    const handler = () => undefined;
    process.on("SIGTERM", handler);
    try {
      const during = await withDefaultStopSignals(lifecycle, async () => process.listeners("SIGTERM").includes(handler));
      expect([during, process.listeners("SIGTERM").includes(handler)]).toEqual([false, true]);
      const release = lifecycle.own({ stop: () => undefined });
      const owning = await withDefaultStopSignals(lifecycle, async () => process.listeners("SIGTERM").includes(handler));
      release();
      expect(owning).toBe(true);
    } finally {
      process.removeListener("SIGTERM", handler);
    }
  });
});
