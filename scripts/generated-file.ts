// Shared by the generators: the `--check` / `--write` mode switch and "rewrite only what
// changed". Touches only the files it is given; never writes in check mode.
import { existsSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { makeDir, writeFileAtomic } from "../src/diagnostics/atomic-write.ts";

export type GenerateMode = "check" | "write";

export interface GeneratedFile {
  /** Repo-relative path (POSIX separators). */
  readonly path: string;
  /** The full, exact text the file must hold. */
  readonly content: string;
}

/** `--write` rewrites stale files; `--check` (the default) only reports them. Anything else is a usage error. */
export function parseMode(argv: readonly string[]): GenerateMode {
  const unknown = argv.filter((a) => a !== "--write" && a !== "--check");
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown.join(" ")}; usage: [--check | --write] (default --check)`);
  if (argv.includes("--write") && argv.includes("--check")) throw new Error("pass either --check or --write, not both");
  return argv.includes("--write") ? "write" : "check";
}

/** The paths (of `files`) whose content on disk differs from what they must hold; missing files count. */
export function staleFiles(root: string, files: readonly GeneratedFile[]): string[] {
  return files
    .filter((f) => {
      const abs = `${root}/${f.path}`;
      return !existsSync(abs) || readFileSync(abs, "utf8") !== f.content;
    })
    .map((f) => f.path);
}

/** Writes one file whole (temp + rename), creating its folder. */
export function writeWhole(absPath: string, content: string): void {
  makeDir(dirname(absPath));
  writeFileAtomic(absPath, content);
}

/**
 * Runs a generator in `mode` and returns its exit code. Check: 1 when anything is stale, writing
 * nothing. Write: rewrites only the stale files and returns 0, so `gen-schemas --write && gen-docs
 * --write` runs both; drift is caught by `bun run check`, which uses check mode.
 */
export function syncGenerated(
  root: string,
  files: readonly GeneratedFile[],
  mode: GenerateMode,
  script: string,
  log: (line: string) => void = console.log,
): number {
  const stale = staleFiles(root, files);
  if (stale.length === 0) {
    log(`${script}: ${files.length} generated file(s) current`);
    return 0;
  }
  if (mode === "check") {
    log(`${script}: ${stale.length} generated file(s) stale; run \`bun ${script} --write\` and commit the result:`);
    for (const p of stale) log(`  ${p}`);
    return 1;
  }
  for (const p of stale) {
    const file = files.find((f) => f.path === p)!;
    writeWhole(`${root}/${p}`, file.content);
    log(`${script}: wrote ${p}`);
  }
  return 0;
}
