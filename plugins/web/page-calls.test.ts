import { describe, expect, test } from "bun:test";
import type { Session } from "./cdp/connection.ts";
import { callPage, fail, isTransient, NAVIGATING, ok, pageCallExpression, toRungs } from "./page-calls.ts";

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

describe("callPage", () => {
  /** A session whose document lacks the page script, and whose install call meets `installFails`. */
  const lacking = (installFails: Error): Session =>
    ({
      send: async (_method: string, params: { expression: string }) => {
        if (params.expression.includes("__flowproofMissing")) return { result: { value: { __flowproofMissing: true } } };
        throw installFails;
      },
    }) as unknown as Session;

  test("a document replaced while the script is installed is a transient, never a thrown protocol error", async () => {
    const answer = await callPage(lacking(new Error("Runtime.evaluate: Inspected target navigated or closed")), "count", {});
    expect(answer).toEqual({ transient: NAVIGATING });
  });

  test("any other failure to install still throws", async () => {
    await expect(callPage(lacking(new Error("the page crashed: its renderer process ended")), "count", {})).rejects.toThrow("renderer process ended");
  });
});
