// Reads a spreadsheet (.xlsx) or a CSV export with exceljs: one table per worksheet, each cell
// as the text the sheet shows. CSV cells stay text (no date or number conversion), and the
// delimiter is taken from the header line (`,`, `;` as European Excel writes, or a tab).
import ExcelJS from "exceljs";
import { Readable } from "node:stream";
import type { DocBlock } from "./segment.ts";
import { DocumentTooLarge, type DocumentBounds } from "./doc-limits.ts";

/** The worksheets of the .xlsx in `bytes`, each as a table. Throws when the bytes are not a workbook. */
export async function readXlsx(bytes: Uint8Array, bounds?: DocumentBounds): Promise<DocBlock[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  const rows = workbook.worksheets.reduce((n, sheet) => n + sheet.rowCount, 0);
  if (bounds && rows > bounds.rows) throw new DocumentTooLarge(`the workbook's sheets have ${rows} rows`, "docRows", bounds.rows);
  return workbook.worksheets.map(sheetTable);
}

/** The CSV in `bytes` as one table. */
export async function readCsv(bytes: Uint8Array, bounds?: DocumentBounds): Promise<DocBlock[]> {
  const text = new TextDecoder().decode(bytes).replace(/^\ufeff/, "");
  // Counted before parsing: exceljs holds every cell of every row as an object.
  const rows = csvRows(text);
  if (bounds && rows > bounds.rows) throw new DocumentTooLarge(`the CSV has ${rows} rows`, "docRows", bounds.rows);
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
  // An error cell (`#DIV/0!`, `#N/A`), or a formula whose result is one, shows its error text.
  const error = errorText(v) ?? (v !== null && typeof v === "object" && "result" in v ? errorText(v.result) : undefined);
  if (error !== undefined) return error;
  return v === null || v === undefined ? "" : cell.text;
}

function errorText(value: unknown): string | undefined {
  return value !== null && typeof value === "object" && "error" in value && typeof value.error === "string" ? value.error : undefined;
}

/** How many rows a CSV has: its line breaks outside quotes, plus a last line without one. */
export function csvRows(text: string): number {
  let rows = 0;
  let quoted = false;
  let open = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 34) quoted = !quoted;
    if (!quoted && ch === 10) {
      rows++;
      open = false;
    } else open = true;
  }
  return rows + (open ? 1 : 0);
}

/** The delimiter of a CSV: whichever of `,` `;` and tab its first line holds most of, outside quotes. */
export function csvDelimiter(text: string): string {
  const counts = new Map<string, number>([
    [",", 0],
    [";", 0],
    ["\t", 0],
  ]);
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  return [...counts.entries()].reduce((best, e) => (e[1] > best[1] ? e : best))[0];
}
