import { describe, expect, test } from "bun:test";
import { FlowproofError, PluginError } from "../diagnostics/diagnostic.ts";
import { AdapterError, AdapterUnavailableError, defineAdapter, type AdapterPlugin, type AdapterSession } from "./api.ts";
import { AdapterRegistry, ownCodes } from "./registry.ts";
import { Lifecycle } from "./lifecycle.ts";

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
    const registry = new AdapterRegistry([web, adapter("desktop")], new Lifecycle());
    expect(registry.get("web")).toMatchObject({ kind: "web", capabilities: web.capabilities });
  });

  test("answers undefined for a kind nobody claims", () => {
    expect(new AdapterRegistry([adapter("web")], new Lifecycle()).get("calc")).toBeUndefined();
  });

  test("lists kinds in registration order", () => {
    expect(new AdapterRegistry([adapter("web"), adapter("api"), adapter("sap")], new Lifecycle()).kinds()).toEqual(["web", "api", "sap"]);
  });

  test("is empty when built from no plugins", () => {
    expect(new AdapterRegistry([], new Lifecycle()).kinds()).toEqual([]);
  });

  test("refuses two adapters claiming the same kind", () => {
    let caught: unknown;
    try {
      new AdapterRegistry([adapter("web"), adapter("api"), adapter("web")], new Lifecycle());
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PluginError);
    const e = caught as PluginError;
    expect(e.code).toBe("plugin-error");
    expect(e.message).toBe('two adapters claim the app kind "web"');
    expect(e.diagnostics[0]!.hint).toContain("rename");
  });

  test("an adapter whose open() fails uncoded is unavailable, named by its kind; a coded failure stands", async () => {
    const failing = new AdapterRegistry([adapter("notes")], new Lifecycle());
    const e = await failing
      .get("notes")!
      .open()
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(e).toBeInstanceOf(AdapterUnavailableError);
    expect(e).toMatchObject({ code: "adapter-unavailable", message: "the `app: notes` adapter could not open: not opened in unit tests" });
    expect((e as AdapterUnavailableError).hint).toContain("`notes` adapter needs on this machine");
    expect((e as Error).cause).toBeInstanceOf(Error);
    const coded = new FlowproofError({ code: "app-launch", message: "notes.exe did not start" });
    const own = defineAdapter({
      kind: "notes",
      capabilities: ["pointer"],
      open: async (): Promise<AdapterSession> => {
        throw coded;
      },
    });
    await expect(new AdapterRegistry([own], new Lifecycle()).get("notes")!.open()).rejects.toBe(coded);
  });

  test("keeps separate registries independent", () => {
    const a = new AdapterRegistry([adapter("web")], new Lifecycle());
    const b = new AdapterRegistry([adapter("api")], new Lifecycle());
    expect([a.kinds(), b.kinds()]).toEqual([["web"], ["api"]]);
  });

  test("the lifecycle owns every opened session until it is closed, and nothing opens once stopping", async () => {
    const lifecycle = new Lifecycle();
    const closed: string[] = [];
    const web = defineAdapter({
      kind: "web",
      capabilities: ["pointer"],
      open: async (): Promise<AdapterSession> => ({
        launch: async () => {
          throw new Error("no driver here");
        },
        close: async () => void closed.push("web"),
      }),
    });
    const registry = new AdapterRegistry([web], lifecycle);
    const first = await registry.get("web")!.open();
    const second = await registry.get("web")!.open();
    expect(lifecycle.ownedCount).toBe(2);
    await first.close();
    expect(lifecycle.ownedCount).toBe(1);
    lifecycle.requestStop({ reason: "SIGTERM", signal: "SIGTERM" });
    await expect(second.launch({}, { baseDir: ".", log: () => undefined })).rejects.toThrow("the run was interrupted (SIGTERM) before this flow started");
    await expect(registry.get("web")!.open()).rejects.toMatchObject({
      code: "interrupted",
      message: "the run was interrupted (SIGTERM) before this flow started",
    });
    // A forced exit stops what is still open.
    await lifecycle.stopAll(1_000);
    expect(closed).toEqual(["web", "web"]);
    expect(lifecycle.ownedCount).toBe(0);
  });
});

describe("ownCodes", () => {
  const inv = { kind: "inv", errors: { "not-signed-on": { meaning: "The console refused the sign-on.", hint: "check `sign_on:`" } } };
  test("a declared code stands, gaining the declared hint; an undeclared or foreign one is a plugin-error; other errors pass as they are", () => {
    const declared = ownCodes(inv, new AdapterError("inv/not-signed-on", "refused")) as FlowproofError;
    expect(declared.diagnostics).toEqual([{ code: "inv/not-signed-on", message: "refused", hint: "check `sign_on:`" }]);
    const own = new AdapterError("inv/not-signed-on", "refused", { hint: "mine" });
    expect(ownCodes(inv, own)).toBe(own);
    for (const code of ["inv/oops", "web/not-signed-on"] as const) {
      const stray = ownCodes(inv, new AdapterError(code, "odd")) as FlowproofError;
      expect(stray).toBeInstanceOf(PluginError);
      expect(stray.message).toBe(`the \`app: inv\` adapter raised the error code \`${code}\`, which it does not declare: odd`);
    }
    const plain = new AdapterUnavailableError("gone", "start it");
    expect(ownCodes(inv, plain)).toBe(plain);
  });
});
