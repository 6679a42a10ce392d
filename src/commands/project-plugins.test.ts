import { describe, expect, test } from "bun:test";
import { BUILTIN_ASSERTIONS } from "../plugins/builtin.ts";
import { defineAssertion } from "../plugins/api.ts";
import { adapterFor, assertionKinds } from "./project-plugins.ts";

describe("adapterFor", () => {
  test("finds a built-in kind and refuses an unknown one with the hint", () => {
    expect(adapterFor("web").kind).toBe("web");
    expect(() => adapterFor("mainframe")).toThrow(/no adapter for app kind "mainframe"/);
  });
});

describe("assertionKinds", () => {
  test("the built-ins, then the project's, by step key", () => {
    const mine = defineAssertion({ key: "assert_mine", schema: { type: "object" }, run: async () => ({ pass: true }) });
    const kinds = assertionKinds([mine]);
    expect(kinds.get("assert_mine")).toBe(mine);
    expect(kinds.size).toBe(BUILTIN_ASSERTIONS.length + 1);
  });
});
