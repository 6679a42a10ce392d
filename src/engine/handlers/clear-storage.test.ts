import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, type EngineHarness } from "../../../test/support/engine.ts";
import { click } from "./click.ts";
import { clearStorage } from "./clear-storage.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});

const holds = async (expect: Parameters<EngineHarness["driver"]["check"]>[1]) => (await h.driver.check([], expect)).pass;

describe("clearStorage", () => {
  test("empties session storage, then the cookies, leaving local storage alone", async () => {
    const ctx = await h.context("todo-app.html");
    expect((await click(traceStep('Click "Save preferences"'), ctx)).status).toBe("passed");
    expect(await holds({ kind: "storage", area: "session", key: "draft", text: "half" })).toBe(true);
    expect(await holds({ kind: "cookie", name: "theme", fact: "exists" })).toBe(true);
    expect(await clearStorage(traceStep("Clear session storage"), ctx)).toEqual({ status: "passed" });
    expect(await holds({ kind: "storage_absent", area: "session", key: "draft" })).toBe(true);
    expect(await holds({ kind: "cookie", name: "theme", fact: "exists" })).toBe(true);
    expect(await clearStorage(traceStep("Clear cookies"), ctx)).toEqual({ status: "passed" });
    expect(await holds({ kind: "cookie", name: "theme", fact: "exists", negate: true })).toBe(true);
  });
  test("empties local storage", async () => {
    const ctx = await h.context("todo-app.html");
    await h.driver.typeFocused("Walk");
    await h.driver.pressKey("Enter", []);
    expect(await holds({ kind: "storage", area: "local", key: "todos-vanillajs", text: "Walk" })).toBe(true);
    expect(await clearStorage(traceStep("Clear local storage"), ctx)).toEqual({ status: "passed" });
    expect(await holds({ kind: "storage_absent", area: "local", key: "todos-vanillajs" })).toBe(true);
  });
});
