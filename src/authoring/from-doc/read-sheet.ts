// Reads a spreadsheet (.xlsx) or a CSV export with exceljs: one table per worksheet, each cell
// as the text the sheet shows. CSV cells stay text (no date or number conversion), and the
// delimiter is taken from the header line (`,`, `;` as European Excel writes, or a tab).
import ExcelJS from "exceljs";
import { Readable } from "node:stream";
import type { DocBlock } from "./segment.ts";

/** The worksheets of the .xlsx in `bytes`, each as a table. Throws when the bytes are not a workbook. */
export async function readXlsx(bytes: Uint8Array): Promise<DocBlock[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  return workbook.worksheets.map(sheetTable);
}

/** The CSV in `bytes` as one table. */
export async function readCsv(bytes: Uint8Array): Promise<DocBlock[]> {
  const text = new TextDecoder().decode(bytes).replace(/^\ufeff/, "");
  const workbook = new ExcelJS.Workbook();
  const sheet = await workbook.csv.read(Readable.from([text]), { map: (value: unknown) => value, parserOptions: { delimiter: csvDelimiter(text) } } as never);
  return [sheetTable(sheet)];
}

function sheetTable(sheet: ExcelJS.Worksheet): DocBlock {
  const rows: string[][] = [];
  const width = sheet.columnCount;
  for (let r = 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const cells: string[] = [];
    for (let c = 1; c <= width; c++) cells.push(cellText(row.getCell(c)));
    rows.push(cells);
  }
  return { kind: "table", rows };
}

function cellText(cell: ExcelJS.Cell): string {
  const v = cell.value;
  if (v instanceof Date) return v.toISOString().replace(/T00:00:00\.000Z$/, "");
  return v === null || v === undefined ? "" : cell.text;
}

/** The delimiter of a CSV: whichever of `,` `;` and tab its first line holds most of, outside quotes. */
export function csvDelimiter(text: string): string {
  const counts = new Map<string, number>([[",", 0], [";", 0], ["\t", 0]]);
  let quoted = false;
  for (const ch of text) {
    if (ch === "\"") quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  return [...counts.entries()].reduce((best, e) => (e[1] > best[1] ? e : best))[0];
}
