import { describe, expect, test } from "bun:test";
import { envOf, headedFor } from "./common.ts";

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

describe("envOf", () => {
  test("--grid becomes the run's FLOWPROOF_GRID_URL, over the one in the environment; without it the environment is as given", () => {
    const env = { FLOWPROOF_GRID_URL: "http://env:4444", A: "1" };
    expect(envOf({ env, grid: "http://flag:4444" })).toEqual({ FLOWPROOF_GRID_URL: "http://flag:4444", A: "1" });
    expect(envOf({ env })).toBe(env);
  });
  test("--browser becomes the run's FLOWPROOF_BROWSER, over the one in the environment", () => {
    const env = { FLOWPROOF_BROWSER: "chromium", A: "1" };
    expect(envOf({ env, browser: "firefox" })).toEqual({ FLOWPROOF_BROWSER: "firefox", A: "1" });
    expect(envOf({ env, grid: "local", browser: "firefox" })).toEqual({ FLOWPROOF_BROWSER: "firefox", FLOWPROOF_GRID_URL: "local", A: "1" });
  });
});
