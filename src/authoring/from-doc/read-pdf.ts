// Reads a PDF (unpdf, PDF.js underneath) into positioned text runs and hands them to the layout
// module, which finds the lines and any test-step table. No OCR: a scanned PDF has no text.
import { extractTextItems, getDocumentProxy } from "unpdf";
import { layoutPdf, type PdfTextItem } from "./pdf-layout.ts";
import type { DocBlock } from "./segment.ts";
import { DocumentTooLarge, type DocumentBounds } from "./doc-limits.ts";

/** PDF.js's own logging off: its warnings would land on stdout, in the middle of `--json` output. */
const SILENT = 0;

/** The blocks of the PDF in `bytes`. Throws when the bytes are not a PDF PDF.js can open. */
export async function readPdf(bytes: Uint8Array, bounds?: DocumentBounds): Promise<DocBlock[]> {
  // PDF.js takes ownership of (and detaches) the buffer it is given: hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: SILENT });
  try {
    // Counted before any page's text is read.
    if (bounds && pdf.numPages > bounds.pages) throw new DocumentTooLarge(`the PDF has ${pdf.numPages} pages`, "docPages", bounds.pages);
    const { items } = await extractTextItems(pdf);
    const runs: PdfTextItem[] = items.flatMap((page, p) =>
      page.map((it) => ({ page: p + 1, str: it.str, x: it.x, y: it.y, width: it.width, height: it.height })),
    );
    return layoutPdf(runs);
  } finally {
    await pdf.loadingTask.destroy();
  }
}
