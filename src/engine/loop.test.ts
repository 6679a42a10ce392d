import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, type EngineHarness } from "../../test/support/engine.ts";
import { executeSteps, reportLines } from "./loop.ts";
import { stepId } from "./plan.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});

const steps = (...texts: Array<[string, boolean?]>) =>
  texts.map(([t, assert], i) => ({ ...traceStep(t, { assert: assert ?? false, stepTimeoutMs: 400 }), id: stepId(i + 1) }));

describe("executeSteps", () => {
  test("runs steps in order and reports each with its timing and rung", async () => {
    const ctx = await h.context("greeter.html");
    const events: string[] = [];
    const results = await executeSteps(steps(['Type Ada into the "Your name" field'], ['Press the "Greet" button'], ["page shows Hello, Ada!", true]), ctx, {
      stepStarted: (s) => events.push(`start ${s.id}`),
      stepFinished: (s, r) => events.push(`end ${s.id} ${r.status}`),
    });
    expect(results.map((r) => [r.id, r.status])).toEqual([
      ["s0001", "passed"],
      ["s0002", "passed"],
      ["s0003", "passed"],
    ]);
    expect(results[0]!.selector_tier).toBe("text_anchor");
    expect(events).toEqual(["start s0001", "end s0001 passed", "start s0002", "end s0002 passed", "start s0003", "end s0003 passed"]);
    for (let i = 1; i < results.length; i++) expect(results[i]!.started_ms).toBeGreaterThanOrEqual(results[i - 1]!.started_ms + results[i - 1]!.duration_ms);
  });
  test("stops at the first failure and reports the rest as skipped", async () => {
    const ctx = await h.context("greeter.html");
    const results = await executeSteps(steps(['Click "Nope"'], ['Press the "Greet" button']), ctx);
    expect(results.map((r) => r.status)).toEqual(["failed", "skipped"]);
    expect(results[1]!.detail).toBe("not run: an earlier step failed");
  });
  test("fails closed on an unresolved reference and redacts resolved secrets from details", async () => {
    const ctx = await h.context("greeter.html", { TOKEN: "tok-123456" });
    const results = await executeSteps(
      steps(['Type ${TOKEN} into the "Your name" field'], ["page shows tok-123456 within 0.2s", true], ['Type ${MISSING_VAR_X} into the "Your name" field']),
      ctx,
    );
    expect(results[0]!.status).toBe("passed");
    expect(results[1]!.status).toBe("failed");
    expect(results[1]!.detail).not.toContain("tok-123456");
    expect(results[1]!.detail).toContain("${TOKEN}");
  });
  test("an unset ${VAR} errors the step (missing configuration); an unknown capture fails it", async () => {
    const ctx = await h.context("greeter.html", {});
    const unset = await executeSteps(steps(['Type ${MISSING_VAR_Y} into the "Your name" field']), ctx);
    expect(unset[0]!.status).toBe("errored");
    expect(unset[0]!.detail).toContain("${MISSING_VAR_Y} is not set");
    const capture = await executeSteps(steps(['Type ${captured.none} into the "Your name" field']), ctx);
    expect(capture[0]!.status).toBe("failed");
  });
  test("a stop request ends the running step as interrupted and starts no later step", async () => {
    const ctx = await h.context("greeter.html");
    const stop = new AbortController();
    const began = Date.now();
    const results = await executeSteps(
      steps(["page shows Never shown within 20s", true], ['Press the "Greet" button']),
      ctx,
      {
        stepStarted: () => {
          setTimeout(() => stop.abort({ reason: "SIGTERM", signal: "SIGTERM" }), 100);
        },
      },
      stop.signal,
    );
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(results.map((r) => [r.status, r.detail])).toEqual([
      ["errored", "interrupted: the run was stopped (SIGTERM) during this step"],
      ["skipped", "not run: the run was interrupted"],
    ]);
  });
  test("a stop request before the first step marks that step interrupted", async () => {
    const ctx = await h.context("greeter.html");
    const stop = new AbortController();
    stop.abort({ reason: "SIGINT", signal: "SIGINT" });
    const results = await executeSteps(steps(['Press the "Greet" button'], ["page shows Hello", true]), ctx, {}, stop.signal);
    expect(results.map((r) => [r.status, r.detail])).toEqual([
      ["errored", "interrupted: the run was stopped (SIGINT) before this step"],
      ["skipped", "not run: the run was interrupted"],
    ]);
  });
  test("without a stop of its own, the run's stop passed in the step context (its lifecycle's signal) stops the steps", async () => {
    const stop = new AbortController();
    const ctx = { ...(await h.context("greeter.html")), stop: stop.signal };
    stop.abort({ reason: "SIGTERM", signal: "SIGTERM" });
    const results = await executeSteps(steps(['Press the "Greet" button'], ["page shows Hello", true]), ctx);
    expect(results.map((r) => [r.status, r.detail])).toEqual([
      ["errored", "interrupted: the run was stopped (SIGTERM) before this step"],
      ["skipped", "not run: the run was interrupted"],
    ]);
  });
});

describe("reportLines", () => {
  test("a step with lines is reported as one line each, `<id>.<n>`; the first carries its time and conversation; other steps stay as they are", () => {
    const agent = { turns: 2, model_calls: 0, calls: [] };
    const lines = reportLines([
      { id: "s0001", intent: 'Click "Go"', status: "passed", started_ms: 0, duration_ms: 5 },
      {
        id: "s0002",
        intent: "prompt: a\nassert: reply contains b",
        status: "failed",
        detail: "the run failed",
        started_ms: 5,
        duration_ms: 900,
        agent,
        lines: [
          { intent: "prompt: a", status: "failed", detail: "model request 2 diverges" },
          { intent: "assert: reply contains b", status: "skipped", detail: "not judged" },
        ],
      },
    ]);
    expect(lines).toEqual([
      { id: "s0001", intent: 'Click "Go"', status: "passed", started_ms: 0, duration_ms: 5 },
      { id: "s0002.1", intent: "prompt: a", status: "failed", detail: "model request 2 diverges", started_ms: 5, duration_ms: 900, agent },
      { id: "s0002.2", intent: "assert: reply contains b", status: "skipped", detail: "not judged", started_ms: 5, duration_ms: 0 },
    ]);
  });
});
