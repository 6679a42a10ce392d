import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { cell, docFiles, renderCliTables, renderErrorTable, renderMcpTools, replaceBlock, renderAdapterErrorTable } from "./gen-docs.ts";
import { TOOLS } from "../src/mcp/tools.ts";
import { staleFiles } from "./generated-file.ts";
import { COMMANDS } from "../src/cli/flags.ts";
import { DIAGNOSTIC_CODES } from "../src/diagnostics/diagnostic.ts";

const ROOT = resolve(import.meta.dir, "..");

describe("gen-docs", () => {
  test("the generated blocks of docs/cli.md and docs/errors.md are current", () => {
    expect(staleFiles(ROOT, docFiles(ROOT))).toEqual([]);
  });

  test("the errors table lists every diagnostic code", () => {
    const table = renderErrorTable(DIAGNOSTIC_CODES);
    for (const code of Object.keys(DIAGNOSTIC_CODES)) expect(table).toContain(`| \`${code}\` |`);
  });

  test("the CLI tables list every flag of every command", () => {
    const text = renderCliTables(COMMANDS);
    for (const c of COMMANDS) {
      expect(text).toContain(`### \`flowproof ${c.name}\``);
      for (const f of c.flags) expect(text).toContain(`| \`--${f.name}\` |`);
    }
  });
});

describe("the MCP tool tables", () => {
  test("list every tool with every argument of its generated input schema", () => {
    const text = renderMcpTools(TOOLS);
    for (const t of TOOLS) {
      expect(text).toContain(`### \`${t.name}\``);
      for (const arg of Object.keys(t.inputSchema.properties)) expect(text).toContain(`| \`${arg}\` |`);
    }
    expect(text).toContain("| `workers` | integer 1–64 | — |");
    expect(text).toContain("`--keep-open` (");
  });
});

describe("replaceBlock", () => {
  const doc = "# Title\n\nProse before.\n\n<!-- generated:x:start -->\nold\n<!-- generated:x:end -->\n\nProse after.\n";

  test("replaces only what lies between the markers", () => {
    const out = replaceBlock(doc, "x", "| a |", "somewhere");
    expect(out).toStartWith("# Title\n\nProse before.\n\n<!-- generated:x:start -->\n");
    expect(out).toEndWith("| a |\n\n<!-- generated:x:end -->\n\nProse after.\n");
    expect(out).not.toContain("old");
    expect(replaceBlock(out, "x", "| a |", "somewhere")).toBe(out);
  });

  test.each([
    ["a missing end marker", "<!-- generated:x:start -->\n", "missing <!-- generated:x:end -->"],
    ["markers out of order", "<!-- generated:x:end -->\n<!-- generated:x:start -->\n", "comes before"],
    ["duplicated markers", `${doc}${doc}`, "more than once"],
  ])("refuses %s", (_, text, message) => {
    expect(() => replaceBlock(text, "x", "", "")).toThrow(message);
  });
});

describe("cell", () => {
  test("escapes pipes and folds newlines so a cell cannot break its row", () => {
    expect(cell("a|b\nc")).toBe("a\\|b c");
  });

  test("escapes angle brackets outside code spans only", () => {
    expect(cell("default: <stem>.trace.jsonl, `<path>`")).toBe("default: &lt;stem&gt;.trace.jsonl, `<path>`");
  });
});

describe("renderAdapterErrorTable", () => {
  test("lists each declared code as <kind>/<name> with its meaning and hint", () => {
    const table = renderAdapterErrorTable([
      { kind: "inventory", errors: { "not-signed-on": { meaning: "The console refused the sign-on.", hint: "check `sign_on:`" } } },
      { kind: "web" },
    ]);
    expect(table.split("\n")).toEqual([
      "| Code | Meaning | Hint |",
      "| --- | --- | --- |",
      "| `inventory/not-signed-on` | The console refused the sign-on. | check `sign_on:` |",
    ]);
  });
});
