import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, byId, type EngineHarness } from "../../../test/support/engine.ts";
import { hover } from "./hover.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});

describe("hover", () => {
  test("moves the pointer onto the target so :hover styles apply", async () => {
    const ctx = await h.context("pointer.html");
    const item = byId("menu-item");
    expect((await h.driver.check(item, { kind: "visible", visible: false })).pass).toBe(true);
    expect((await hover(traceStep('Hover over "Menu"'), ctx)).status).toBe("passed");
    expect((await h.driver.check(item, { kind: "visible", visible: true })).pass).toBe(true);
  });
  test("fails when the target never appears", async () => {
    const ctx = await h.context("pointer.html");
    const r = await hover(traceStep('Hover over "Nowhere"', { stepTimeoutMs: 300 }), ctx);
    expect(r.status).toBe("failed");
    expect(r.detail).toContain("to appear");
  });
  test("fails when the target moves away from the pointer (:hover never lands)", async () => {
    const ctx = await h.context("hover-moves.html");
    const r = await hover(traceStep('Hover over "Shy button"', { stepTimeoutMs: 500 }), ctx);
    expect(r.status).toBe("failed");
    expect(r.detail).toContain("not hovered");
  });
  test("names the same failure whichever attempt the bound ends on (a restyle wait is a precaution, not a finding)", async () => {
    // Each hover restyles the target (it jumps away), so the attempt after it holds off for a
    // moment: bounds spread over a few attempt periods end on both kinds of attempt.
    const ctx = await h.context("hover-moves.html");
    const details: string[] = [];
    for (let i = 0; i < 10; i++) details.push((await hover(traceStep('Hover over "Shy button"', { stepTimeoutMs: 300 + 29 * i }), ctx)).detail ?? "");
    expect(details.filter((d) => !d.includes("not hovered"))).toEqual([]);
  });
});
