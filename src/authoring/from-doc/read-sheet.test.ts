import { describe, expect, test } from "bun:test";
import ExcelJS from "exceljs";
import { csvDelimiter, readCsv, readXlsx } from "./read-sheet.ts";

describe("readXlsx", () => {
  test("reads every worksheet as a table of the texts its cells show", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Steps");
    sheet.addRow(["Step", "Expected Result"]);
    sheet.addRow([null, "page shows Welcome"]);
    sheet.getCell("A2").value = { richText: [{ text: "Click " }, { text: "\"Save\"", font: { bold: true } }] };
    sheet.addRow([{ formula: "\"Press \"&\"Enter\"", result: "Press Enter" }, new Date(Date.UTC(2024, 0, 2))]);
    workbook.addWorksheet("Notes").addRow(["free text"]);
    const blocks = await readXlsx(new Uint8Array(await workbook.xlsx.writeBuffer()));
    expect(blocks).toEqual([
      { kind: "table", rows: [["Step", "Expected Result"], ["Click \"Save\"", "page shows Welcome"], ["Press Enter", "2024-01-02"]] },
      { kind: "table", rows: [["free text"]] },
    ]);
  });

  test("bytes that are not a workbook are an error", async () => {
    await expect(readXlsx(new TextEncoder().encode("a,b"))).rejects.toThrow();
  });
});

describe("readCsv", () => {
  test("keeps cells as text: quoted commas, doubled quotes, line breaks, dates", async () => {
    const csv = "\ufeffAction,Data,Expected Result\n\"Type Ada into the \"\"Name\"\" field\",,\"page shows Ada, Lovelace\"\n\"multi\nline\",007,2024-01-02\n";
    expect(await readCsv(new TextEncoder().encode(csv))).toEqual([{
      kind: "table",
      rows: [["Action", "Data", "Expected Result"], ["Type Ada into the \"Name\" field", "", "page shows Ada, Lovelace"], ["multi\nline", "007", "2024-01-02"]],
    }]);
  });

  test("reads a semicolon-separated export", async () => {
    expect(await readCsv(new TextEncoder().encode("Step;Expected\nGo to /a;page shows A, B\n"))).toEqual([{ kind: "table", rows: [["Step", "Expected"], ["Go to /a", "page shows A, B"]] }]);
  });

  test.each([["a,b;c,d", ","], ["\"x;y\",z", ","], ["a;b;c", ";"], ["a\tb", "\t"]])("csvDelimiter(%j) is %j", (text, delimiter) => {
    expect(csvDelimiter(text)).toBe(delimiter);
  });
});
