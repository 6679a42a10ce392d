import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, type EngineHarness } from "../../../test/support/engine.ts";
import { setViewport } from "./set-viewport.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});

describe("setViewport", () => {
  test("resizes the page, which lays itself out for the new size, and back", async () => {
    const ctx = await h.context("todo-app.html");
    expect(await setViewport(traceStep("Resize the viewport to 320x480"), ctx)).toEqual({ status: "passed" });
    expect((await h.driver.environment()).resolution).toEqual([320, 480]);
    expect((await h.driver.check([], { kind: "text_contains", text: "Narrow layout" })).pass).toBe(true);
    expect(await setViewport(traceStep("Resize the viewport to 1280x800"), ctx)).toEqual({ status: "passed" });
    expect((await h.driver.check([], { kind: "text_contains", text: "Wide layout" })).pass).toBe(true);
  });
});
