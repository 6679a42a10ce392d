// Opens the document `author-from-doc` is given and hands it to the reader for its format, chosen
// by file extension. Every failure is a diagnostic naming the file and what to do.
import { readFileSync, statSync } from "node:fs";
import { extname } from "node:path";
import { FlowproofError, diagnostic } from "../../diagnostics/diagnostic.ts";
import { limitValue } from "../../diagnostics/limits.ts";
import type { DocBlock } from "./segment.ts";
import { declaredUnzippedBytes, DocumentTooLarge, type DocumentBounds } from "./doc-limits.ts";

export type DocumentFormat = "pdf" | "docx" | "xlsx" | "csv" | "markdown";

const FORMATS: Readonly<Record<string, DocumentFormat>> = {
  ".pdf": "pdf",
  ".docx": "docx",
  ".xlsx": "xlsx",
  ".xlsm": "xlsx",
  ".csv": "csv",
  ".md": "markdown",
  ".markdown": "markdown",
};
/**
 * Each reader loads on first use: PDF.js, mammoth and exceljs take a third of a second to load,
 * which no other command should pay for.
 */
const READERS: Readonly<Record<DocumentFormat, (bytes: Uint8Array, bounds: DocumentBounds) => Promise<DocBlock[]>>> = {
  pdf: async (bytes, bounds) => (await import("./read-pdf.ts")).readPdf(bytes, bounds),
  docx: async (bytes) => (await import("./read-docx.ts")).readDocx(bytes),
  xlsx: async (bytes, bounds) => (await import("./read-sheet.ts")).readXlsx(bytes, bounds),
  csv: async (bytes, bounds) => (await import("./read-sheet.ts")).readCsv(bytes, bounds),
  markdown: async (bytes) => (await import("./read-markdown.ts")).readMarkdown(bytes),
};
/** Older formats a tool may still export, and what to save them as. */
const SAVE_AS: Readonly<Record<string, string>> = { ".doc": ".docx", ".xls": ".xlsx", ".rtf": ".docx", ".odt": ".docx", ".ods": ".xlsx" };
const SUPPORTED = "PDF (.pdf), Word (.docx), Excel (.xlsx), CSV (.csv) or Markdown (.md)";

/** The format `path` is read as, by its extension, or undefined. */
export const formatOf = (path: string): DocumentFormat | undefined => FORMATS[extname(path).toLowerCase()];

/**
 * Reads the document at `path` into blocks, within the bounds of docs/flow-format.md "Limits"
 * (raised by the FLOWPROOF_DOC_MAX_* variables of `env`).
 */
export async function readDocument(
  path: string,
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<{ format: DocumentFormat; blocks: DocBlock[] }> {
  const ext = extname(path).toLowerCase();
  const format = formatOf(path);
  if (!format) {
    const saveAs = SAVE_AS[ext];
    throw new FlowproofError(
      diagnostic(
        "document-unreadable",
        `${path}: ${ext ? `\`${ext}\` is not a format author-from-doc reads` : "the file has no extension to tell its format"}`,
        {
          hint: saveAs ? `save it as ${saveAs} and pass that file` : `export the test case as ${SUPPORTED}`,
        },
      ),
    );
  }
  const maxBytes = limitValue("docBytes", env);
  const bounds: DocumentBounds = { rows: limitValue("docRows", env), pages: limitValue("docPages", env) };
  let bytes: Uint8Array;
  try {
    const size = statSync(path).size;
    if (size > maxBytes) throw new DocumentTooLarge(`${path} holds ${size} bytes`, "docBytes", maxBytes);
    bytes = readFileSync(path);
  } catch (error) {
    if (error instanceof DocumentTooLarge) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new FlowproofError(
      diagnostic(
        "io-error",
        `cannot read ${path}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (error as Error).message}`,
        { hint: "pass the path of the exported test case" },
      ),
      { cause: error },
    );
  }
  if (format === "docx" || format === "xlsx") {
    const unzipped = declaredUnzippedBytes(bytes);
    const max = limitValue("docUnzippedBytes", env);
    if (unzipped !== undefined && unzipped > max)
      throw new DocumentTooLarge(
        `${path} unzips to ${Number.isFinite(unzipped) ? `${unzipped} bytes` : "more than 4 GiB"} (as its zip directory declares)`,
        "docUnzippedBytes",
        max,
      );
  }
  try {
    return { format, blocks: await READERS[format](bytes, bounds) };
  } catch (error) {
    if (error instanceof DocumentTooLarge) throw error;
    throw new FlowproofError(
      diagnostic("document-unreadable", `${path} could not be read as ${format.toUpperCase()}: ${error instanceof Error ? error.message : String(error)}`, {
        hint: `check that the file is a complete ${format.toUpperCase()} export (open it once in its application and save it again)`,
      }),
      { cause: error },
    );
  }
}
