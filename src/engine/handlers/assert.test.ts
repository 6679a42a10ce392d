import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, byText, type EngineHarness } from "../../../test/support/engine.ts";
import { assertStep } from "./assert.ts";

let h: EngineHarness;
beforeAll(async () => { h = await engineHarness(); });
afterAll(async () => { await h.close(); });
const a = (text: string) => traceStep(text, { assert: true });

describe("assertStep", () => {
  test.each([
    "page shows row 3 times",
    "page does not show Disconnected",
    "page title is Orders - Acme Admin",
    "page url contains assertions",
    'the "css:li.row" appears 3 times',
    'the "id:balance" is empty',
    'the "id:inner" is not visible',
    "the searchBox field contains prefilled",
  ])("passes: %s", async (text) => {
    const ctx = await h.context("assertions.html");
    expect((await assertStep(a(text), ctx)).status).toBe("passed");
  });
  test("waits for text that arrives late", async () => {
    const ctx = await h.context("assertions.html");
    await h.driver.click(byText("Copy"), { button: "left", clickCount: 1 });
    expect((await assertStep(a('the "css:#toast" shows Copied within 5s'), ctx)).status).toBe("passed");
  });
  test("fails after its bound, saying what it expected and what it saw", async () => {
    const ctx = await h.context("assertions.html");
    const r = await assertStep(a("page title is Something else within 0.3s"), ctx);
    expect(r).toEqual({
      status: "failed",
      detail: 'expected the page title to be "Something else" within 300 ms; it is Orders - Acme Admin',
      expected: 'the page title to be "Something else"',
      actual: "Orders - Acme Admin",
    });
  });
  test("does not echo the page when the expectation holds a ${VAR} value", async () => {
    const ctx = await h.context("assertions.html", { SECRET_WORD: "hunter2-canary" });
    const r = await assertStep(a("page shows ${SECRET_WORD} within 0.2s"), ctx);
    expect(r.status).toBe("failed");
    expect(r.detail).toBe('expected the page to show "${SECRET_WORD}" within 200 ms');
    expect(r.expected).toBe('the page to show "${SECRET_WORD}"');
    expect(r.actual).toBeUndefined();
  });
  test("compares with a remembered number plus an offset", async () => {
    const ctx = await h.context("counter.html");
    ctx.captures.set("before", "40");
    expect((await assertStep(a('the "id:count" shows ${captured.before} + 1'), ctx)).status).toBe("passed");
    ctx.captures.set("word", "forty");
    expect((await assertStep(a('the "id:count" shows ${captured.word} + 1'), ctx)).detail).toContain("does not read as a number");
  });
});
