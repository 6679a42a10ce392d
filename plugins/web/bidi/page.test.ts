import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FlowproofError } from "../../../src/plugins/api.ts";
import { startFirefox, type FirefoxBed } from "../../../test/support/firefox.ts";
import { isBidiTransient, jsonExpression } from "./page.ts";

describe("pure parts", () => {
  test("a value travels as JSON text; undefined as its own marker", async () => {
    expect(await eval(jsonExpression("({ a: [1, 'x'] })"))).toBe('{"a":[1,"x"]}');
    expect(await eval(jsonExpression("Promise.resolve(3)"))).toBe("3");
    expect(await eval(jsonExpression("undefined"))).toBe("__undefined");
  });

  test("BiDi failures that mean the document went away are transient; others are not", () => {
    expect(isBidiTransient(new Error("script.evaluate: no such frame: Browsing context with id 4 not found"))).toBe(true);
    expect(isBidiTransient("TypeError: can't access dead object")).toBe(true);
    expect(isBidiTransient(new Error("script.evaluate: invalid argument: expected string"))).toBe(false);
  });
});

describe("in Firefox", () => {
  let bed: FirefoxBed;
  beforeAll(async () => {
    bed = await startFirefox();
  });
  afterAll(() => bed?.close());

  test("evaluates plain data, awaits promises, and throws a page exception as a browser error", async () => {
    const page = await bed.page();
    await bed.connection.send("browsingContext.navigate", { context: page.context, url: "data:text/html,<title>T</title><p id=p>Hello</p>", wait: "complete" });
    expect(await page.evaluate("({ title: document.title, n: [1, 2], t: document.getElementById('p').textContent })")).toEqual({
      title: "T",
      n: [1, 2],
      t: "Hello",
    });
    expect(await page.evaluate("new Promise((r) => setTimeout(() => r('late'), 10))")).toBe("late");
    expect(await page.evaluate("undefined")).toBeUndefined();
    const error = await page.evaluate("nope()").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlowproofError);
    expect((error as Error).message).toContain("page script failed: ReferenceError");
    expect(await page.tryEvaluate("nope()")).toBeUndefined();
  }, 60_000);

  test("calls the injected page API, installing it in a document that lacks it", async () => {
    const page = await bed.page();
    await bed.connection.send("browsingContext.navigate", {
      context: page.context,
      url: "data:text/html,<button>Save</button><button>Save</button>",
      wait: "complete",
    });
    expect(await page.evaluate("typeof globalThis.__flowproof")).toBe("undefined");
    const count = await page.call<number>("count", { ladder: [{ tier: "text_anchor", payload: { text: "Save" } }] });
    expect(count).toBe(2);
    expect(await page.evaluate("typeof globalThis.__flowproof")).toBe("object");
  }, 60_000);
});
