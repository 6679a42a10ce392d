// YAML parsing with source positions kept: the one place flow and suite files are parsed.
// Turns yaml's nodes into spans and collects syntax errors as diagnostics.
import { parseDocument, LineCounter, isMap, isPair, isScalar, isSeq, type Document, type Node, type Pair, type Scalar, type YAMLMap } from "yaml";
import { diagnostic, type Diagnostic, type SourceSpan } from "../diagnostics/diagnostic.ts";
import { LIMITS } from "../diagnostics/limits.ts";

export interface YamlSource {
  readonly file: string;
  readonly text: string;
  readonly lines: readonly string[];
  readonly counter: LineCounter;
  readonly doc: Document.Parsed;
}

/** YAML syntax errors reported of one file. */
const MAX_SYNTAX_ERRORS = 50;

export function parseYaml(file: string, text: string): { source: YamlSource; diagnostics: Diagnostic[] } {
  const counter = new LineCounter();
  const tooBig = text.length > LIMITS.flowFileChars.value;
  // An oversized file is not parsed: its first line stands in, for the location of the refusal.
  const doc = parseDocument(tooBig ? "" : text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const source: YamlSource = { file, text, lines: tooBig ? [text.slice(0, 200).split(/\r?\n/)[0]!] : text.split(/\r?\n/), counter, doc };
  if (tooBig) {
    return {
      source,
      diagnostics: [
        diagnostic("limit-exceeded", `the file holds ${text.length} characters, more than the ${LIMITS.flowFileChars.value} a flow or suite file may hold`, {
          span: { file, line: 1, column: 1, length: 1, lineText: source.lines[0] ?? "" },
          hint: 'split the flow into several flows (a suite runs them together); see docs/flow-format.md, "Limits"',
        }),
      ],
    };
  }
  const deep = tooDeep(source);
  if (deep) return { source, diagnostics: [deep] };
  // A file of thousands of stray brackets is one mistake repeated: the first errors say it.
  const diagnostics = [
    ...commentCuts(source),
    ...doc.errors.slice(0, MAX_SYNTAX_ERRORS).map((e) =>
      diagnostic("yaml-syntax", e.message.split("\n")[0] ?? "invalid YAML", {
        span: spanAtOffset(source, e.pos[0], Math.max(1, e.pos[1] - e.pos[0])),
        hint: 'fix the YAML syntax; quote values that contain `: ` or start with `"`, `{`, `[`, `*`, `&`, `!`, `%` or `@`',
      }),
    ),
  ];
  return { source, diagnostics };
}

/**
 * YAML ends an unquoted value at ` #`: the rest of the line is a comment. That silently shortens
 * a step (`page shows Invoice #1002` loads as `page shows Invoice`), so a same-line comment that
 * looks like part of the text is refused: one with no space after `#` (`#1002`, `#/active`), or
 * one that cuts the text inside a double quote it opened. `# note` after complete text stays a comment.
 */
function commentCuts(source: YamlSource): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { text } = source;
  walk(source.doc, (node, isKey) => {
    if (!isScalar(node) || isKey || node.type !== "PLAIN" || typeof node.value !== "string" || !node.range) return;
    let at = node.range[1];
    while (text[at] === " " || text[at] === "\t") at++;
    if (text[at] !== "#") return;
    const lineEnd = text.indexOf("\n", at);
    const comment = text.slice(at, lineEnd === -1 ? text.length : lineEnd).trimEnd();
    const value = node.value;
    const glued = comment.length > 1 && !/\s/.test(comment[1]!);
    const openQuote = (value.match(/"/g)?.length ?? 0) % 2 === 1;
    if (!glued && !openQuote) return;
    const whole = `${value} ${comment}`;
    const quoted = /["\\]/.test(whole) ? `'${whole.replaceAll("'", "''")}'` : `"${whole}"`;
    const start = spanAtOffset(source, node.range[0]);
    const lead = start.lineText.slice(0, start.column - 1).trimStart();
    const written = /[[{]/.test(lead) ? quoted : `${lead}${quoted}`;
    out.push(
      diagnostic("yaml-comment", `YAML read \` ${comment}\` as a comment, so the text ends at \`${value}\``, {
        span: spanAtOffset(source, at, comment.length),
        hint: `quote the whole text so the \`#\` is part of it: \`${written}\`${openQuote ? "" : " (a comment needs a space after `#`: `# note`)"}`,
      }),
    );
  });
  return out;
}

/**
 * Every node of `doc` in document order with its nesting depth (the root's items are at 1), and
 * whether it is a mapping's key. Iterative, in time linear in the nodes: yaml's own `visit` copies
 * the path at each level, which is quadratic in the nesting and recursive.
 */
function walk(doc: Document.Parsed, each: (node: Node, isKey: boolean, depth: number) => boolean | void): void {
  const stack: [unknown, boolean, number][] = [[doc.contents, false, 0]];
  while (stack.length > 0) {
    const [node, isKey, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (each(node as Node, isKey, depth) === false) return;
    if (isMap(node) || isSeq(node)) {
      const items = node.items as unknown[];
      for (let i = items.length - 1; i >= 0; i--) {
        const item = items[i];
        if (isPair(item)) {
          stack.push([item.value, false, depth + 1]);
          stack.push([item.key, true, depth + 1]);
        } else stack.push([item, false, depth + 1]);
      }
    }
  }
}

/** A diagnostic at the first node nested deeper than LIMITS.yamlDepth, or undefined. */
function tooDeep(source: YamlSource): Diagnostic | undefined {
  const max = LIMITS.yamlDepth.value;
  let found: Node | undefined;
  walk(source.doc, (node, _isKey, depth) => {
    if (depth <= max) return true;
    found = node;
    return false;
  });
  if (found === undefined) {
    // The parser itself may have given up on a nesting deep enough to exhaust its stack.
    const overflow = source.doc.errors.find((e) => /call stack/i.test(e.message));
    if (overflow === undefined) return undefined;
    return depthDiagnostic(source, spanAtOffset(source, overflow.pos[0]));
  }
  return depthDiagnostic(source, spanOf(source, found));
}

const depthDiagnostic = (_source: YamlSource, span: SourceSpan): Diagnostic =>
  diagnostic("limit-exceeded", `mappings and lists are nested more than ${LIMITS.yamlDepth.value} levels deep here`, {
    span,
    hint: 'a flow needs a few levels at most: flatten the structure; see docs/flow-format.md, "Limits"',
  });

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
