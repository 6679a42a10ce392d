import { describe, expect, test } from "bun:test";
import { BUILTIN_ASSERTIONS } from "../plugins/builtin.ts";
import { defineAssertion } from "../plugins/api.ts";
import { adapterFor, adapterRegistry, assertionKinds, surfaceCatalog } from "./project-plugins.ts";
import type { AdapterPlugin, AssertionPlugin } from "../plugins/api.ts";

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

describe("one run, one view of its plugins", () => {
  test("the catalogue, the registry and the assertion map of one plugin list are built once and shared", () => {
    const adapters: readonly AdapterPlugin[] = [];
    const assertions: readonly AssertionPlugin[] = [];
    expect(surfaceCatalog(adapters)).toBe(surfaceCatalog(adapters));
    expect(adapterRegistry(adapters)).toBe(adapterRegistry(adapters));
    expect(assertionKinds(assertions)).toBe(assertionKinds(assertions));
    expect(surfaceCatalog()).toBe(surfaceCatalog());
    // Another run's list is another view.
    expect(surfaceCatalog([])).not.toBe(surfaceCatalog(adapters));
  });
});
