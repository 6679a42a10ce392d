import { describe, expect, test } from "bun:test";
import { FlowproofError } from "../../src/plugins/api.ts";
import { chooseBrowser, isBrowserName } from "./browser-choice.ts";

describe("chooseBrowser", () => {
  test("Chromium by default, the flow's name when written, FLOWPROOF_BROWSER (what --browser sets) over both", () => {
    expect(chooseBrowser(undefined, {})).toBe("chromium");
    expect(chooseBrowser("firefox", {})).toBe("firefox");
    expect(chooseBrowser("firefox", { FLOWPROOF_BROWSER: "chromium" })).toBe("chromium");
    expect(chooseBrowser(undefined, { FLOWPROOF_BROWSER: " firefox " })).toBe("firefox");
    expect(chooseBrowser("chromium", { FLOWPROOF_BROWSER: "" })).toBe("chromium");
  });

  test("an unknown FLOWPROOF_BROWSER is an error naming the variable and the choices, never a silent default", () => {
    let error: unknown;
    try {
      chooseBrowser(undefined, { FLOWPROOF_BROWSER: "safari" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FlowproofError);
    expect((error as FlowproofError).message).toContain("FLOWPROOF_BROWSER=safari");
    expect((error as FlowproofError).diagnostics?.[0]?.hint).toContain("firefox");
  });

  test("isBrowserName knows exactly the two engines", () => {
    expect(["chromium", "firefox", "webkit", 3].map(isBrowserName)).toEqual([true, true, false, false]);
  });
});
