import { builtinCatalog } from "../../test/support/surfaces.ts";
import { describe, expect, test } from "bun:test";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { loadSuiteText, settleSuiteKeys, SUITE_KEYS } from "./suite.ts";
import { SuiteFileSchema } from "./suite-schema.ts";

describe("loadSuiteText", () => {
  test("reads every key", () => {
    const r = loadSuiteText(
      "suite.yaml",
      [
        'min_version: "0.1.0"',
        "env: { BASE: http://x, PORT: 3000, FULL: '${BASE}:${PORT}' }",
        "env_from: ./mint.sh",
        "before_each: ./reset.sh",
        "after_each: ./clean.sh",
        "order: [b.flow.yaml, a.flow.yaml]",
        "browser: { viewport: { width: 390, height: 844 } }",
        "identities: { admin: { cookies: [{ name: sid, value: x }] } }",
        "server: { command: npm start, url: 'http://127.0.0.1:3000/', reuse_existing: true }",
      ].join("\n"),
      builtinCatalog(),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.suite.env).toEqual([
      { name: "BASE", raw: "http://x" },
      { name: "PORT", raw: "3000" },
      { name: "FULL", raw: "${BASE}:${PORT}" },
    ]);
    expect(r.suite.order).toEqual(["b.flow.yaml", "a.flow.yaml"]);
    expect(r.suite.server).toEqual({ command: "npm start", url: "http://127.0.0.1:3000/", timeout_seconds: 60, reuse_existing: true });
    expect(r.suite.values?.["browser"]).toEqual({ viewport: { width: 390, height: 844 } });
    expect(Object.keys(r.suite.maps?.["identities"] ?? {})).toEqual(["admin"]);
  });
  test("an empty file is an empty suite", () => {
    expect(loadSuiteText("suite.yaml", "", builtinCatalog())).toMatchObject({ ok: true, suite: { env: [], order: [] } });
  });
  test("reports every problem together, with places and hints", () => {
    const r = loadSuiteText(
      "suite.yaml",
      "ordr: []\nmin_version: 1\nenv: { X: '${captured.a}' }\nserver: { command: x, url: ftp://x, colour: red }\nidentities: { admin: { user: x } }\n",
      builtinCatalog(),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics.map((d) => `${d.span?.line}:${d.code}`)).toEqual([
      "1:unknown-key",
      "2:bad-value",
      "3:bad-reference",
      "4:bad-value",
      "4:unknown-key",
      "5:unknown-key",
    ]);
    expect(r.diagnostics[0]!.hint).toContain("did you mean `order`?");
  });
  test("refuses a server timeout longer than the longest bound, at its value", () => {
    const r = loadSuiteText("suite.yaml", "server:\n  command: npm start\n  url: http://127.0.0.1:3000/\n  timeout_seconds: 2200000\n");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics.map((d) => `${d.span?.line}:${d.span?.column} ${d.message}`)).toEqual([
      "4:20 `server.timeout_seconds` is longer than the longest bound flowproof can wait, 86400 s (24 h)",
    ]);
  });
  test("checks browser: and identities: like a flow's blocks, keeping values as written", () => {
    const bad = loadSuiteText(
      "suite.yaml",
      "browser:\n  viewport: { width: 0, height: 1 }\nidentities:\n  admin:\n    cookies: [{ value: x }]\n",
      builtinCatalog(),
    );
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.diagnostics.map((d) => d.span?.line)).toEqual([2, 5]);
    const good = loadSuiteText("suite.yaml", 'identities:\n  admin:\n    cookies: [{ name: sid, value: "${SID}" }]\n', builtinCatalog());
    expect(good.ok && good.suite.maps?.["identities"]).toEqual({ admin: { cookies: [{ name: "sid", value: "${SID}" }] } });
  });
  test("the schema names exactly the loader's keys", () => {
    expect(Object.keys(SuiteFileSchema.properties)).toEqual([...SUITE_KEYS]);
  });
});

