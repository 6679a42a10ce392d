import { describe, expect, test } from "bun:test";
import { redact, systemClock } from "./context.ts";

describe("redact", () => {
  test("replaces each secret value with its reference", () => {
    expect(redact("user ada typed hunter2", new Map([["USER", "ada"], ["PASS", "hunter2"]]))).toBe("user ${USER} typed ${PASS}");
  });

  test("replaces every occurrence", () => {
    expect(redact("abc-abc-abc", new Map([["X", "abc"]]))).toBe("${X}-${X}-${X}");
  });

  test("replaces longer secrets first so a shorter one inside cannot split them", () => {
    const secrets = new Map([["SHORT", "pass"], ["LONG", "password123"]]);
    expect(redact("password123 and pass", secrets)).toBe("${LONG} and ${SHORT}");
  });

  test.each([
    ["", "a"],
    ["ab", "ab"],
  ])("leaves values shorter than 3 characters alone (%p)", (value, text) => {
    expect(redact(`x ${text} y`, new Map([["TINY", value]]))).toBe(`x ${text} y`);
  });

  test("redacts a value of exactly 3 characters", () => {
    expect(redact("the abc", new Map([["V", "abc"]]))).toBe("the ${V}");
  });

  test("returns the text unchanged when there are no secrets", () => {
    expect(redact("nothing here", new Map())).toBe("nothing here");
  });
});

describe("systemClock", () => {
  test("never goes backwards", () => {
    const a = systemClock.now();
    const b = systemClock.now();
    expect(b).toBeGreaterThanOrEqual(a);
  });
});
