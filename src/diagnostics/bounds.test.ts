import { describe, expect, test } from "bun:test";
import { MAX_TIMEOUT_MS, MAX_TIMEOUT_SECONDS, MAX_TIMEOUT_TEXT, isHoldableMs } from "./bounds.ts";

describe("bounds", () => {
  test("the maximum is one day, well inside what a timer can hold", () => {
    expect(MAX_TIMEOUT_SECONDS).toBe(86_400);
    expect(MAX_TIMEOUT_MS).toBeLessThan(2 ** 31 - 1);
    expect(MAX_TIMEOUT_TEXT).toBe("86400 s (24 h)");
  });
  test("accepts bounds up to the maximum and refuses longer, negative and non-finite ones", () => {
    expect(isHoldableMs(0)).toBe(true);
    expect(isHoldableMs(MAX_TIMEOUT_MS)).toBe(true);
    expect(isHoldableMs(MAX_TIMEOUT_MS + 1)).toBe(false);
    expect(isHoldableMs(2_200_000_000)).toBe(false);
    expect(isHoldableMs(-1)).toBe(false);
    expect(isHoldableMs(Number.POSITIVE_INFINITY)).toBe(false);
  });
});
