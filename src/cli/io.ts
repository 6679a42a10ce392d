// Output and error rendering shared by the command files: human text or one JSON document.
import { diagnosticsOf } from "../diagnostics/diagnostic.ts";
import { boundText, errorToJson, renderDiagnostics, terminalSafe } from "../diagnostics/render.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";

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
  if (json) io.out(JSON.stringify({ error: errorToJson(error) }, null, 2));
  else {
    const diagnostics = diagnosticsOf(error);
    const plural = diagnostics.length > 1 ? `error: ${diagnostics.length} problems:\n\n` : "";
    io.err(`${plural}${renderDiagnostics(diagnostics)}`);
  }
  return EXIT.error;
}
