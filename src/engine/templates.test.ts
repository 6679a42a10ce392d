import { describe, expect, test } from "bun:test";
import { UnresolvedReferenceError, UnsetVariableError, resolveText } from "./templates.ts";

const ctx = (env: Record<string, string | undefined> = {}, captures: Record<string, string> = {}) => ({
  env,
  captures: new Map(Object.entries(captures)),
  secrets: new Map<string, string>(),
});

/** The UnresolvedReferenceError message a resolution throws. */
function failure(raw: string, c = ctx()): string {
  try {
    resolveText(raw, c);
  } catch (error) {
    if (error instanceof UnresolvedReferenceError) return error.message;
    throw error;
  }
  throw new Error(`expected ${raw} to fail`);
}

describe("resolveText", () => {
  test.each<[string, Record<string, string>, Record<string, string>, string, boolean]>([
    ["plain text", {}, {}, "plain text", false],
    ["", {}, {}, "", false],
    ["${USER}", { USER: "ada" }, {}, "ada", true],
    ["order-${captured.oid}", {}, { oid: "4711" }, "order-4711", false],
    ["${captured.first} ${captured.last}", {}, { first: "Ada", last: "Lovelace" }, "Ada Lovelace", false],
    ["${HOST}/orders/${captured.oid}?u=${USER}", { HOST: "http://x", USER: "ada" }, { oid: "7" }, "http://x/orders/7?u=ada", true],
  ])("resolves %p", (raw, env, captures, value, hasEnv) => {
    expect(resolveText(raw, ctx(env, captures))).toEqual({ value, hasEnv });
  });

  test("records each environment value it used as a secret, by name", () => {
    const c = ctx({ USER: "ada", PASS: "hunter2", OTHER: "unused" });
    resolveText("${USER}:${PASS}", c);
    expect([...c.secrets.entries()]).toEqual([
      ["USER", "ada"],
      ["PASS", "hunter2"],
    ]);
  });

  test("records no secret for captures", () => {
    const c = ctx({}, { oid: "4711" });
    resolveText("${captured.oid}", c);
    expect(c.secrets.size).toBe(0);
  });

  test("refuses an unset variable, naming it, and never falls back to the literal", () => {
    const message = failure("Hello ${MISSING_VAR}");
    expect(message).toContain("${MISSING_VAR} is not set");
    expect(message).toContain("set the environment variable MISSING_VAR");
  });

  test("an unset variable is an UnsetVariableError naming it; an unknown capture is not", () => {
    const c = ctx({}, {});
    expect(() => resolveText("${NOPE_VAR}", c)).toThrow(UnsetVariableError);
    try {
      resolveText("a ${NOPE_VAR}", c);
    } catch (error) {
      expect((error as UnsetVariableError).variable).toBe("NOPE_VAR");
    }
    let thrown: unknown;
    try {
      resolveText("${captured.none}", c);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UnresolvedReferenceError);
    expect(thrown).not.toBeInstanceOf(UnsetVariableError);
  });

  test("treats an empty variable as unset", () => {
    expect(failure("${EMPTY}", ctx({ EMPTY: "" }))).toContain("${EMPTY} is not set");
  });

  test("names the captures in scope when a capture is unknown", () => {
    const message = failure("${captured.total}", ctx({}, { rows: "3", amount: "9" }));
    expect(message).toContain("${captured.total} was never remembered");
    expect(message).toContain("captures in scope: rows, amount");
    expect(message).toContain('Remember the "…" as total');
  });

  test("says nothing was remembered when no capture is in scope", () => {
    expect(failure("${captured.total}")).toContain("no value has been remembered yet");
  });

  test("refuses a malformed reference", () => {
    expect(failure("${captured.}")).toContain('in "${captured.}"');
  });

  test("names itself UnresolvedReferenceError", () => {
    expect(new UnresolvedReferenceError("x").name).toBe("UnresolvedReferenceError");
  });
});

describe("interpolation answers 10^5 characters of adversarial text in time", () => {
  test("resolveText", async () => {
    const { adversarialInputs, slowInputs } = await import("../../test/support/fuzz.ts");
    const inputs = adversarialInputs(["${A} ", "${captured.a} ", "${", "$${A}"], ["${A}", "}"]);
    const c = ctx({ A: "x".repeat(1000) }, { a: "y" });
    expect(await slowInputs(inputs, (t) => resolveText(t, c))).toEqual([]);
  }, 600_000);
});
