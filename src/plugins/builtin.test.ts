import { describe, expect, test } from "bun:test";
import { BUILTIN_ADAPTERS } from "./builtin.ts";
import { AdapterRegistry } from "./registry.ts";

describe("BUILTIN_ADAPTERS", () => {
  test("has the web adapter with pointer, keyboard and navigation", () => {
    const web = BUILTIN_ADAPTERS.find((a) => a.kind === "web");
    expect(web).toBeDefined();
    expect(web!.capabilities).toEqual(expect.arrayContaining(["pointer", "keyboard", "navigation"]));
    expect(typeof web!.open).toBe("function");
  });

  test("builds a registry without duplicate kinds", () => {
    expect(new AdapterRegistry(BUILTIN_ADAPTERS).kinds()).toContain("web");
  });
});
