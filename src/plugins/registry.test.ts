import { describe, expect, test } from "bun:test";
import { PluginError } from "../diagnostics/diagnostic.ts";
import { defineAdapter, type AdapterPlugin, type AdapterSession } from "./api.ts";
import { AdapterRegistry } from "./registry.ts";

const adapter = (kind: string): AdapterPlugin =>
  defineAdapter({
    kind,
    capabilities: ["pointer"],
    open: async (): Promise<AdapterSession> => {
      throw new Error("not opened in unit tests");
    },
  });

describe("AdapterRegistry", () => {
  test("finds an adapter by its kind", () => {
    const web = adapter("web");
    const registry = new AdapterRegistry([web, adapter("desktop")]);
    expect(registry.get("web")).toBe(web);
  });

  test("answers undefined for a kind nobody claims", () => {
    expect(new AdapterRegistry([adapter("web")]).get("calc")).toBeUndefined();
  });

  test("lists kinds in registration order", () => {
    expect(new AdapterRegistry([adapter("web"), adapter("api"), adapter("sap")]).kinds()).toEqual(["web", "api", "sap"]);
  });

  test("is empty when built from no plugins", () => {
    expect(new AdapterRegistry([]).kinds()).toEqual([]);
  });

  test("refuses two adapters claiming the same kind", () => {
    let caught: unknown;
    try {
      new AdapterRegistry([adapter("web"), adapter("api"), adapter("web")]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PluginError);
    const e = caught as PluginError;
    expect(e.code).toBe("plugin-error");
    expect(e.message).toBe('two adapters claim the app kind "web"');
    expect(e.diagnostics[0]!.hint).toContain("rename");
  });

  test("keeps separate registries independent", () => {
    const a = new AdapterRegistry([adapter("web")]);
    const b = new AdapterRegistry([adapter("api")]);
    expect([a.kinds(), b.kinds()]).toEqual([["web"], ["api"]]);
  });
});
