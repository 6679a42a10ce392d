import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, type EngineHarness } from "../../../test/support/engine.ts";
import { clearStorage } from "./clear-storage.ts";
import { setCookie } from "./set-cookie.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});

const reading = (expect: Parameters<EngineHarness["driver"]["check"]>[1]) => h.driver.check([], expect);

describe("setCookie", () => {
  test("sets a cookie for the page's URL, counted and placed like any other", async () => {
    const ctx = await h.context("todo-app.html");
    expect(await clearStorage(traceStep("Clear cookies"), ctx)).toEqual({ status: "passed" });
    expect((await reading({ kind: "cookie_count", count: 0 })).pass).toBe(true);
    expect(await setCookie(traceStep('Set cookie "theme" to dark'), ctx)).toEqual({ status: "passed" });
    expect((await reading({ kind: "cookie", name: "theme", fact: "exists" })).pass).toBe(true);
    expect((await reading({ kind: "cookie_count", count: 1 })).pass).toBe(true);
    expect((await reading({ kind: "cookie_where", name: "theme", attribute: "path", value: "/" })).pass).toBe(true);
    expect((await reading({ kind: "cookie_where", name: "theme", attribute: "domain", value: "127.0.0.1" })).pass).toBe(true);
    const two = await reading({ kind: "cookie_count", count: 2 });
    expect(two.pass).toBe(false);
    expect(two.actual).toContain("1 cookie is set for http://127.0.0.1:");
    expect(two.actual).toEndWith(": theme");
  });
});