describe("adapter-declared suite keys", () => {
  test("a suite refused for another problem also names a pending key that is a near miss of a suite key, in file order", () => {
    const text = "envv: {}\nsites: {}\nserver: { command: 'true' }\n";
    const r = loadSuiteText("suite.yaml", text, builtinCatalog(), { pending: true });
    expect(r.ok ? [] : r.diagnostics.map((d) => `${d.span?.line}:${d.code}`)).toEqual(["1:unknown-key", "3:missing-key"]);
    expect(r.ok ? "" : r.diagnostics[0]!.hint).toContain("did you mean `env`?");
    // Without another problem, the key waits for the flows' adapters.
    const alone = loadSuiteText("suite.yaml", "envv: {}\n", builtinCatalog(), { pending: true });
    expect(alone.ok && alone.suite.pending?.map((p) => p.name)).toEqual(["envv"]);
  });

  test("a key no adapter at hand declares is refused, or kept pending for the flow's adapters and settled against them", () => {
    const text = "sites:\n  north: { host: n1 }\n";
    const now = loadSuiteText("suite.yaml", text, builtinCatalog());
    expect(now.ok ? [] : now.diagnostics.map((d) => d.code)).toEqual(["unknown-key"]);
    const later = loadSuiteText("suite.yaml", text, builtinCatalog(), { pending: true });
    if (!later.ok) throw new Error("expected the key kept pending");
    expect(later.suite.pending?.map((p) => p.name)).toEqual(["sites"]);
    const { kinds } = builtinCatalog();
    const site = {
      kind: "inventory",
      capabilities: [],
      keys: { schema: { type: "object", properties: { site: { type: "object", properties: { host: { type: "string" } }, flowproof: { named: "sites" } } } } },
    };
    const catalog = { kinds: new Map([...kinds, ["inventory", site as never]]) };
    const problems: Diagnostic[] = [];
    expect(settleSuiteKeys(later.suite, catalog, problems).maps).toEqual({ sites: { north: { host: "n1" } } });
    expect(problems).toEqual([]);
    settleSuiteKeys(later.suite, builtinCatalog(), problems);
    expect(problems.map((p) => `${p.span?.line}:${p.code}`)).toEqual(["1:unknown-key"]);
  });
});

describe("a matrix list (`browsers:`)", () => {
  test("holds distinct browsers the web adapter declares; an unknown one, a repeat or a suite default naming one is refused at its line", () => {
    const ok = loadSuiteText("suite.yaml", "browsers: [chromium, firefox]\nbrowser: { viewport: { width: 390, height: 844 } }\n", builtinCatalog());
    if (!ok.ok) throw new Error(ok.diagnostics.map((d) => d.message).join("; "));
    expect(ok.suite.matrix?.["browsers"]).toMatchObject({ kind: "web", path: "browser", entries: ["chromium", "firefox"], role: { env: "FLOWPROOF_BROWSER" } });
    const messages = (text: string) => {
      const r = loadSuiteText("suite.yaml", text, builtinCatalog());
      return r.ok ? [] : r.diagnostics.map((d) => `${d.span?.line}:${d.span?.column}: ${d.message} (${d.hint})`);
    };
    expect(messages("browsers: [chromium, firefx]\n")).toEqual([
      '1:22: "firefx" is not one of the `browsers` flowproof runs (did you mean firefox? browsers: [chromium, firefox])',
    ]);
    expect(messages("browsers: [firefox, firefox]\n")[0]).toContain("firefox is listed twice in `browsers`");
    expect(messages("browsers: firefox\n")[0]).toContain("`browsers` must be a list of chromium and firefox");
    expect(messages("browser: { name: firefox }\nbrowsers: [chromium, firefox]\n")[0]).toStartWith("2:1: suite.yaml sets both `browsers` and `browser.name`");
  });
});

test("a matrix list a project adapter declares is refused at its line, never silently ignored", () => {
  const later = loadSuiteText("suite.yaml", "engines: [a, b]\n", builtinCatalog(), { pending: true });
  if (!later.ok) throw new Error("expected the key kept pending");
  const engine = {
    kind: "inventory",
    capabilities: [],
    keys: {
      schema: {
        type: "object",
        properties: { engine: { type: "object", flowproof: { matrix: { key: "engines", field: "name", values: ["a", "b"], env: "INV_ENGINE" } } } },
      },
    },
  };
  const problems: Diagnostic[] = [];
  settleSuiteKeys(later.suite, { kinds: new Map([...builtinCatalog().kinds, ["inventory", engine as never]]) }, problems);
  expect(problems.map((p) => `${p.span?.line}:${p.code}: ${p.hint}`)).toEqual([
    "1:unsupported-feature: remove `engines:` and run the suite once per entry with INV_ENGINE set",
  ]);
});
