import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, type EngineHarness } from "../../../test/support/engine.ts";
import { click } from "./click.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});

describe("click", () => {
  test("clicks, double-clicks and right-clicks by the trace's action type", async () => {
    const ctx = await h.context("pointer.html");
    expect((await click(traceStep('Double-click "Open twice"'), ctx)).status).toBe("passed");
    expect((await h.driver.check([], { kind: "text_contains", text: "double clicked" })).pass).toBe(true);
    expect((await click(traceStep('Right-click "Row actions"'), ctx)).status).toBe("passed");
    expect((await h.driver.check([], { kind: "text_contains", text: "context menu" })).pass).toBe(true);
    expect((await click(traceStep('Click "Pad" at 10%,90%'), ctx)).status).toBe("passed");
    expect((await h.driver.check([], { kind: "text_contains", text: "pad at 10%,90%" })).pass).toBe(true);
  });
  test("waits for a button to become enabled", async () => {
    const ctx = await h.context("late-enable.html");
    expect((await click(traceStep('Click "Start"'), ctx)).status).toBe("passed");
    expect(await click(traceStep('Click "Continue"'), ctx)).toEqual({ status: "passed", tier: "text_anchor" });
  });
  test("times out naming the condition that never held", async () => {
    const ctx = await h.context("overlay.html");
    const r = await click(traceStep('Click "Hidden buy"', { stepTimeoutMs: 500 }), ctx);
    expect(r.status).toBe("failed");
    expect(r.detail).toStartWith('timed out after 500 ms waiting for the "Hidden buy" to receive the pointer: ');
  });
});
