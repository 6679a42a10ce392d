import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, byId, type EngineHarness } from "../../../test/support/engine.ts";
import { pressKey } from "./press-key.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});

describe("pressKey", () => {
  test("presses named keys and chords with their modifiers", async () => {
    const ctx = await h.context("keys.html");
    expect((await pressKey(traceStep("Press Shift+Tab"), ctx)).status).toBe("passed");
    await h.context("keys.html");
    expect((await pressKey(traceStep("Press Control+V"), ctx)).status).toBe("passed");
    expect((await pressKey(traceStep("Press ArrowDown"), ctx)).status).toBe("passed");
    const log = await h.driver.readText(byId("log"));
    expect(log).toMatchObject({ value: "Control Control+v ArrowDown" });
  });
  test("opens a palette bound to the portable Mod key", async () => {
    const ctx = await h.context("keys.html");
    await pressKey(traceStep("Press Mod+K"), ctx);
    expect((await h.driver.check([], { kind: "text_contains", text: "Palette open" })).pass).toBe(true);
  });
});
