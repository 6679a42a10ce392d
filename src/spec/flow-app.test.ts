import { describe, expect, test } from "bun:test";
import { builtinCatalog, loadFlowText } from "../../test/support/surfaces.ts";

const problems = (text: string, platform?: string) => {
  const r = loadFlowText("a.flow.yaml", text, platform ? { platform } : {});
  return r.ok ? [] : r.diagnostics.map((d) => `${d.span?.line}:${d.span?.column} ${d.code} ${d.message}`);
};

describe("a flow's app", () => {
  test("`app:` as a mapping names the adapter that claims the form; as a kind's name it is that kind", () => {
    const mapped = loadFlowText("a.flow.yaml", "name: A\napp: {command: a.exe, window_title: A}\nsteps:\n  - rules: Type x\n");
    expect(mapped.ok && mapped.flow.app).toBe("windows");
    expect(problems("name: A\napp: windows\nsteps:\n  - rules: Type x\n")).toEqual([
      "2:6 bad-value `app` must be an app kind or a mapping `{command, window_title}`: a Windows program is written as its keys",
    ]);
  });

  test("an adapter's platforms are checked against the OS the flow would run on", () => {
    expect(problems("name: A\napp: calc\nsteps:\n  - rules: Type 5\n", "darwin")).toEqual([
      "2:6 unsupported-platform `app: calc` requires Windows; this machine runs darwin",
    ]);
    expect(problems("name: A\napp: calc\nsteps:\n  - rules: Type 5\n", "win32")).toEqual([]);
  });

  test("a planned kind is refused by name, an unknown one as unknown", () => {
    const later = loadFlowText("a.flow.yaml", "name: A\napp: hologram\nsteps:\n  - rules: Type x\n", { catalog: builtinCatalog([], ["hologram"]) });
    expect(later.ok ? [] : later.diagnostics.map((d) => `${d.span?.line}:${d.span?.column} ${d.code} ${d.message}`)).toEqual([
      "2:6 unsupported-feature app `hologram` is not available in this version of flowproof",
    ]);
    expect(problems("name: A\napp: visio\nsteps:\n  - rules: Type x\n")[0]).toStartWith("2:6 bad-value unknown app `visio`");
  });

  test("a key several kinds own is refused naming each", () => {
    expect(problems("name: A\napp: sap\nwindow: {width: 1, height: 1}\nsteps:\n  - Go to VA01\n")).toEqual([
      "3:1 unsupported-feature `window:` belongs to `app: {command, window_title}`, `app: notepad`, `app: calc` or `app: vision`; the flow is `app: sap`",
    ]);
  });
});

describe("suite defaults and shared keys", () => {
  const suite = { file: "suite.yaml", values: { browser: { user_agent: "suite" } } };
  test("a key with a suiteDefault role takes the suite's value when the flow has none; its own wins outright", () => {
    const none = loadFlowText("a.flow.yaml", "name: A\napp: web\nurl: http://x/\nsteps:\n  - assert: page shows x\n", { suite });
    expect(none.ok && none.flow.keys).toEqual({ browser: { user_agent: "suite" } });
    const own = loadFlowText("a.flow.yaml", 'name: A\napp: web\nurl: http://x/\nbrowser: {args: ["--lang=de"]}\nsteps:\n  - assert: page shows x\n', { suite });
    expect(own.ok && own.flow.keys).toEqual({ browser: { args: ["--lang=de"] } });
  });

  test("a multi-surface flow takes the keys its surfaces share at the top level, and refuses the others", () => {
    const shared = loadFlowText(
      "m.flow.yaml",
      "name: M\napps:\n  shop: {app: web, url: http://x/}\nmock:\n  - {url_contains: /api, body: ok}\nsteps:\n  - in: shop\n    steps:\n      - assert: page shows x\n",
      { suite },
    );
    expect(shared.ok && shared.flow.keys).toEqual({ mock: [{ url_contains: "/api", body: "ok" }], browser: { user_agent: "suite" } });
    expect(
      problems("name: M\napps:\n  shop: {app: web, url: http://x/}\nconnection: TS3\nsteps:\n  - in: shop\n    steps:\n      - assert: page shows x\n"),
    ).toEqual(["4:1 unsupported-feature `connection:` belongs to SAP GUI (`app: sap`); the flow is `app: multi-surface`"]);
  });
});

describe("the built-in vision adapter, as it declares itself through the contract", () => {
  const vision = (body: string) => {
    const r = loadFlowText("v.flow.yaml", `name: V\n${body}`);
    return r.ok ? r.flow : r.diagnostics.map((d) => `${d.span?.line}:${d.span?.column} ${d.code} ${d.message}`);
  };

  test("takes `window: {title, …}` on `app: vision` and on an `apps:` entry, F-keys and the general actions", () => {
    const flow = vision(
      'app: vision\nwindow: {title: Citrix - Orders, width: 1024, height: 768}\nsteps:\n  - rules: Press F5\n  - rules: Click the 2nd "Save"\n',
    );
    expect(Array.isArray(flow) ? flow : flow.keys).toEqual({ window: { title: "Citrix - Orders", width: 1024, height: 768 } });
    const multi = vision("apps:\n  orders: {app: vision, window: {title: Orders}}\nsteps:\n  - in: orders\n    steps:\n      - rules: Press Alt+F4\n");
    expect(Array.isArray(multi) ? multi : multi.apps?.["orders"]).toEqual({ app: "vision", keys: { window: { title: "Orders" } } });
  });

  test("refuses the Windows spellings, naming the right one", () => {
    expect(vision("app: vision\nwindow_title: Orders\nsteps:\n  - rules: Press F5\n")).toEqual([
      "3:1 unknown-key a vision app names its window with `window.title`, not `window_title`",
      "2:6 missing-key the flow needs `window`",
    ]);
    expect(vision("app: vision\nwindow: {window_title: Orders}\nsteps:\n  - rules: Press F5\n")).toEqual([
      "3:10 bad-value a vision app names its window with `window.title`, not `window.window_title`",
      "3:9 missing-key `window` needs `title`",
    ]);
  });
});
