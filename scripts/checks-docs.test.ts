import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { checksOf, renderChecksTable } from "./checks-docs.ts";

describe("checksOf", () => {
  test("reads every member of the union with its fields and doc comment", () => {
    const source =
      'export type E =\n  /** Holds when `text` shows. */\n  | { readonly kind: "a"; readonly text: string; readonly count?: number }\n  | { readonly kind: "b" };\n';
    expect(checksOf(source, "E")).toEqual([
      { kind: "a", fields: ["text: string", "count?: number"], meaning: "Holds when `text` shows." },
      { kind: "b", fields: [], meaning: "" },
    ]);
    expect(renderChecksTable(checksOf(source, "E"))).toContain("| `a` | `text: string`, `count?: number` | Holds when `text` shows. |");
  });

  test("the contract's Expectation: every kind documented", () => {
    const checks = checksOf(readFileSync(resolve(import.meta.dir, "../src/plugins/expectation.ts"), "utf8"));
    expect(checks.map((c) => c.kind)).toContain("text_contains");
    expect(checks.map((c) => c.kind)).toContain("text_equals");
    expect(checks.filter((c) => c.meaning === "").map((c) => c.kind)).toEqual([]);
  });
});
