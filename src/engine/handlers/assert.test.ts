import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, byText, type EngineHarness } from "../../../test/support/engine.ts";
import { assertStep, seenClause } from "./assert.ts";
import { redact } from "../context.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});
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
  test("resolves a ${VAR} in a storage key and never lists the keys then", async () => {
    const ctx = await h.context("todo-app.html", { FW: "vanillajs" });
    await h.driver.typeFocused("Walk");
    await h.driver.pressKey("Enter", []);
    expect((await assertStep(a('local storage "todos-${FW}" contains Walk'), ctx)).status).toBe("passed");
    const r = await assertStep(a('local storage "todos-${FW}x" contains Walk within 0.2s'), ctx);
    expect(r.detail).toBe('expected local storage "todos-${FW}x" to contain "Walk" within 200 ms');
  });
  test("reads focus and the whole text", async () => {
    const ctx = await h.context("todo-app.html");
    expect((await assertStep(a('the "What needs to be done?" field is focused'), ctx)).status).toBe("passed");
    expect((await assertStep(a('the "css:#route" shows exactly Showing all'), ctx)).status).toBe("passed");
    const r = await assertStep(a('the "css:#route" shows exactly Showing within 0.2s'), ctx);
    expect(redact(r.detail!, ctx.secrets)).toBe('expected the "css:#route" to show exactly "Showing" within 200 ms; it shows "Showing all"');
  });
  test("compares with a remembered number plus an offset", async () => {
    const ctx = await h.context("counter.html");
    ctx.captures.set("before", "40");
    expect((await assertStep(a('the "id:count" shows ${captured.before} + 1'), ctx)).status).toBe("passed");
    ctx.captures.set("word", "forty");
    expect((await assertStep(a('the "id:count" shows ${captured.word} + 1'), ctx)).detail).toBe(
      'the value remembered as word ("forty") does not read as a number, so it cannot be compared with + 1',
    );
  });
  test("a failed computed assertion shows the remembered value and the result it expected", async () => {
    const ctx = await h.context("counter.html");
    ctx.captures.set("before", "$39.50");
    const r = await assertStep(a('the "id:count" shows ${captured.before} + 0.25 within 0.2s'), ctx);
    expect(redact(r.detail!, ctx.secrets)).toBe(
      'expected the "id:count" to show ${captured.before} + 0.25 (39.50 + 0.25 = 39.75, before was remembered as "$39.50") within 200 ms; it shows "41"',
    );
  });
  test("a failed text assertion shows what a remembered value made it, never a ${VAR} value", async () => {
    const ctx = await h.context("counter.html", { CODE: "hunter2-canary" });
    ctx.captures.set("n", "40");
    expect(redact((await assertStep(a('the "id:count" shows ${captured.n} within 0.2s'), ctx)).detail!, ctx.secrets)).toBe(
      'expected the "id:count" to show "${captured.n}" (that is, "40") within 200 ms; it shows "41"',
    );
    const masked = await assertStep(a('the "id:count" shows ${captured.n} ${CODE} within 0.2s'), ctx);
    expect(masked.detail).toBe('expected the "id:count" to show "${captured.n} ${CODE}" (that is, "40 ${CODE}") within 200 ms');
  });
});

describe("seenClause", () => {
  test.each([
    [{ kind: "text_contains", text: "x" }, '"Pending"', false, 'it shows "Pending"'],
    [{ kind: "text_contains", text: "x" }, "Welcome back", true, "the page shows Welcome back"],
    [{ kind: "text_contains", text: "x", count: 3 }, "1 times", true, "the page shows it once"],
    [{ kind: "count", count: 3 }, "found 2", false, "it appears 2 times"],
    [{ kind: "visible", visible: true }, 'never appeared (no element matched "css:#x")', false, 'it never appeared (no element matched "css:#x")'],
    [{ kind: "enabled", enabled: true }, "disabled", false, "it is disabled"],
    [{ kind: "empty", empty: true }, '"abc"', false, 'it shows "abc"'],
    [{ kind: "checked", checked: true }, "<input#x> is not a checkbox, radio or switch", false, "<input#x> is not a checkbox, radio or switch"],
    [{ kind: "title", op: "equals", value: "x" }, "Orders", true, "it is Orders"],
    [{ kind: "selected", selected: true }, "not selected", false, "it is not selected"],
    [{ kind: "url", op: "equals", value: "/x" }, "its path is /y (the whole URL is http://h/y?q=1)", true, "its path is /y (the whole URL is http://h/y?q=1)"],
    [{ kind: "focused", focused: true }, "nothing has keyboard focus", false, "nothing has keyboard focus"],
    [{ kind: "text_equals", text: "x" }, '"x y"', false, 'it shows "x y"'],
  ] as const)("%j reading %s", (expect_, actual, surface, clause) => {
    expect(seenClause(expect_, actual, surface)).toBe(clause);
  });
});
