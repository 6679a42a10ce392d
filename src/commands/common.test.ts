import { describe, expect, test } from "bun:test";
import { headedFor } from "./common.ts";

describe("headedFor", () => {
  const hold = async () => undefined;
  test("headless unless asked, kept open for a person, or FLOWPROOF_HEADED is in the run's env", () => {
    expect(headedFor({}, {})).toBe(false);
    expect(headedFor({ keepOpen: hold }, {})).toBe(true);
    expect(headedFor({}, { FLOWPROOF_HEADED: "" })).toBe(true);
  });
  test("an explicit choice wins", () => {
    expect(headedFor({ headed: false, keepOpen: hold }, { FLOWPROOF_HEADED: "1" })).toBe(false);
    expect(headedFor({ headed: true }, {})).toBe(true);
  });
});
