// Runs the real CLI as a subprocess (`bun src/cli/main.ts …`) and captures stdout, stderr and
// the exit code.
import { join } from "node:path";

export const REPO_ROOT = join(import.meta.dir, "..", "..");
const MAIN = join(REPO_ROOT, "src", "cli", "main.ts");

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function runCli(args: readonly string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: "1", ...options.env })) if (v !== undefined) env[k] = v;
  const proc = Bun.spawn([process.execPath, MAIN, ...args], { cwd: options.cwd, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}
