import { describe, expect, test } from "bun:test";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  checkCycles,
  checkModuleTests,
  checkSizes,
  importCycles,
  importGraph,
  lineCount,
  uncodedErrors,
  KNOWN_CYCLES,
  PLAIN_ERROR_EXEMPTIONS,
  PLAIN_ERROR_MARKER,
  SIZE_EXEMPTIONS,
} from "./check.ts";

describe("checkSizes", () => {
  const exemptions = [{ path: "plugins/web/driver.ts", reason: "to be split" }];
  test("reports a file over the limit that is not listed, with its line count", () => {
    const r = checkSizes(
      [
        { path: "src/a.ts", lines: 501 },
        { path: "src/b.ts", lines: 500 },
        { path: "plugins/web/driver.ts", lines: 790 },
      ],
      500,
      exemptions,
    );
    expect(r).toEqual({ oversized: [{ path: "src/a.ts", lines: 501 }], stale: [] });
  });
  test("reports an exemption whose file is back within the limit, so the list stays honest", () => {
    expect(checkSizes([{ path: "plugins/web/driver.ts", lines: 300 }], 500, exemptions).stale).toEqual(["plugins/web/driver.ts"]);
  });
  test("every listed exemption names a reason", () => {
    for (const e of SIZE_EXEMPTIONS) expect(e.reason.length).toBeGreaterThan(20);
  });
});

describe("uncodedErrors", () => {
  test("finds plain Errors in production code, unless explained or in a listed path", () => {
    const files = [
      { path: "src/a.ts", text: 'const x = 1;\nthrow new Error("boom");\n' },
      { path: "src/b.ts", text: `// A ${PLAIN_ERROR_MARKER}: a flowproof bug.\nthrow new Error("bug");\n` },
      { path: "src/c.ts", text: "export class MyError extends Error {}\n" },
      { path: "src/a.test.ts", text: 'throw new Error("in a test");\n' },
      { path: "plugins/listed/x.ts", text: 'throw new Error("listed");\n' },
      { path: "src/d.ts", text: 'throw new FlowproofError({ code: "io-error", message: "coded" });\n' },
    ];
    expect(uncodedErrors(files, [...PLAIN_ERROR_EXEMPTIONS, { path: "plugins/listed/**", reason: "a listed path" }])).toEqual([
      { path: "src/a.ts", line: 2, text: 'throw new Error("boom");' },
      { path: "src/c.ts", line: 1, text: "export class MyError extends Error {}" },
    ]);
  });
});

describe("lineCount", () => {
  test.each([
    ["", 0],
    ["a", 1],
    ["a\n", 1],
    ["a\nb", 2],
    ["a\nb\n", 2],
  ])("%j has %d lines", (text, n) => {
    expect(lineCount(text)).toBe(n);
  });
});

describe("importCycles", () => {
  test("finds each cycle once, as its sorted set of modules", () => {
    const graph = new Map<string, string[]>([
      ["src/spec/flow.ts", ["src/spec/block.ts", "src/spec/surfaces.ts"]],
      ["src/spec/surfaces.ts", ["src/spec/block.ts"]],
      ["src/spec/block.ts", ["src/spec/flow.ts"]],
      ["src/x/a.ts", ["src/x/b.ts"]],
      ["src/x/b.ts", []],
      ["src/y/self.ts", ["src/y/self.ts"]],
    ]);
    expect(importCycles(graph)).toEqual([["src/spec/block.ts", "src/spec/flow.ts", "src/spec/surfaces.ts"], ["src/y/self.ts"]]);
  });
  test("a tree without a back edge has no cycle", () => {
    expect(
      importCycles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", ["c.ts"]],
          ["c.ts", []],
        ]),
      ),
    ).toEqual([]);
  });
  test("reads the graph from real files, type-only imports included", () => {
    const root = mkdtempSync(join(tmpdir(), "fp-cycles-"));
    try {
      mkdirSync(join(root, "plugins/p"), { recursive: true });
      writeFileSync(join(root, "plugins/p/cells.ts"), 'import type { Grid } from "./read.ts";\nexport const x = 1;\n');
      writeFileSync(
        join(root, "plugins/p/read.ts"),
        'import { x } from "./cells.ts";\nimport { readFileSync } from "node:fs";\nexport type Grid = string[][];\n',
      );
      const graph = importGraph(root, ["plugins/p/cells.ts", "plugins/p/read.ts"]);
      expect(importCycles(graph)).toEqual([["plugins/p/cells.ts", "plugins/p/read.ts"]]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("checkCycles", () => {
  const known = [{ modules: ["b.ts", "a.ts"], reason: "kept until the rebuild" }];
  test("a listed cycle passes whatever the order of its modules; an unlisted one fails", () => {
    expect(
      checkCycles(
        [
          ["a.ts", "b.ts"],
          ["c.ts", "d.ts"],
        ],
        known,
      ),
    ).toEqual({ unexpected: [["c.ts", "d.ts"]], stale: [] });
  });
  test("a listed cycle that no longer exists is reported stale", () => {
    expect(checkCycles([], known)).toEqual({ unexpected: [], stale: [["b.ts", "a.ts"]] });
  });
  test("every known cycle names a reason", () => {
    for (const k of KNOWN_CYCLES) expect(k.reason.length).toBeGreaterThan(20);
  });
});

describe("checkModuleTests", () => {
  test("a module needs a sibling test or an exemption whose covering test exists", () => {
    const r = checkModuleTests(
      ["src/a.ts", "src/a.test.ts", "src/b.ts", "plugins/web/cdp/connection.ts"],
      [{ path: "plugins/web/cdp/connection.ts", reason: "needs a live endpoint", coveredBy: "plugins/web/web.conformance.test.ts" }],
    );
    expect(r).toEqual({ missing: ["src/b.ts"], uncovered: [{ path: "plugins/web/cdp/connection.ts", coveredBy: "plugins/web/web.conformance.test.ts" }] });
  });
});
