import { describe, expect, test } from "bun:test";
import { checkKinds, findKindNames, wordsOf, type KindNameUse } from "./check-kinds.ts";

const KINDS = ["web", "sap", "calc"];

const found = (source: string) => findKindNames("src/spec/x.ts", source, KINDS).map((n) => [n.word, n.use] as const);

describe("wordsOf", () => {
  test.each<[string, string[]]>([
    ["isWeb", ["is", "web"]],
    ["webConfig", ["web", "config"]],
    ["SAPSession", ["sap", "session"]],
    ["WEB_KINDS", ["web", "kinds"]],
    ["web-only", ["web", "only"]],
    ["the sap session", ["the", "sap", "session"]],
  ])("%s", (text, words) => {
    expect(wordsOf(text)).toEqual(words);
  });
});

describe("findKindNames", () => {
  test.each<[string, string, (readonly [string, KindNameUse])[]]>([
    ["a branch on a kind", 'if (ctx.app === "web") return;', [["web", "literal"]]],
    [
      "a list of kinds",
      'const APPS = ["sap", `calc`];',
      [
        ["sap", "literal"],
        ["calc", "literal"],
      ],
    ],
    ["an identifier", "const isWeb = true;", [["web", "identifier"]]],
    ["an identifier in a longer name", "function webConfig() {}", [["web", "identifier"]]],
    ["a property access", "params.sap;", [["sap", "property"]]],
    ["an object key", "const o = { web: 1 };", [["web", "property"]]],
    ["an interface member", "interface A { readonly sapSession: string }", [["sap", "property"]]],
    ["a kind inside a longer message", 'fail("`css:` is web-only");', [["web", "text"]]],
    ["a kind in prose", 'const m = "the sap session";', [["sap", "text"]]],
    ["a kind in a template's text", "const m = `${x} on calc`;", [["calc", "text"]]],
    ["a word that only contains a kind", 'const webhook = "capital";', []],
    ["an import path", 'import { x } from "web";', []],
    ["a dynamic import path", 'await import("./web/x.ts");', []],
    ["a comment", "// the web adapter\nconst a = 1;", []],
  ])("%s", (_what, source, names) => {
    expect(found(source)).toEqual(names);
  });

  test("reports the line and the text the name stood in", () => {
    expect(findKindNames("src/engine/x.ts", 'const a = 1;\nconst b = "sap";\n', KINDS)).toEqual([
      { file: "src/engine/x.ts", line: 2, word: "sap", use: "literal", text: "sap" },
    ]);
  });
});

describe("checkKinds", () => {
  const files = [
    { path: "src/spec/flow.ts", source: 'if (app === "web") {}' },
    { path: "src/spec/flow.test.ts", source: 'load("web")' },
    { path: "src/report/html.ts", source: 'const k = "web";' },
    { path: "plugins/web/index.ts", source: 'kind: "web"' },
    { path: "src/engine/run.ts", source: 'params["sap"]' },
    { path: "src/diagnostics/codes.ts", source: "const isSap = true;" },
    { path: "src/trace/read.ts", source: "header.web;" },
    { path: "src/capture/format.ts", source: 'const m = "the calc session";' },
  ];

  test("flags identifiers, property names and longer strings in every module of src/ (diagnostics, trace and capture included), never its tests or the plugins, and honours an exception", () => {
    const { violations, stale } = checkKinds(files, KINDS, [{ files: ["src/engine/run.ts"], word: "sap", reason: "a trace field" }]);
    expect(violations.map((v) => `${v.file}:${v.line} ${v.word} ${v.use}`)).toEqual([
      "src/spec/flow.ts:1 web literal",
      "src/report/html.ts:1 web literal",
      "src/diagnostics/codes.ts:1 sap identifier",
      "src/trace/read.ts:1 web property",
      "src/capture/format.ts:1 calc text",
    ]);
    expect(stale).toEqual([]);
  });

  test.each<[string, string, string]>([
    ["an identifier", "src/diagnostics/codes.ts", "sap"],
    ["a property name", "src/trace/read.ts", "web"],
    ["a longer string", "src/capture/format.ts", "calc"],
  ])("an exception for the file and word lets %s pass", (_what, file, word) => {
    const without = checkKinds(files, KINDS).violations.filter((v) => v.file === file);
    expect(without.map((v) => v.word)).toEqual([word]);
    const { violations, stale } = checkKinds(files, KINDS, [{ files: [file], word, reason: "documented" }]);
    expect(violations.filter((v) => v.file === file)).toEqual([]);
    expect(stale).toEqual([]);
  });

  test("an exception covers its word only: another kind in the same file is still flagged", () => {
    const { violations } = checkKinds([{ path: "src/spec/a.ts", source: "const webSap = 1;" }], KINDS, [
      { files: ["src/spec/a.ts"], word: "web", reason: "r" },
    ]);
    expect(violations.map((v) => v.word)).toEqual(["sap"]);
  });

  test("reports each file of an exception nothing needs any more", () => {
    const { stale } = checkKinds([{ path: "src/engine/run.ts", source: "params.sap;" }], KINDS, [
      { files: ["src/engine/run.ts", "src/engine/gone.ts"], word: "sap", reason: "gone" },
    ]);
    expect(stale).toEqual([{ file: "src/engine/gone.ts", word: "sap" }]);
  });
});
