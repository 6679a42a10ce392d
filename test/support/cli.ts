// Runs the real CLI as a subprocess (`bun src/cli/main.ts …`) and captures stdout, stderr and
// the exit code.
import { join } from "node:path";

export const REPO_ROOT = join(import.meta.dir, "..", "..");
const MAIN = join(REPO_ROOT, "src", "cli", "main.ts");

const MODEL_VARIABLES = /^(FLOWPROOF_AI_|OPENAI_|ANTHROPIC_)/;

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `stdin`: text the CLI reads on standard input (default: none). */
export async function runCli(args: readonly string[], options: { cwd: string; env?: Record<string, string | undefined>; stdin?: string }): Promise<CliResult> {
  const env: Record<string, string> = {};
  // An authoring model configured on the developer's machine must not leak into tests: a test
  // that wants one passes its variables (e.g. the scripted model's) explicitly.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !MODEL_VARIABLES.test(k)));
  for (const [k, v] of Object.entries({ ...inherited, NO_COLOR: "1", ...options.env })) if (v !== undefined) env[k] = v;
  const proc = Bun.spawn([process.execPath, MAIN, ...args], {
    cwd: options.cwd,
    env,
    ...(options.stdin === undefined ? {} : { stdin: new Blob([options.stdin]) }),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** The first line a child writes to `stream` (a pid, a port, a JSON report), without its newline; the reader is released after it. */
export async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text.split("\n")[0]!.trim();
}
