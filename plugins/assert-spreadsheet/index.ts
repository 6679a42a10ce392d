// `assert_spreadsheet`: reads one cell of an xlsx/xlsm (exceljs) or csv file — by `at: B2`, or by
// a header `column` and a unique data row containing `row_contains` — and checks its canonical
// text. Polled: a file still being written is read again.
import { existsSync } from "node:fs";
import { extname, isAbsolute, resolve } from "node:path";
import { defineAssertion, type ArgumentProblem, type Verdict } from "../../src/plugins/api.ts";
import { readSheet, type Grid } from "./read.ts";
import { findCell, numericText } from "./cells.ts";

export interface SpreadsheetArgs {
  readonly path: string;
  readonly sheet?: string;
  readonly at?: string;
  readonly column?: string;
  readonly row_contains?: string;
  readonly equals?: string | number | boolean;
  readonly contains?: string;
  readonly timeout_seconds?: number;
}

export const schema = {
  type: "object",
  required: ["path"],
  additionalProperties: false,
  properties: {
    path: { type: "string", minLength: 1 },
    sheet: { type: "string", minLength: 1 },
    at: { type: "string", pattern: "^\\$?[A-Za-z]{1,3}\\$?[1-9][0-9]*$" },
    column: { type: "string", minLength: 1 },
    row_contains: { type: "string", minLength: 1 },
    equals: { type: ["string", "number", "boolean"] },
    contains: { type: "string" },
    timeout_seconds: { type: "number", minimum: 0 },
  },
} as const;

export const SUPPORTED_EXTENSIONS = [".xlsx", ".xlsm", ".csv"];

export function checkArgs(a: SpreadsheetArgs): ArgumentProblem[] {
  const out: ArgumentProblem[] = [];
  const byHeader = a.column !== undefined || a.row_contains !== undefined;
  if (a.at !== undefined && byHeader)
    out.push({
      path: [a.column !== undefined ? "column" : "row_contains"],
      message: "`at` and `column` + `row_contains` are two ways to name the cell; use one",
      hint: "keep `at: B2`, or remove it and keep `column:` with `row_contains:`",
    });
  else if (a.at === undefined && !byHeader)
    out.push({ path: [], message: "`assert_spreadsheet` needs the cell: `at: B2`, or `column:` with `row_contains:`", hint: "add `at: B2`" });
  else if (byHeader && (a.column === undefined || a.row_contains === undefined)) {
    out.push({
      path: [a.column === undefined ? "row_contains" : "column"],
      message: "`column` and `row_contains` go together",
      hint: a.column === undefined ? "add `column: <header text>`" : "add `row_contains: <text in the row>`",
    });
  }
  if (a.equals !== undefined && a.contains !== undefined)
    out.push({ path: ["contains"], message: "`equals` and `contains` are mutually exclusive", hint: "keep one of them" });
  return out;
}

const fail = (expected: string, actual: string, extra: { hint?: string; retryable?: boolean } = {}): Verdict => ({ pass: false, expected, actual, ...extra });

export const plugin = defineAssertion<SpreadsheetArgs>({
  key: "assert_spreadsheet",
  schema,
  check: checkArgs,
  async run(a, ctx) {
    // Inside the run's roots only (symlinks followed): a path outside them throws, naming it and the root.
    const path = ctx.paths ? ctx.paths.file("the spreadsheet", a.path, ctx.baseDir) : isAbsolute(a.path) ? a.path : resolve(ctx.baseDir, a.path);
    const ext = extname(path).toLowerCase();
    if (!SUPPORTED_EXTENSIONS.includes(ext)) {
      return fail("an xlsx, xlsm or csv file", `${path} is a ${ext || "extension-less"} file; this version reads ${SUPPORTED_EXTENSIONS.join(", ")}`, {
        retryable: false,
        hint: "export the sheet as .xlsx or .csv",
      });
    }
    if (!existsSync(path)) return fail(`a spreadsheet at ${path}`, `no file at ${path}`);
    let grid: Grid;
    try {
      const read = await readSheet(path, ext, a.sheet);
      if (!read.ok) return fail(`sheet '${a.sheet ?? ""}'`, read.error, { retryable: false });
      grid = read.grid;
    } catch (e) {
      return fail("a readable spreadsheet", `${path} could not be read: ${e instanceof Error ? e.message : String(e)}`);
    }
    const found = findCell(grid, a);
    if (!found.ok) return fail("the cell to resolve", found.error);
    const { text, where } = found;
    if (a.equals !== undefined) {
      const want = typeof a.equals === "string" ? a.equals : String(a.equals);
      const a1 = numericText(text);
      const a2 = numericText(want);
      const same = a1 !== undefined && a2 !== undefined ? a1 === a2 : text === want;
      return same ? { pass: true } : fail(`'${want}'`, `cell ${where} is '${text}', expected equals '${want}'`);
    }
    if (a.contains !== undefined)
      return text.includes(a.contains) ? { pass: true } : fail(`'${a.contains}'`, `cell ${where} is '${text}', expected contains '${a.contains}'`);
    return { pass: true };
  },
});
