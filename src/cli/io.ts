// Output and error rendering shared by the command files: human text or one JSON document.
import { FlowproofError, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { boundText, diagnosticToJson, renderDiagnostics, terminalSafe } from "../diagnostics/render.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import { UsageError } from "./flags.ts";
import { AdapterUnavailableError } from "../plugins/api.ts";
import { UnresolvedReferenceError } from "../engine/templates.ts";

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

/** Longest line of human text printed whole (all of stderr: JSON goes to stdout). */
export const MAX_LINE_CHARS = 2_000;

/**
 * Every line printed passes through `terminalSafe`: page and flow text never reaches the terminal
 * as escape sequences. Stderr lines are also bounded, so a huge step or page text is not echoed whole.
 */
export const processIo: Io = {
  out: (text) => process.stdout.write(terminalSafe(text.endsWith("\n") ? text : `${text}\n`)),
  err: (text) => process.stderr.write(terminalSafe(boundLines(text.endsWith("\n") ? text : `${text}\n`))),
};

/** Each line of human text bounded to `MAX_LINE_CHARS` (never applied to JSON output). */
export function boundLines(text: string): string {
  return text.split("\n").map((line) => boundText(line, MAX_LINE_CHARS)).join("\n");
}

/** Renders an error for people (stderr) or as `{"error": …}` JSON (stdout); returns exit code 2. */
export function reportError(io: Io, error: unknown, json: boolean): ExitCode {
  let diagnostics: readonly Diagnostic[];
  if (error instanceof FlowproofError) diagnostics = error.diagnostics;
  else if (error instanceof UsageError) diagnostics = [{ code: "usage", message: error.message, hint: error.hint }];
  else if (error instanceof AdapterUnavailableError) diagnostics = [{ code: "no-browser", message: error.message, hint: error.hint }];
  else if (error instanceof UnresolvedReferenceError) diagnostics = [{ code: "unresolved-reference", message: error.message }];
  else {
    const message = error instanceof Error ? error.message : String(error);
    diagnostics = [{ code: "io-error", message }];
  }
  if (json) {
    const first = diagnostics[0];
    io.out(JSON.stringify({ error: { code: first?.code ?? "io-error", message: first?.message ?? "", diagnostics: diagnostics.map(diagnosticToJson) } }, null, 2));
  } else {
    const plural = diagnostics.length > 1 ? `error: ${diagnostics.length} problems:\n\n` : "";
    io.err(`${plural}${renderDiagnostics(diagnostics)}`);
  }
  return EXIT.error;
}
