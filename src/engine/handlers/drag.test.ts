import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, byId, type EngineHarness } from "../../../test/support/engine.ts";
import { drag } from "./drag.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});

describe("drag", () => {
  test("reorders a mouse-event sortable list", async () => {
    const ctx = await h.context("drag.html");
    expect((await drag(traceStep('Drag "Alpha" onto "Gamma"'), ctx)).status).toBe("passed");
    expect((await h.driver.check(byId("order"), { kind: "text_contains", text: "order = Beta, Gamma, Alpha" })).pass).toBe(true);
  });
  test("drops a native draggable through intercepted drag events", async () => {
    const ctx = await h.context("drag.html");
    expect((await drag(traceStep('Drag "Card" onto "Bin"'), ctx)).status).toBe("passed");
    expect((await h.driver.check(byId("dropped"), { kind: "text_contains", text: "dropped card-1" })).pass).toBe(true);
  });
  test("fails naming the drop target when it never appears", async () => {
    const ctx = await h.context("drag.html");
    const r = await drag(traceStep('Drag "Card" onto "Nowhere"', { stepTimeoutMs: 300 }), ctx);
    expect(r.status).toBe("failed");
    expect(r.detail).toContain("the drop target");
  });
});
