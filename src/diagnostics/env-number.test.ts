import { describe, expect, test } from "bun:test";
import { SpecError } from "./diagnostic.ts";
import { MAX_TIMEOUT_MS } from "./bounds.ts";
import { msFromEnv } from "./env-number.ts";

const NAME = "FLOWPROOF_SOME_TIMEOUT_MS";

function refusal(raw: string, code?: "model-config"): SpecError {
  try {
    msFromEnv({ [NAME]: raw }, NAME, { fallback: 5000, ...(code ? { code } : {}) });
  } catch (error) {
    if (error instanceof SpecError) return error;
    throw error;
  }
  throw new Error(`${JSON.stringify(raw)} was not refused`);
}

describe("msFromEnv", () => {
  test.each<[Record<string, string | undefined>, number]>([
    [{}, 5000],
    [{ [NAME]: "" }, 5000],
    [{ [NAME]: undefined }, 5000],
    [{ [NAME]: "1" }, 1],
    [{ [NAME]: "120000" }, 120_000],
    [{ [NAME]: String(MAX_TIMEOUT_MS) }, MAX_TIMEOUT_MS],
  ])("reads %j as %d ms", (env, ms) => {
    expect(msFromEnv(env, NAME, { fallback: 5000 })).toBe(ms);
  });

  test.each(["abc", "5s", "1.5", "0", "-5", " 250 ", "1e3", "0x10", "Infinity"])("refuses %p, naming the variable, the value and what to write", (raw) => {
    const e = refusal(raw);
    expect([e.code, e.message, e.diagnostics[0]!.hint]).toEqual([
      "bad-value",
      `${NAME} must be a positive whole number of milliseconds, not ${JSON.stringify(raw)}`,
      `${NAME}=5000`,
    ]);
  });

  test("refuses a bound no timer can hold", () => {
    const e = refusal(String(MAX_TIMEOUT_MS + 1));
    expect(e.message).toBe(`${NAME}=${MAX_TIMEOUT_MS + 1} is longer than the longest bound flowproof can wait, ${MAX_TIMEOUT_MS} ms (24 h)`);
    expect(e.diagnostics[0]!.hint).toBe(`set at most ${MAX_TIMEOUT_MS}, e.g. ${NAME}=5000`);
  });

  test("takes the code of the setting the variable belongs to", () => {
    expect(refusal("soon", "model-config").code).toBe("model-config");
  });
});
