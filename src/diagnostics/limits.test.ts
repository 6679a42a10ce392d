import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SpecError } from "./diagnostic.ts";
import { LIMITS, limitsTable, limitText, limitValue } from "./limits.ts";

describe("limits", () => {
  test("a limit's variable raises it; unset or empty keeps the default", () => {
    expect(limitValue("docRows", {})).toBe(LIMITS.docRows.value);
    expect(limitValue("docRows", { FLOWPROOF_DOC_MAX_ROWS: "" })).toBe(LIMITS.docRows.value);
    expect(limitValue("docRows", { FLOWPROOF_DOC_MAX_ROWS: "40000" })).toBe(40_000);
    // A fixed limit reads no variable.
    expect(limitValue("yamlDepth", { FLOWPROOF_DOC_MAX_ROWS: "1" })).toBe(LIMITS.yamlDepth.value);
  });

  test("a variable holding anything but a positive whole number is an error naming it", () => {
    for (const raw of ["0", "-1", "1.5", "lots", " 10", "1e3"]) {
      expect(() => limitValue("docPages", { FLOWPROOF_DOC_MAX_PAGES: raw })).toThrow(SpecError);
    }
    expect(() => limitValue("docPages", { FLOWPROOF_DOC_MAX_PAGES: "lots" })).toThrow(
      'FLOWPROOF_DOC_MAX_PAGES must be a positive whole number of pages, not "lots"',
    );
  });

  test("limitText names the variable that raises a limit", () => {
    expect(limitText("docPages", 7)).toBe("7 pages (raise it with FLOWPROOF_DOC_MAX_PAGES=<n>)");
    expect(limitText("repeatMax")).toBe(`${LIMITS.repeatMax.value} passes`);
  });

  test("docs/flow-format.md holds the table of every limit as the code has it", () => {
    const docs = readFileSync(join(import.meta.dir, "..", "..", "docs", "flow-format.md"), "utf8");
    expect(docs).toContain(limitsTable());
  });
});
