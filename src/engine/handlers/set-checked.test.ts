import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, byId, type EngineHarness } from "../../../test/support/engine.ts";
import { setChecked } from "./set-checked.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});
const box = byId("remember");

describe("setChecked", () => {
  test("checks, keeps, and unchecks", async () => {
    const ctx = await h.context("form.html");
    expect((await setChecked(traceStep('Check the "Remember me" checkbox'), ctx)).status).toBe("passed");
    expect((await setChecked(traceStep('Check the "Remember me" checkbox'), ctx)).status).toBe("passed");
    expect((await h.driver.check(box, { kind: "checked", checked: true })).pass).toBe(true);
    expect((await setChecked(traceStep('Uncheck the "Remember me" checkbox'), ctx)).status).toBe("passed");
    expect((await h.driver.check(box, { kind: "checked", checked: false })).pass).toBe(true);
  });
  test("fails on something that is not a checkbox", async () => {
    const ctx = await h.context("form.html");
    const r = await setChecked(traceStep('Check the "css:#full-name" checkbox', { stepTimeoutMs: 300 }), ctx);
    expect(r.status).toBe("failed");
  });
});
