// Reads Markdown: its pipe tables (`| Step | Expected Result |` over a `| --- | --- |` line) and
// the lines around them. Pure: text in, blocks out.
import type { DocBlock } from "./segment.ts";

/** `| --- | :---: |`: every cell between pipes is dashes, with an optional `:` at either end. */
function isDelimiterRow(line: string): boolean {
  let row = line.trim();
  if (row.startsWith("|")) row = row.slice(1);
  if (row.endsWith("|")) row = row.slice(0, -1);
  return row.split("|").every((cell) => /^:?-+:?$/.test(cell.trim()));
}

/** The blocks of a Markdown document. */
export function readMarkdown(bytes: Uint8Array): DocBlock[] {
  const lines = new TextDecoder()
    .decode(bytes)
    .replace(/^\ufeff/, "")
    .split(/\r?\n/);
  const blocks: DocBlock[] = [];
  let text: string[] = [];
  const flush = () => {
    const kept = text
      .map((l) =>
        inline(l)
          .replace(/^\s*(?:#{1,6}|[-*+]|>)\s+/, "")
          .trim(),
      )
      .filter(Boolean);
    if (kept.length > 0) blocks.push({ kind: "lines", lines: kept });
    text = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.includes("|") && isDelimiterRow(lines[i + 1] ?? "")) {
      flush();
      const rows = [cells(line)];
      i += 2;
      while (i < lines.length && lines[i]!.includes("|") && lines[i]!.trim() !== "") rows.push(cells(lines[i++]!));
      i--;
      blocks.push({ kind: "table", rows });
    } else text.push(line);
  }
  flush();
  return blocks;
}

/** The cells of a table row: split at unescaped pipes, the outer pipes dropped. */
function cells(row: string): string[] {
  const parts: string[] = [];
  let current = "";
  for (let i = 0; i < row.length; i++) {
    const ch = row[i]!;
    if (ch === "\\" && row[i + 1] === "|") {
      current += "|";
      i++;
    } else if (ch === "|") {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  parts.push(current);
  const trimmed = row.trim();
  if (trimmed.startsWith("|")) parts.shift();
  if (trimmed.endsWith("|") && !trimmed.endsWith("\\|")) parts.pop();
  return parts.map((c) => inline(c).trim());
}

/** Emphasis and code-span markers removed: `**Save**` is the text Save. */
function inline(text: string): string {
  return text.replace(/(\*\*|__)(.+?)\1/g, "$2").replace(/`([^`]*)`/g, "$1");
}
