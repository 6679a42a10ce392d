import { describe, expect, spyOn, test } from "bun:test";
import { BUILTIN_ADAPTERS, BUILTIN_ASSERTIONS } from "../plugins/builtin.ts";
import { defineAssertion } from "../plugins/api.ts";
import { Lifecycle } from "../plugins/lifecycle.ts";
import { NO_PLUGINS } from "../plugins/loader.ts";
import { tmpProject } from "../../test/support/tmp-project.ts";
import * as projectPlugins from "./project-plugins.ts";
import { assertionKinds, createRunContext, runContextsOf } from "./project-plugins.ts";
import { runSuite } from "./suite.ts";

describe("RunContext", () => {
  test("finds a built-in kind and refuses an unknown one naming the kinds there are", () => {
    const context = createRunContext(NO_PLUGINS, new Lifecycle());
    expect(context.adapterFor("web").kind).toBe("web");
    expect(() => context.adapterFor("mainframe")).toThrow(/no adapter for app kind "mainframe" \(available: web, api/);
  });

  test("holds the run's catalogue, registry and assertion map, built once, and the lifecycle it was given", () => {
    const mine = defineAssertion({ key: "assert_mine", schema: { type: "object" }, run: async () => ({ pass: true }) });
    const lifecycle = new Lifecycle();
    const context = createRunContext({ adapters: [], assertions: [mine], files: [] }, lifecycle);
    expect(context.lifecycle).toBe(lifecycle);
    expect(context.assertions.get("assert_mine")).toBe(mine);
    expect(context.assertions.size).toBe(BUILTIN_ASSERTIONS.length + 1);
    expect(context.registry.kinds()).toEqual(BUILTIN_ADAPTERS.map((a) => a.kind));
    expect([...context.catalog.kinds.keys()]).toEqual(BUILTIN_ADAPTERS.map((a) => a.kind));
    // The same objects every time they are asked for: nothing is rebuilt per surface or per check.
    expect(context.catalog).toBe(context.catalog);
    expect(context.registry).toBe(context.registry);
  });

  test("what its adapters open is refused once its lifecycle is stopping", async () => {
    const lifecycle = new Lifecycle();
    lifecycle.requestStop({ reason: "SIGTERM", signal: "SIGTERM" });
    await expect(createRunContext(NO_PLUGINS, lifecycle).adapterFor("web").open()).rejects.toThrow(/interrupted \(SIGTERM\)/);
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

describe("one run, one context", () => {
  const PLUGIN =
    'import { defineAssertion } from "flowproof";\nexport const plugin = defineAssertion<{ v: string }>({ key: "assert_m", schema: { type: "object" }, run: async () => ({ pass: true }) });\n';
  const flow = (name: string) => `name: ${name}\napp: web\nurl: http://127.0.0.1:9/\nsteps:\n  - assert_m:\n      v: x\n`;

  test("the flows of one project share the context built for the first of them", async () => {
    const p = tmpProject();
    try {
      p.write("package.json", "{}");
      p.write(".flowproof/plugins/m.ts", PLUGIN);
      const contextFor = runContextsOf({}, new Lifecycle());
      const [a, b] = await Promise.all([contextFor(p.write("a.flow.yaml", flow("A"))), contextFor(p.write("sub/b.flow.yaml", flow("B")))]);
      expect(a).toBe(b);
      expect(a.assertions.has("assert_m")).toBe(true);
    } finally {
      p.remove();
    }
  });

  test("a suite run builds its catalogue, registry and assertion map once, whatever its number of flows", async () => {
    const p = tmpProject();
    const built = spyOn(projectPlugins, "createRunContext");
    try {
      p.write("package.json", "{}");
      p.write(".flowproof/plugins/m.ts", PLUGIN);
      for (const name of ["a", "b", "c"]) p.write(`${name}.flow.yaml`, flow(name.toUpperCase()));
      // No trace yet: every flow is loaded with the project's assertion kind, then skipped before any browser.
      const r = await runSuite({ dir: p.dir, env: {} });
      expect(r.flows.map((f) => f.outcome)).toEqual(["skipped", "skipped", "skipped"]);
      expect(built).toHaveBeenCalledTimes(1);
    } finally {
      built.mockRestore();
      p.remove();
    }
  });
});
