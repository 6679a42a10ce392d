import { describe, expect, test } from "bun:test";
import type { AssertionPlugin, Verdict } from "../../plugins/api.ts";
import type { ExecutionContext } from "../context.ts";
import { systemClock } from "../context.ts";
import { LeakWatch } from "../secret-scan.ts";
import type { AppDriver } from "../../plugins/api.ts";
import type { TraceStep } from "../../trace/schema.ts";
import { resolveArgs, secretLeakAssert, structuredAssert } from "./structured.ts";

function step(args: unknown, timeout_ms = 1_000): TraceStep {
  return {
    id: "s0001",
    intent: "x",
    action: { type: "assert", params: { kind: "structured", key: "assert_probe", args, timeout_ms } },
    selectors: [],
    sync: { pre: [], post: [] },
    artifacts: {},
  };
}

function probe(answers: Verdict[], policy?: "poll" | "once"): AssertionPlugin & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    key: "assert_probe",
    schema: {},
    ...(policy ? { policy: () => policy } : {}),
    calls,
    async run(args) {
      calls.push(args);
      return answers[Math.min(calls.length - 1, answers.length - 1)]!;
    },
  };
}

function ctx(plugin: AssertionPlugin, env: Record<string, string> = {}): ExecutionContext {
  const secrets = new Map<string, string>();
  return {
    driver: { capabilities: new Set(), check: async () => ({ pass: false, actual: "" }) } as unknown as AppDriver,
    env,
    captures: new Map([["x", "42"]]),
    clock: systemClock,
    baseUrl: "",
    secrets,
    navigationTimeoutMs: 1_000,
    structured: {
      assertions: new Map([[plugin.key, plugin]]),
      mode: "replay",
      baseDir: ".",
      flowStem: "f",
      artifactDir: ".",
      log: () => undefined,
      leaks: new LeakWatch(["PW"], env, secrets),
    },
  };
}

const no: Verdict = { pass: false, expected: "ready", actual: "state is pending" };

describe("structuredAssert", () => {
  test("resolves ${VAR} and ${captured.x} in every string of the arguments", () => {
    expect(
      resolveArgs({ a: "${V}/${captured.x}", b: [1, "${V}"], c: true }, { env: { V: "v" }, captures: new Map([["x", "42"]]), secrets: new Map() }),
    ).toEqual({ a: "v/42", b: [1, "v"], c: true });
  });

  test("polls a read until it passes", async () => {
    const p = probe([no, no, { pass: true }]);
    expect(await structuredAssert(step({ id: "${captured.x}" }), ctx(p))).toEqual({ status: "passed" });
    expect(p.calls).toEqual([{ id: "42" }, { id: "42" }, { id: "42" }]);
  });

  test("runs a write exactly once", async () => {
    const p = probe([no, { pass: true }], "once");
    expect(await structuredAssert(step({}), ctx(p))).toEqual({
      status: "failed",
      detail: "assert_probe: state is pending (expected ready)",
      expected: "ready",
      actual: "state is pending",
    });
    expect(p.calls.length).toBe(1);
  });

  test("stops at once on a verdict that waiting cannot change", async () => {
    const p = probe([{ pass: false, expected: "a connection", actual: "X is not set", retryable: false }]);
    const r = await structuredAssert(step({}), ctx(p));
    expect(r.detail).toBe("assert_probe: X is not set (expected a connection)");
    expect(p.calls.length).toBe(1);
  });

  test("says it timed out, and a bound of 0 means one attempt", async () => {
    const p = probe([no]);
    expect((await structuredAssert(step({}, 50), ctx(p))).detail).toBe("assert_probe: timed out after 50 ms: state is pending (expected ready)");
    const q = probe([no]);
    await structuredAssert(step({}, 0), ctx(q));
    expect(q.calls.length).toBe(1);
  });

  test("reports a malformed verdict or a throwing plugin as an error", async () => {
    const bad = { ...probe([]), run: async () => ({ pass: "yes" }) } as unknown as AssertionPlugin;
    expect(await structuredAssert(step({}), ctx(bad))).toMatchObject({ status: "errored", detail: expect.stringContaining("malformed verdict") });
    const throws = {
      ...probe([]),
      run: async () => {
        throw new Error("boom");
      },
    } as unknown as AssertionPlugin;
    expect(await structuredAssert(step({}), ctx(throws))).toEqual({ status: "errored", detail: "assert_probe failed unexpectedly: boom" });
  });

  test("a key no plugin provides is an error naming it", async () => {
    const c = ctx(probe([]));
    const s = { ...step({}), action: { type: "assert" as const, params: { kind: "structured" as const, key: "assert_other", args: {} } } };
    expect((await structuredAssert(s, c)).detail).toContain("no assertion plugin provides `assert_other`");
  });
});

describe("secretLeakAssert", () => {
  test("fails naming where a watched value surfaced", async () => {
    const c = ctx(probe([]), { PW: "pa55word" });
    c.structured!.leaks.observe("assert_api response body of step s0001", "..pa55word..");
    const s: TraceStep = { ...step({}), action: { type: "assert", params: { kind: "no_secret_leak", vars: ["PW"] } } };
    expect(await secretLeakAssert(s, c)).toEqual({ status: "failed", detail: "secret leak: ${PW} surfaced in assert_api response body of step s0001" });
  });
});
