import { describe, expect, test } from "bun:test";
import { FlowproofError, MAX_TIMEOUT_MS } from "../../src/plugins/api.ts";
import { msFromEnv } from "./env.ts";

describe("msFromEnv", () => {
  test("a whole number of milliseconds is taken; unset or empty is the default", () => {
    expect(msFromEnv({ X_MS: "3000" }, "X_MS", 30_000)).toBe(3000);
    expect(msFromEnv({ X_MS: ` ${MAX_TIMEOUT_MS} ` }, "X_MS", 30_000)).toBe(MAX_TIMEOUT_MS);
    expect(msFromEnv({}, "X_MS", 30_000)).toBe(30_000);
    expect(msFromEnv({ X_MS: "" }, "X_MS", 30_000)).toBe(30_000);
  });

  test.each(["soon", "0", "-5", "2.5", "1e99", String(MAX_TIMEOUT_MS + 1)])("%p is a bad-value error naming the variable, what it holds and what to write", (raw) => {
    let error: unknown;
    try {
      msFromEnv({ X_MS: raw }, "X_MS", 30_000);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FlowproofError);
    const d = (error as FlowproofError).diagnostics[0]!;
    expect(d.code).toBe("bad-value");
    expect(d.message).toBe(`X_MS must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (24 h), not ${JSON.stringify(raw)}`);
    expect(d.hint).toBe("X_MS=30000, or unset it for the default (30000 ms)");
  });
});
