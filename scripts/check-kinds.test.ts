import { describe, expect, test } from "bun:test";
import { checkKinds, findKindLiterals } from "./check-kinds.ts";

const KINDS = ["web", "sap", "calc"];

describe("findKindLiterals", () => {
  test.each<[string, string, string[]]>([
    ["a branch on a kind", 'if (ctx.app === "web") return;', ["web"]],
    ["a list of kinds", 'const APPS = ["sap", `calc`];', ["sap", "calc"]],
    ["a kind inside a longer message", 'fail("`css:` is web-only on sap apps");', []],
    ["a template with a substitution", "const m = `${kind}`;", []],
    ["an import path", 'import { x } from "web";', []],
    ["a property name", "const o = { web: 1 }; o.web;", []],
  ])("%s", (_what, source, literals) => {
    expect(findKindLiterals("src/spec/x.ts", source, KINDS).map((l) => l.literal)).toEqual(literals);
  });

  test("reports the line", () => {
    expect(findKindLiterals("src/engine/x.ts", 'const a = 1;\nconst b = "sap";\n', KINDS)).toEqual([{ file: "src/engine/x.ts", line: 2, literal: "sap" }]);
  });
});

describe("checkKinds", () => {
  const files = [
    { path: "src/spec/flow.ts", source: 'if (app === "web") {}' },
    { path: "src/spec/flow.test.ts", source: 'load("web")' },
    { path: "src/report/html.ts", source: 'const k = "web";' },
    { path: "plugins/web/index.ts", source: 'kind: "web"' },
    { path: "src/engine/run.ts", source: 'params["sap"]' },
  ];

  test("flags every module of src/ (report, trace, diagnostics and capture included), never its tests or the plugins, and honours an exception", () => {
    const { violations, stale } = checkKinds(files, KINDS, [{ file: "src/engine/run.ts", literal: "sap", reason: "a trace field" }]);
    expect(violations).toEqual([
      { file: "src/spec/flow.ts", line: 1, literal: "web" },
      { file: "src/report/html.ts", line: 1, literal: "web" },
    ]);
    expect(stale).toEqual([]);
  });

  test("reports an exception nothing needs any more", () => {
    const { stale } = checkKinds([], KINDS, [{ file: "src/engine/run.ts", literal: "sap", reason: "gone" }]);
    expect(stale.map((e) => e.file)).toEqual(["src/engine/run.ts"]);
  });
});
