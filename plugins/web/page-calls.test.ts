import { describe, expect, test } from "bun:test";
import { fail, isTransient, ok, pageCallExpression, toRungs } from "./page-calls.ts";

describe("isTransient", () => {
  test("a document going away under the call is transient, as an Error or as text", () => {
    expect(isTransient(new Error("Runtime.evaluate: Execution context was destroyed."))).toBe(true);
    expect(isTransient("Error: Cannot find context with specified id")).toBe(true);
    expect(isTransient("Inspected target navigated or closed")).toBe(true);
  });

  test("any other failure is not", () => {
    expect(isTransient(new Error("the page crashed: its renderer process ended"))).toBe(false);
    expect(isTransient("TypeError: x is not a function")).toBe(false);
  });
});

describe("pageCallExpression", () => {
  test("calls the page API with its argument as JSON, or reports it missing", () => {
    const expression = pageCallExpression("count", { ladder: [{ tier: "role", payload: { name: 'a"b' } }] });
    expect(expression).toContain('globalThis.__flowproof.count({"ladder":[{"tier":"role","payload":{"name":"a\\"b"}}]})');
    expect(expression).toContain("__flowproofMissing: true");
  });
});

describe("attempts", () => {
  test("ok carries its tier only when there is one; fail is retryable unless told", () => {
    expect(ok(1)).toEqual({ ok: true, value: 1 });
    expect(ok(1, "role")).toEqual({ ok: true, value: 1, tier: "role" });
    expect(fail("not-found", "no button")).toEqual({ ok: false, failed: "not-found", detail: "no button", retryable: true });
    expect(fail("dialog", "a dialog", false)).toMatchObject({ ok: false, retryable: false });
  });

  test("toRungs keeps a selector's tier and payload only", () => {
    expect(toRungs([{ tier: "css", payload: { css: "#a" }, score: 3 } as never])).toEqual([{ tier: "css", payload: { css: "#a" } }]);
  });
});
