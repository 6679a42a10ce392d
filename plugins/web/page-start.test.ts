import { describe, expect, test } from "bun:test";
import type { Connection, Session } from "./cdp/connection.ts";
import { pageInstaller } from "./page-calls.ts";
import { discoverTargets, startPage } from "./page-start.ts";
import { SCREEN_CHANGES_SCRIPT } from "./screen-changes.ts";
import { TASK_ORIGINS_SCRIPT } from "./task-origins.ts";

/** A session or connection that answers every command with `{}` (or fails it with `error`) and records it. */
function recorder(error?: Error): { send: (method: string, params?: unknown) => Promise<unknown>; calls: [string, unknown][] } {
  const calls: [string, unknown][] = [];
  const send = async (method: string, params?: unknown) => {
    calls.push([method, params]);
    if (error) throw error;
    return {};
  };
  return { send, calls };
}

describe("discoverTargets", () => {
  test("turns discovery on once per connection, and a failure does not throw", async () => {
    const a = recorder(new Error("closed"));
    const connection = { send: a.send } as unknown as Connection;
    await discoverTargets(connection);
    await discoverTargets(connection);
    expect(a.calls).toEqual([["Target.setDiscoverTargets", { discover: true }]]);
    const b = recorder();
    await discoverTargets({ send: b.send } as unknown as Connection);
    expect(b.calls).toHaveLength(1);
  });
});

describe("startPage", () => {
  test("enables the domains, adds the task-origins script before the page API and screen changes, shapes the page and emulates focus", async () => {
    const s = recorder();
    const offs: Array<() => void> = [];
    await startPage({ send: s.send } as unknown as Session, {}, undefined, (off) => void offs.push(off));
    const methods = s.calls.map(([m]) => m);
    expect(methods.slice(0, 3)).toEqual(["Page.enable", "Runtime.enable", "Log.enable"]);
    const scripts = s.calls.filter(([m]) => m === "Page.addScriptToEvaluateOnNewDocument").map(([, p]) => (p as { source: string }).source);
    expect(scripts).toEqual([TASK_ORIGINS_SCRIPT, pageInstaller(), SCREEN_CHANGES_SCRIPT]);
    expect(methods).toContain("Emulation.setDeviceMetricsOverride");
    expect(methods).toContain("Emulation.setFocusEmulationEnabled");
    expect(offs).toHaveLength(1);
  });
});
