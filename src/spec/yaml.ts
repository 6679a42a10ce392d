// YAML parsing with source positions kept: the one place flow and suite files are parsed.
// Turns yaml's nodes into spans and collects syntax errors as diagnostics.
import { parseDocument, LineCounter, isMap, isScalar, isSeq, type Document, type Node, type Pair, type Scalar, type YAMLMap } from "yaml";
import { diagnostic, type Diagnostic, type SourceSpan } from "../diagnostics/diagnostic.ts";

export interface YamlSource {
  readonly file: string;
  readonly text: string;
  readonly lines: readonly string[];
  readonly counter: LineCounter;
  readonly doc: Document.Parsed;
}

export function parseYaml(file: string, text: string): { source: YamlSource; diagnostics: Diagnostic[] } {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const source: YamlSource = { file, text, lines: text.split(/\r?\n/), counter, doc };
  const diagnostics = doc.errors.map((e) =>
    diagnostic("yaml-syntax", e.message.split("\n")[0] ?? "invalid YAML", {
      span: spanAtOffset(source, e.pos[0], Math.max(1, e.pos[1] - e.pos[0])),
      hint: "fix the YAML syntax; quote values that contain `: ` or start with `\"`, `{`, `[`, `*`, `&`, `!`, `%` or `@`",
    }),
  );
  return { source, diagnostics };
}

export function spanAtOffset(source: YamlSource, offset: number, length = 1): SourceSpan {
  const pos = source.counter.linePos(Math.min(offset, source.text.length));
  const lineText = source.lines[pos.line - 1] ?? "";
  return { file: source.file, line: pos.line, column: pos.col, length: Math.max(1, length), lineText };
}

/** Span of a whole node (first line only). */
export function spanOf(source: YamlSource, node: Node | null | undefined): SourceSpan {
  if (!node || !node.range) return spanAtOffset(source, 0, 1);
  const [start, end] = node.range;
  const lineEnd = source.text.indexOf("\n", start);
  const stop = lineEnd === -1 ? end : Math.min(end, lineEnd);
  return spanAtOffset(source, start, Math.max(1, stop - start));
}

/**
 * Span of a substring of a scalar's text (`offset`, `length` in the value). Exact for plain and
 * single-line quoted scalars without escapes; falls back to the whole node otherwise.
 */
export function spanInScalar(source: YamlSource, node: Scalar, offset: number, length: number): SourceSpan {
  if (!node.range) return spanOf(source, node);
  const [start, end] = node.range;
  const written = source.text.slice(start, end);
  const value = String(node.value);
  let base: number | undefined;
  if (node.type === "PLAIN" && written === value) base = start;
  else if ((node.type === "QUOTE_DOUBLE" || node.type === "QUOTE_SINGLE") && written.slice(1, -1) === value) base = start + 1;
  if (base === undefined) return spanOf(source, node);
  return spanAtOffset(source, base + offset, length);
}

export function keyName(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

export { isMap, isScalar, isSeq };
export type { YAMLMap, Scalar, Node, Pair };
