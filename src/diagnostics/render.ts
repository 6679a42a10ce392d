// Renders diagnostics for people (code frame) and for machines (--json, MCP). No I/O.
import type { Diagnostic } from "./diagnostic.ts";

const MAX_SHOWN = 10;

/** `file:line:col: error[code] message`, the source line with a caret, then the hint. */
export function renderDiagnostic(d: Diagnostic): string {
  const out: string[] = [];
  out.push(d.span ? `${d.span.file}:${d.span.line}:${d.span.column}: error[${d.code}] ${d.message}` : `error: ${d.message} [${d.code}]`);
  if (d.span && d.span.lineText) {
    const gutter = String(d.span.line);
    const pad = " ".repeat(gutter.length);
    out.push(`  ${gutter} | ${d.span.lineText}`);
    out.push(`  ${pad} | ${" ".repeat(Math.max(0, d.span.column - 1))}${"^".repeat(Math.max(1, Math.min(d.span.length, 200)))}`);
  }
  if (d.hint) out.push(`  hint: ${d.hint}`);
  for (const note of d.notes ?? []) {
    const nwhere = note.span ? `${note.span.file}:${note.span.line}:${note.span.column}: ` : "";
    out.push(`  note: ${nwhere}${note.message}`);
  }
  return out.join("\n");
}

/** Every diagnostic of a file together, at most ten, then "… and N more". */
export function renderDiagnostics(list: readonly Diagnostic[]): string {
  const shown = list.slice(0, MAX_SHOWN).map(renderDiagnostic);
  if (list.length > MAX_SHOWN) shown.push(`… and ${list.length - MAX_SHOWN} more`);
  return shown.join("\n\n");
}

/** The JSON shape used by --json and MCP: `{code, message, file?, line?, column?, hint?, notes?}`. */
export function diagnosticToJson(d: Diagnostic): Record<string, unknown> {
  return {
    code: d.code,
    message: d.message,
    ...(d.span ? { file: d.span.file, line: d.span.line, column: d.span.column } : {}),
    ...(d.hint ? { hint: d.hint } : {}),
    ...(d.notes ? { notes: d.notes.map((n) => ({ message: n.message, ...(n.span ? { file: n.span.file, line: n.span.line, column: n.span.column } : {}) })) } : {}),
  };
}
