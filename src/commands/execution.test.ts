import { describe, expect, test } from "bun:test";
import { SpecError } from "../diagnostics/diagnostic.ts";
import { DEFAULT_STEP_TIMEOUT_MS } from "../engine/compile.ts";
import { stepTimeoutFromEnv } from "./execution.ts";

/** The SpecError a call throws. */
function specError(run: () => unknown): SpecError {
  try {
    run();
  } catch (error) {
    if (error instanceof SpecError) return error;
    throw error;
  }
  throw new Error("expected a SpecError");
}

describe("stepTimeoutFromEnv", () => {
  test.each<[Record<string, string | undefined>, number]>([
    [{}, DEFAULT_STEP_TIMEOUT_MS],
    [{ FLOWPROOF_STEP_TIMEOUT_MS: "" }, DEFAULT_STEP_TIMEOUT_MS],
    [{ FLOWPROOF_STEP_TIMEOUT_MS: undefined }, DEFAULT_STEP_TIMEOUT_MS],
    [{ FLOWPROOF_STEP_TIMEOUT_MS: "250" }, 250],
    [{ FLOWPROOF_STEP_TIMEOUT_MS: "120000" }, 120_000],
  ])("reads %j as %d ms", (env, ms) => {
    expect(stepTimeoutFromEnv(env)).toBe(ms);
  });

  test("defaults to 5 s", () => {
    expect(DEFAULT_STEP_TIMEOUT_MS).toBe(5_000);
  });

  test.each(["abc", "0", "-5", "1.5", "5s"])("refuses %p as bad-value with an example", (raw) => {
    const e = specError(() => stepTimeoutFromEnv({ FLOWPROOF_STEP_TIMEOUT_MS: raw }));
    expect(e.code).toBe("bad-value");
    expect(e.message).toBe(`FLOWPROOF_STEP_TIMEOUT_MS must be a whole number of milliseconds, not ${JSON.stringify(raw)}`);
    expect(e.diagnostics[0]!.hint).toBe("FLOWPROOF_STEP_TIMEOUT_MS=5000");
  });
});

describe("stepTimeoutFromEnv refusals", () => {
  test.each(["1e3", " 250 ", "0x10"])("refuses FLOWPROOF_STEP_TIMEOUT_MS=%p", (raw) => {
    expect(() => stepTimeoutFromEnv({ FLOWPROOF_STEP_TIMEOUT_MS: raw })).toThrow(SpecError);
  });
});
