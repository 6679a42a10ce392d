import { Lifecycle } from "./lifecycle.ts";
import { describe, expect, test } from "bun:test";
import { BUILTIN_ADAPTERS, BUILTIN_ASSERTIONS } from "./builtin.ts";
import { AdapterRegistry } from "./registry.ts";

describe("BUILTIN_ADAPTERS", () => {
  test("every built-in kind, each with the capabilities it declares and the platforms it runs on", () => {
    // Spelled out: a capability dropped or gained by a built-in changes what flows load, so it must show here.
    const declared = BUILTIN_ADAPTERS.map((a) => [a.kind, [...a.capabilities].sort(), a.platforms?.os ?? "any"]);
    expect(declared).toEqual([
      ["web", ["cookies", "dialogs", "downloads", "drag", "hover", "keyboard", "navigation", "pointer", "screenshot", "scroll", "select", "upload"], "any"],
      ["api", [], "any"],
      ["agent", [], "any"],
      ["sap", ["keyboard", "navigation", "pointer", "screenshot", "select"], ["win32"]],
      ["windows", ["keyboard", "pointer", "screenshot", "select"], ["win32"]],
      ["notepad", ["keyboard", "pointer", "screenshot", "select"], ["win32"]],
      ["calc", ["keyboard", "pointer", "screenshot", "select"], ["win32"]],
      ["vision", ["keyboard", "pointer", "screenshot"], ["linux", "win32"]],
    ]);
    for (const a of BUILTIN_ADAPTERS) expect({ kind: a.kind, open: typeof a.open }).toEqual({ kind: a.kind, open: "function" });
  });

  test("builds a registry that answers every built-in kind, and refuses a duplicate kind", () => {
    const registry = new AdapterRegistry(BUILTIN_ADAPTERS, new Lifecycle());
    expect([...registry.kinds()].sort()).toEqual(["agent", "api", "calc", "notepad", "sap", "vision", "web", "windows"]);
    expect(() => new AdapterRegistry([...BUILTIN_ADAPTERS, BUILTIN_ADAPTERS[0]!], new Lifecycle())).toThrow(/web/);
  });

  test("the built-in assertion kinds, by step key", () => {
    expect(BUILTIN_ASSERTIONS.map((a) => a.key)).toEqual(["assert_api", "assert_sql", "assert_spreadsheet", "assert_screenshot"]);
  });
});
