import { describe, expect, test } from "bun:test";
import ExcelJS from "exceljs";
import { csvDelimiter, csvRows, readCsv, readXlsx } from "./read-sheet.ts";

describe("readXlsx", () => {
  test("reads every worksheet as a table of the texts its cells show", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Steps");
    sheet.addRow(["Step", "Expected Result"]);
    sheet.addRow([null, "page shows Welcome"]);
    sheet.getCell("A2").value = { richText: [{ text: "Click " }, { text: '"Save"', font: { bold: true } }] };
    sheet.addRow([{ formula: '"Press "&"Enter"', result: "Press Enter" }, new Date(Date.UTC(2024, 0, 2))]);
    workbook.addWorksheet("Notes").addRow(["free text"]);
    const blocks = await readXlsx(new Uint8Array(await workbook.xlsx.writeBuffer()));
    expect(blocks).toEqual([
      {
        kind: "table",
        rows: [
          ["Step", "Expected Result"],
          ['Click "Save"', "page shows Welcome"],
          ["Press Enter", "2024-01-02"],
        ],
      },
      { kind: "table", rows: [["free text"]] },
    ]);
  });

  test("an error cell, and a formula whose result is one, show the error's text", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Steps");
    sheet.addRow(["Step", "Expected Result"]);
    sheet.addRow(["Press Enter", null]);
    sheet.getCell("B2").value = { error: "#DIV/0!" } as ExcelJS.CellErrorValue;
    sheet.addRow([{ formula: "1/0", result: { error: "#DIV/0!" } } as ExcelJS.CellFormulaValue, { error: "#N/A" } as ExcelJS.CellErrorValue]);
    const blocks = await readXlsx(new Uint8Array(await workbook.xlsx.writeBuffer()));
    expect(blocks).toEqual([
      {
        kind: "table",
        rows: [
          ["Step", "Expected Result"],
          ["Press Enter", "#DIV/0!"],
          ["#DIV/0!", "#N/A"],
        ],
      },
    ]);
  });

  test("more rows than the bound are refused, naming it", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Steps");
    for (let i = 0; i < 5; i++) sheet.addRow([`Step ${i}`]);
    await expect(readXlsx(new Uint8Array(await workbook.xlsx.writeBuffer()), { rows: 4, pages: 1 })).rejects.toThrow(
      "the workbook's sheets have 5 rows, more than author-from-doc reads: 4 rows",
    );
  });

  test("bytes that are not a workbook are an error", async () => {
    await expect(readXlsx(new TextEncoder().encode("a,b"))).rejects.toThrow();
  });
});

describe("readCsv", () => {
  test("counts rows by line breaks outside quotes, refusing more than the bound", async () => {
    expect([csvRows("a\nb\n"), csvRows("a\nb"), csvRows('"x\ny"\nb\n'), csvRows("")]).toEqual([2, 2, 2, 0]);
    await expect(readCsv(new TextEncoder().encode("a\nb\nc\n"), { rows: 2, pages: 1 })).rejects.toThrow(
      "the CSV has 3 rows, more than author-from-doc reads: 2 rows",
    );
  });

  test("keeps cells as text: quoted commas, doubled quotes, line breaks, dates", async () => {
    const csv = '\ufeffAction,Data,Expected Result\n"Type Ada into the ""Name"" field",,"page shows Ada, Lovelace"\n"multi\nline",007,2024-01-02\n';
    expect(await readCsv(new TextEncoder().encode(csv))).toEqual([
      {
        kind: "table",
        rows: [
          ["Action", "Data", "Expected Result"],
          ['Type Ada into the "Name" field', "", "page shows Ada, Lovelace"],
          ["multi\nline", "007", "2024-01-02"],
        ],
      },
    ]);
  });

  test("reads a semicolon-separated export", async () => {
    expect(await readCsv(new TextEncoder().encode("Step;Expected\nGo to /a;page shows A, B\n"))).toEqual([
      {
        kind: "table",
        rows: [
          ["Step", "Expected"],
          ["Go to /a", "page shows A, B"],
        ],
      },
    ]);
  });

  test.each([
    ["a,b;c,d", ","],
    ['"x;y",z', ","],
    ["a;b;c", ";"],
    ["a\tb", "\t"],
  ])("csvDelimiter(%j) is %j", (text, delimiter) => {
    expect(csvDelimiter(text)).toBe(delimiter);
  });
});
