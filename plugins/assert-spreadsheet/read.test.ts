import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { parseCsv, readSheet } from "./read.ts";

const dir = mkdtempSync(join(tmpdir(), "flowproof-read-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readSheet", () => {
  test("parses RFC 4180 csv: quotes, escaped quotes, embedded newlines, CRLF, BOM", () => {
    expect(parseCsv('\uFEFFa,"b ""c""",d\r\n"x\ny",,z\n')).toEqual([
      ["a", 'b "c"', "d"],
      ["x\ny", "", "z"],
    ]);
  });

  test("reads the first sheet of an xlsx by default and a named one on request", async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet("One").addRow(["a", 1.5]);
    wb.addWorksheet("Two").addRow(["b"]);
    const path = join(dir, "w.xlsx");
    await wb.xlsx.writeFile(path);
    expect(await readSheet(path, ".xlsx", undefined)).toEqual({ ok: true, grid: [["a", "1.5"]] });
    expect(await readSheet(path, ".xlsx", "Two")).toEqual({ ok: true, grid: [["b"]] });
    expect(await readSheet(path, ".xlsx", "Three")).toEqual({ ok: false, error: "the workbook has no sheet 'Three' (sheets: One, Two)" });
  });
});
