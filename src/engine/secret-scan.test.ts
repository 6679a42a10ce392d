import { describe, expect, test } from "bun:test";
import { LeakWatch, leakVariables } from "./secret-scan.ts";
import type { TraceStep } from "../trace/schema.ts";
import type { AppDriver } from "../plugins/api.ts";

const scanStep = (vars: string[]): TraceStep => ({
  id: "s0001",
  intent: "x",
  action: { type: "assert", params: { kind: "no_secret_leak", vars } },
  selectors: [],
  sync: { pre: [], post: [] },
  artifacts: {},
});

describe("LeakWatch", () => {
  test("collects the variables of every scan step, first-seen order", () => {
    expect(leakVariables([scanStep(["B", "A"]), scanStep(["A", "C"])])).toEqual(["B", "A", "C"]);
  });

  test("names the variable and where, never the value; values join the redaction set", () => {
    const secrets = new Map<string, string>();
    const w = new LeakWatch(["PW", "OTHER"], { PW: "s3cret-value", OTHER: "elsewhere" }, secrets);
    expect(secrets.get("PW")).toBe("s3cret-value");
    w.observe("assert_api response body of step s0002", "x s3cret-value y");
    const problem = w.check(["OTHER", "PW"], { PW: "s3cret-value", OTHER: "elsewhere" });
    expect(problem).toBe("secret leak: ${PW} surfaced in assert_api response body of step s0002");
    expect(problem).not.toContain("s3cret");
  });

  test("refuses unset and short values, naming the minimum", () => {
    const w = new LeakWatch(["A", "B"], { B: "abc" }, new Map());
    expect(w.check(["A", "B"], { B: "abc" })).toBe(
      "${A} is not set; set the environment variable A so the run can be scanned for it; ${B} is too short to scan for: a secret must be at least 4 characters",
    );
  });

  test("a leak after a passed scan step is reported at the end of the run", async () => {
    const w = new LeakWatch(["PW"], { PW: "s3cret-value" }, new Map());
    expect(w.check(["PW"], { PW: "s3cret-value" })).toBeUndefined();
    const driver = { check: async (_l: unknown, e: { text: string }) => ({ pass: e.text === "s3cret-value", actual: "" }) } as unknown as AppDriver;
    await w.scanSurface(driver, "surface text after step s0003");
    expect(w.lateLeak()).toBe("secret leak: ${PW} surfaced in surface text after step s0003");
  });
});
