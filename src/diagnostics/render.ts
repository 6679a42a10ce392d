// Renders diagnostics for people (code frame) and for machines (--json, MCP). No I/O.
import { diagnosticsOf, type Diagnostic, type DiagnosticCode } from "./diagnostic.ts";

const MAX_SHOWN = 10;
/** Longest message, hint or note echoed whole; a longer one keeps its start and end around an ellipsis. */
export const MAX_ECHO_CHARS = 500;
/** Widest source line a code frame shows; a longer one is shown as a window around the caret. */
export const MAX_FRAME_CHARS = 160;
/** How much of the line a code-frame window shows before the caret. */
const FRAME_LEAD_CHARS = 40;

/** `file:line:col: error[code] message`, the source line with a caret, then the hint. */
export function renderDiagnostic(d: Diagnostic): string {
  const out: string[] = [];
  const message = boundText(d.message);
  out.push(d.span ? `${d.span.file}:${d.span.line}:${d.span.column}: error[${d.code}] ${message}` : `error: ${message} [${d.code}]`);
  if (d.span && d.span.lineText) {
    const gutter = String(d.span.line);
    const pad = " ".repeat(gutter.length);
    const frame = frameWindow(d.span.lineText, d.span.column, d.span.length);
    out.push(`  ${gutter} | ${frame.text}`);
    out.push(`  ${pad} | ${" ".repeat(frame.caretAt)}${"^".repeat(frame.caretLength)}`);
  }
  if (d.hint) out.push(`  hint: ${boundText(d.hint)}`);
  for (const note of d.notes ?? []) {
    const nwhere = note.span ? `${note.span.file}:${note.span.line}:${note.span.column}: ` : "";
    out.push(`  note: ${nwhere}${boundText(note.message)}`);
  }
  return out.join("\n");
}

/**
 * The part of a source line a code frame shows: the whole line when it is short, else a window of
 * about `MAX_FRAME_CHARS` starting a little before the span, with `…` where it was cut.
 * `caretAt` is 0-based in the returned text.
 */
export function frameWindow(lineText: string, column: number, length: number): { text: string; caretAt: number; caretLength: number } {
  const at = Math.max(0, Math.min(column - 1, lineText.length));
  if (lineText.length <= MAX_FRAME_CHARS) return { text: lineText, caretAt: at, caretLength: Math.max(1, Math.min(length, MAX_FRAME_CHARS)) };
  const start = at <= FRAME_LEAD_CHARS ? 0 : unsplit(lineText, at - FRAME_LEAD_CHARS);
  const end = unsplit(lineText, Math.min(lineText.length, start + MAX_FRAME_CHARS));
  const lead = start > 0 ? "…" : "";
  const text = `${lead}${lineText.slice(start, end)}${end < lineText.length ? "…" : ""}`;
  const caretAt = lead.length + at - start;
  return { text, caretAt, caretLength: Math.max(1, Math.min(length, end - at)) };
}

/**
 * Text echoed back to the reader, bounded: a longer one keeps its first two thirds and last third
 * of `max` characters, joined by `… (N characters) …`, so a huge authored line is never echoed whole.
 */
export function boundText(text: string, max = MAX_ECHO_CHARS): string {
  if (text.length <= max) return text;
  const head = unsplit(text, Math.floor((max * 2) / 3));
  const tail = unsplit(text, text.length - Math.floor(max / 3));
  return `${text.slice(0, head)}… (${tail - head} characters) …${text.slice(tail)}`;
}

/** Moves a cut off the middle of a surrogate pair. */
function unsplit(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff && at > 0 ? at - 1 : at;
}

/**
 * Characters that act on a terminal instead of printing (C0/C1 controls such as ESC, which start
 * title and colour sequences; bidirectional overrides; line separators; lone surrogates). Tab and
 * newline print as they are.
 */
const TERMINAL_UNSAFE =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text safe to write to a terminal: every unsafe character becomes its visible `\uXXXX` escape.
 * Inside a JSON document such a character can only sit in a string, where the escape means the
 * same character, so JSON output stays exact.
 */
export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Every diagnostic of a file together, at most ten, then "… and N more". */
export function renderDiagnostics(list: readonly Diagnostic[]): string {
  const shown = list.slice(0, MAX_SHOWN).map(renderDiagnostic);
  if (list.length > MAX_SHOWN) shown.push(`… and ${list.length - MAX_SHOWN} more`);
  return shown.join("\n\n");
}

/** The JSON shape used by --json and MCP: `{code, message, file?, line?, column?, hint?, notes?}`. */
/** An error as `--json` and the MCP server print it: the first diagnostic's code and message, and every diagnostic. */
export function errorToJson(error: unknown): { readonly code: DiagnosticCode; readonly message: string; readonly diagnostics: Record<string, unknown>[] } {
  const list = diagnosticsOf(error);
  const first = list[0];
  return { code: first?.code ?? "io-error", message: first?.message ?? "", diagnostics: list.map(diagnosticToJson) };
}

export function diagnosticToJson(d: Diagnostic): Record<string, unknown> {
  return {
    code: d.code,
    message: boundText(d.message),
    ...(d.span ? { file: d.span.file, line: d.span.line, column: d.span.column } : {}),
    ...(d.hint ? { hint: boundText(d.hint) } : {}),
    ...(d.notes
      ? { notes: d.notes.map((n) => ({ message: boundText(n.message), ...(n.span ? { file: n.span.file, line: n.span.line, column: n.span.column } : {}) })) }
      : {}),
  };
}
