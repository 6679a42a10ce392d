// Opens the document `author-from-doc` is given and hands it to the reader for its format, chosen
// by file extension. Every failure is a diagnostic naming the file and what to do.
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { FlowproofError, diagnostic } from "../../diagnostics/diagnostic.ts";
import type { DocBlock } from "./segment.ts";

export type DocumentFormat = "pdf" | "docx" | "xlsx" | "csv" | "markdown";

const FORMATS: Readonly<Record<string, DocumentFormat>> = { ".pdf": "pdf", ".docx": "docx", ".xlsx": "xlsx", ".xlsm": "xlsx", ".csv": "csv", ".md": "markdown", ".markdown": "markdown" };
/**
 * Each reader loads on first use: PDF.js, mammoth and exceljs take a third of a second to load,
 * which no other command should pay for.
 */
const READERS: Readonly<Record<DocumentFormat, (bytes: Uint8Array) => Promise<DocBlock[]>>> = {
  pdf: async (bytes) => (await import("./read-pdf.ts")).readPdf(bytes),
  docx: async (bytes) => (await import("./read-docx.ts")).readDocx(bytes),
  xlsx: async (bytes) => (await import("./read-sheet.ts")).readXlsx(bytes),
  csv: async (bytes) => (await import("./read-sheet.ts")).readCsv(bytes),
  markdown: async (bytes) => (await import("./read-markdown.ts")).readMarkdown(bytes),
};
/** Older formats a tool may still export, and what to save them as. */
const SAVE_AS: Readonly<Record<string, string>> = { ".doc": ".docx", ".xls": ".xlsx", ".rtf": ".docx", ".odt": ".docx", ".ods": ".xlsx" };
const SUPPORTED = "PDF (.pdf), Word (.docx), Excel (.xlsx), CSV (.csv) or Markdown (.md)";

/** The format `path` is read as, by its extension, or undefined. */
export const formatOf = (path: string): DocumentFormat | undefined => FORMATS[extname(path).toLowerCase()];

/** Reads the document at `path` into blocks. */
export async function readDocument(path: string): Promise<{ format: DocumentFormat; blocks: DocBlock[] }> {
  const ext = extname(path).toLowerCase();
  const format = formatOf(path);
  if (!format) {
    const saveAs = SAVE_AS[ext];
    throw new FlowproofError(diagnostic("document-unreadable", `${path}: ${ext ? `\`${ext}\` is not a format author-from-doc reads` : "the file has no extension to tell its format"}`, {
      hint: saveAs ? `save it as ${saveAs} and pass that file` : `export the test case as ${SUPPORTED}`,
    }));
  }
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new FlowproofError(diagnostic("io-error", `cannot read ${path}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (error as Error).message}`, { hint: "pass the path of the exported test case" }), { cause: error });
  }
  try {
    return { format, blocks: await READERS[format](bytes) };
  } catch (error) {
    throw new FlowproofError(diagnostic("document-unreadable", `${path} could not be read as ${format.toUpperCase()}: ${error instanceof Error ? error.message : String(error)}`, {
      hint: `check that the file is a complete ${format.toUpperCase()} export (open it once in its application and save it again)`,
    }), { cause: error });
  }
}
