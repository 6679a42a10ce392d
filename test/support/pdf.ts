// Writes small PDFs for the unit tests of the PDF reader: text placed at given points (Helvetica),
// one content stream per page, with a correct cross-reference table. Test support only; the
// end-to-end tests print real PDFs from HTML with Chromium instead.

/** A piece of text at (x, y) in PDF points, origin bottom-left. */
export interface PdfText {
  readonly x: number;
  readonly y: number;
  readonly text: string;
  /** Font size in points; default 12. */
  readonly size?: number;
}

const escapePdf = (s: string): string => s.replace(/\\/g, "\\\\").replace(/\(/g, "\\(").replace(/\)/g, "\\)");

/** The bytes of a PDF with one A4 page per entry of `pages`. */
export function buildPdf(pages: readonly (readonly PdfText[])[]): Uint8Array {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  add("<< /Type /Catalog /Pages 2 0 R >>");
  const kids = pages.map((_, i) => `${4 + i * 2} 0 R`).join(" ");
  add(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  pages.forEach((texts, i) => {
    const content = texts.map((t) => `BT /F1 ${t.size ?? 12} Tf ${t.x} ${t.y} Td (${escapePdf(t.text)}) Tj ET`).join("\n");
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`);
    add(`<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`);
  });
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, "latin1"));
}
