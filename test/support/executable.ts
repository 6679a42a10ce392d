// The compiled executable for e2e tests: built once per test file into a temp directory, copied
// alone into an empty directory, and run with a PATH that has no bun, node or npm on it.
import { copyFileSync, chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { buildExecutable } from "../../scripts/build.ts";
import type { CliResult } from "./cli.ts";

/** Runtimes the sandbox PATH leaves out, so the executable has to stand on its own. */
const HIDDEN = /^(bun|bunx|node|nodejs|npm|npx|deno)(\.exe)?$/;

export interface Sandbox {
  /** The directory holding only the executable. */
  readonly dir: string;
  readonly binary: string;
  /** A PATH of symlinks to everything on the caller's PATH except the hidden runtimes. */
  readonly path: string;
  run(args: readonly string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<CliResult>;
  remove(): void;
}

/** Builds linux-x64 (the host) once and prepares the sandbox. Throws with Bun's output when the build fails. */
export async function buildSandbox(): Promise<Sandbox> {
  const root = mkdtempSync(join(tmpdir(), "flowproof-exe-"));
  const outcome = await buildExecutable("linux-x64", join(root, "build"));
  if (!outcome.ok) throw new Error(`bun build --compile failed:\n${outcome.detail}`);
  const dir = join(root, "alone");
  mkdirSync(dir);
  const binary = join(dir, "flowproof");
  copyFileSync(outcome.path, binary);
  chmodSync(binary, 0o755);
  rmSync(join(root, "build"), { recursive: true, force: true });
  const bin = join(root, "path-bin");
  mkdirSync(bin);
  const seen = new Set<string>();
  for (const d of (process.env["PATH"] ?? "").split(delimiter)) {
    if (!d || d.includes("node_modules")) continue;
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      continue; // a PATH entry that does not exist contributes nothing
    }
    for (const name of names) {
      if (HIDDEN.test(name) || seen.has(name)) continue;
      const target = join(d, name);
      try {
        if (!statSync(target).isFile()) continue;
      } catch {
        continue; // a dangling link on PATH
      }
      seen.add(name);
      symlinkSync(target, join(bin, name));
    }
  }
  return {
    dir,
    binary,
    path: bin,
    async run(args, options) {
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: "1", PATH: bin, ...options.env })) if (v !== undefined) env[k] = v;
      for (const k of Object.keys(env)) if (k.startsWith("BUN_") || k === "NODE_PATH") delete env[k];
      const proc = Bun.spawn([binary, ...args], { cwd: options.cwd, env, stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      return { code, stdout, stderr };
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
