// Reads a Word document (.docx) with mammoth into its tables and paragraphs, in document order.
// mammoth's HTML is small and regular (p, h1–h6, li, table/tr/td), so it is split here by tag.
import mammoth from "mammoth";
import type { DocBlock } from "./segment.ts";

/** The blocks of the .docx in `bytes`. Throws when the bytes are not a Word document. */
export async function readDocx(bytes: Uint8Array): Promise<DocBlock[]> {
  const { value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
  return htmlBlocks(html);
}

const TABLE = /<table\b[^>]*>([\s\S]*?)<\/table>/gi;
const ROW = /<tr\b[^>]*>([\s\S]*?)<\/tr>/gi;
const CELL = /<t[dh]\b[^>]*>([\s\S]*?)<\/t[dh]>/gi;
const PARAGRAPH = /<(p|h[1-6]|li)\b[^>]*>([\s\S]*?)<\/\1>/gi;

/**
 * mammoth's HTML as blocks: each table's rows of cell HTML (markup is removed by the segmenter,
 * which keeps a cell's line breaks), and the paragraphs between tables as lines.
 */
export function htmlBlocks(html: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  let at = 0;
  const paragraphs = (part: string) => {
    const lines = [...part.matchAll(PARAGRAPH)]
      .flatMap((m) => text(m[2]!).split("\n"))
      .map((l) => l.trim())
      .filter(Boolean);
    if (lines.length > 0) blocks.push({ kind: "lines", lines });
  };
  for (const t of html.matchAll(TABLE)) {
    paragraphs(html.slice(at, t.index));
    const rows = [...t[1]!.matchAll(ROW)].map((r) => [...r[1]!.matchAll(CELL)].map((c) => c[1]!));
    blocks.push({ kind: "table", rows });
    at = t.index + t[0].length;
  }
  paragraphs(html.slice(at));
  return blocks;
}

function text(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}
