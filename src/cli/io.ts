// Output and error rendering shared by the command files: human text or one JSON document. While
// stdout belongs to a machine (`--json`, `flowproof mcp`), whatever else writes to it is diverted.
import { Writable } from "node:stream";
import { diagnosticsOf } from "../diagnostics/diagnostic.ts";
import { boundText, errorToJson, renderDiagnostics, terminalSafe } from "../diagnostics/render.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import type { StepReport } from "../report/schema.ts";

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
/** stdout's own writer, taken when this module loads: before any project plugin or library can replace it. */
const stdoutWrite: typeof process.stdout.write = process.stdout.write.bind(process.stdout);

export const processIo: Io = {
  out: (text) => stdoutWrite(terminalSafe(text.endsWith("\n") ? text : `${text}\n`)),
  err: (text) => process.stderr.write(terminalSafe(boundLines(text.endsWith("\n") ? text : `${text}\n`))),
};

/**
 * Sends everything written to stdout — `console.log`, `console.info`, `console.debug`,
 * `process.stdout.write` from a project plugin or a library — to stderr, for as long as the
 * command's stdout carries its machine output (one `--json` document, or MCP's JSON-RPC): a plugin's
 * chatter must not corrupt it. The command's own output goes through `processIo.out` or
 * {@link machineStdout}, which keep the real stdout. Returns the function that undoes it.
 */
export function divertStrayStdout(): () => void {
  const saved = { write: process.stdout.write, log: console.log, info: console.info, debug: console.debug };
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  return () => {
    process.stdout.write = saved.write;
    console.log = saved.log;
    console.info = saved.info;
    console.debug = saved.debug;
  };
}

/** A stream onto the real stdout for a protocol's messages (MCP), unaffected by {@link divertStrayStdout}. */
export function machineStdout(): Writable {
  const out = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      stdoutWrite(chunk, (error) => done(error ?? undefined));
    },
  });
  process.stdout.on("error", (error) => out.destroy(error));
  return out;
}

/** Each line of human text bounded to `MAX_LINE_CHARS` (never applied to JSON output). */
export function boundLines(text: string): string {
  return text
    .split("\n")
    .map((line) => boundText(line, MAX_LINE_CHARS))
    .join("\n");
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

/** `  [WARN] sNNNN …` for each step whose effect left a warning (a DOM, focus or GET effect that did not happen again). */
export function warningLines(steps: readonly StepReport[]): string[] {
  return steps.flatMap((s) => (s.effect?.warning ? [`  [WARN] ${s.id} ${s.effect.warning}`] : []));
}
