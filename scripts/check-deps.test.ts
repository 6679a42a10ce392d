import { describe, expect, test } from "bun:test";
import { checkSource, findImports, globToRegExp, RULES } from "./check-deps.ts";

describe("checkSource", () => {
  test.each([
    ["src/grammar/target.ts", `import { diagnostic } from "../diagnostics/diagnostic.ts";`],
    ["src/grammar/target.ts", `import { ok } from "./result.ts";`],
    ["src/engine/handlers/click.ts", `import type { Selector } from "../../plugins/api.ts";\nimport { poll } from "../poll.ts";`],
    ["src/plugins/builtin.ts", `import { plugin as web } from "../../plugins/web/index.ts";`],
    ["src/version.ts", `import pkg from "../package.json" with { type: "json" };`],
    ["src/cli/main.ts", `import { run } from "../commands/run.ts";\nimport { nearest } from "../spec/suggest.ts";`],
    ["plugins/web/driver.ts", `import type { AppDriver } from "../../src/plugins/api.ts";\nimport { keyDefinition } from "./keys.ts";`],
    [
      "plugins/web/cdp/connection.ts",
      `import CDP from "chrome-remote-interface";\nimport type { ProtocolMapping } from "devtools-protocol/types/protocol-mapping";`,
    ],
    ["src/trace/read.ts", `import { readFileSync } from "node:fs";\nimport Ajv from "ajv";\nimport { test } from "bun:test";`],
    ["src/engine/loop.test.ts", `import { startServer } from "../../test/support/server.ts";`],
  ])("accepts %s importing what its row allows", (file, source) => {
    expect(checkSource(file, source)).toEqual([]);
  });

  test.each([
    ["src/grammar/target.ts", `import { loadFlowText } from "../spec/flow.ts";`, "src/spec/flow.ts"],
    ["src/diagnostics/render.ts", `import { EXIT } from "../cli/exit-codes.ts";`, "src/cli/exit-codes.ts"],
    ["src/engine/loop.ts", `import type { RunReport } from "../report/schema.ts";`, "src/report/schema.ts"],
    ["src/engine/loop.ts", `export { run } from "../commands/run.ts";`, "src/commands/run.ts"],
    ["src/commands/run.ts", `import { main } from "../cli/main.ts";`, "src/cli/main.ts"],
    ["src/mcp/server.ts", `import { processIo } from "../cli/io.ts";`, "src/cli/io.ts"],
    ["src/plugins/registry.ts", `import { plugin } from "../../plugins/web/index.ts";`, "plugins/web/index.ts"],
    ["src/plugins/builtin.ts", `import { WebDriver } from "../../plugins/web/driver.ts";`, "plugins/web/driver.ts"],
    ["plugins/web/driver.ts", `import type { ExecutionContext } from "../../src/engine/context.ts";`, "src/engine/context.ts"],
    ["plugins/web/driver.ts", `import { helper } from "../api/util.ts";`, "plugins/api/util.ts"],
    ["plugins/web/index.ts", `import pkg from "../../package.json";`, "package.json"],
    ["src/index.ts", `import { poll } from "./engine/poll.ts";`, "src/engine/poll.ts"],
  ])("flags %s importing %s", (file, source, target) => {
    const [violation, ...rest] = checkSource(file, source);
    expect(rest).toEqual([]);
    expect(violation).toMatchObject({ file, line: 1, target });
    expect(violation?.message).toContain(`${target} is not allowed`);
  });

  test("names the line, the kind of import and the rule's reason", () => {
    const source = `// header\nimport { ok } from "./result.ts";\nimport type {\n  Flow,\n} from "../spec/flow.ts";\n`;
    const [v] = checkSource("src/grammar/target.ts", source);
    expect(v?.line).toBe(3);
    expect(v?.message).toStartWith("type import of src/spec/flow.ts is not allowed by the row for src/grammar/**");
    expect(v?.message).toContain("the grammar is pure");
  });

  test("reports a file no row covers, so a new folder cannot escape the rule", () => {
    expect(checkSource("src/newfolder/x.ts", "")).toEqual([
      expect.objectContaining({ file: "src/newfolder/x.ts", message: expect.stringContaining("no row of scripts/check-deps.ts RULES covers") }),
    ]);
  });

  test("treats the package's own name as its library face", () => {
    expect(checkSource("src/engine/loop.ts", `import { Flow } from "flowproof";`)[0]?.target).toBe("src/index.ts");
  });

  test("treats `flowproof/desktop` as the desktop kit, which only desktop-kit.ts may re-export from plugins/desktop", () => {
    expect(checkSource("src/grammar/ast.ts", `import { shows } from "flowproof/desktop";`)[0]?.target).toBe("src/plugins/desktop-kit.ts");
    expect(checkSource("src/plugins/desktop-kit.ts", `export { shows } from "../../plugins/desktop/text.ts";`)).toEqual([]);
    expect(checkSource("src/plugins/registry.ts", `export { shows } from "../../plugins/desktop/text.ts";`)).toHaveLength(1);
  });

  test("flags a path that leaves the repository", () => {
    expect(checkSource("src/engine/loop.ts", `import x from "../../../elsewhere.ts";`)[0]?.message).toContain("outside the repository");
  });

  test("takes a custom rule table", () => {
    const rules = [{ files: "src/**", may: [], why: "nothing" }];
    expect(checkSource("src/a/x.ts", `import "../b/y.ts";`, rules)).toHaveLength(1);
    expect(checkSource("src/a/x.ts", `import "./y.ts";`, rules)).toEqual([]);
  });
});

describe("findImports", () => {
  test("finds static, type-only, re-export, side-effect, dynamic and import-type references", () => {
    const source = [
      `import type { A } from "./a.ts";`,
      `import { type B, type C } from "./b.ts";`,
      `import { D, type E } from "./d.ts";`,
      `export * from "./e.ts";`,
      `export type { F } from "./f.ts";`,
      `import "./g.ts";`,
      `type H = import("./h.ts").H;`,
      `const i = await import("./i.ts");`,
      'const s = `import x from "./not-an-import.ts"`;',
    ].join("\n");
    expect(findImports("x.ts", source).map((r) => [r.specifier, r.line, r.typeOnly, r.form])).toEqual([
      ["./a.ts", 1, true, "import"],
      ["./b.ts", 2, true, "import"],
      ["./d.ts", 3, false, "import"],
      ["./e.ts", 4, false, "export"],
      ["./f.ts", 5, true, "export"],
      ["./g.ts", 6, false, "import"],
      ["./h.ts", 7, true, "import-type"],
      ["./i.ts", 8, false, "dynamic-import"],
    ]);
  });
});

describe("globToRegExp", () => {
  test.each([
    ["plugins/*/index.ts", "plugins/web/index.ts", true],
    ["plugins/*/index.ts", "plugins/web/cdp/index.ts", false],
    ["plugins/*/**", "plugins/web/cdp/connection.ts", true],
    ["src/grammar/**", "src/grammar/ast.ts", true],
    ["src/grammar/**", "src/grammarx/ast.ts", false],
    ["src/**/*.ts", "src/version.ts", true],
  ])("%s matches %s: %p", (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });
});

describe("RULES", () => {
  test("has a row for every src/ folder of the house-style layout", () => {
    for (const folder of ["diagnostics", "grammar", "plugins", "spec", "trace", "recording", "engine", "authoring", "report", "commands", "cli", "mcp"]) {
      expect(RULES.some((r) => globToRegExp(r.files).test(`src/${folder}/x.ts`))).toBe(true);
    }
  });
});
