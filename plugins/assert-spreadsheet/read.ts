// Reads one sheet of an xlsx/xlsm (exceljs) or csv file into a grid of canonical cell texts.
import { readFileSync } from "node:fs";
import { canonicalCell, type Grid } from "./cells.ts";

export type { Grid } from "./cells.ts";

export async function readSheet(path: string, ext: string, sheet: string | undefined): Promise<{ ok: true; grid: Grid } | { ok: false; error: string }> {
  if (ext === ".csv") {
    if (sheet !== undefined) return { ok: false, error: `a csv file has no sheet '${sheet}'; remove \`sheet:\`` };
    return { ok: true, grid: parseCsv(readFileSync(path, "utf8")) };
  }
  // exceljs loads on first use: it is the heaviest dependency, and most runs read no workbook.
  const { default: ExcelJS } = await import("exceljs");
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const ws = sheet === undefined ? wb.worksheets[0] : wb.getWorksheet(sheet);
  if (!ws)
    return {
      ok: false,
      error:
        sheet === undefined ? "the workbook has no sheet" : `the workbook has no sheet '${sheet}' (sheets: ${wb.worksheets.map((w) => w.name).join(", ")})`,
    };
  const grid: string[][] = [];
  ws.eachRow({ includeEmpty: true }, (row, n) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, c) => {
      cells[c - 1] = canonicalCell(cell.value);
    });
    grid[n - 1] = Array.from(cells, (v) => v ?? "");
  });
  return { ok: true, grid: Array.from(grid, (r) => r ?? []) };
}

/** RFC 4180 CSV: quoted fields with "" escapes and embedded newlines; a leading BOM is dropped. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const src = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && src[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
