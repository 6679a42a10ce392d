// `bun scripts/build.ts [target…]`: single-file executables of the CLI with `bun build --compile`
// into the gitignored dist/. The built-in plugins are part of the bundle and the built page script
// is embedded as an asset (scripts/build-injected.ts); the OCR worker with its WASM core, and the
// English OCR model, are embedded too. So an executable needs no files beside it.
// Cross-compilation runtimes come from the npm registry (`@oven/bun-<target>`), fetched by Bun
// itself; nothing else is downloaded.
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { writeBuiltPageScript } from "../plugins/web/injected/bundle.ts";

const ROOT = resolve(import.meta.dir, "..");
export const DIST_DIR = join(ROOT, "dist");
const ENTRY = join(ROOT, "src", "cli", "main.ts");
const VISION_OCR_WORKER = join(ROOT, "plugins", "vision", "ocr", "worker.ts");

/** The release targets: Bun's `--target` name and the executable's file name in dist/. */
export const TARGETS = {
  "linux-x64": { bunTarget: "bun-linux-x64", file: "flowproof-linux-x64" },
  "linux-arm64": { bunTarget: "bun-linux-arm64", file: "flowproof-linux-arm64" },
  "darwin-arm64": { bunTarget: "bun-darwin-arm64", file: "flowproof-darwin-arm64" },
  "windows-x64": { bunTarget: "bun-windows-x64", file: "flowproof-windows-x64.exe" },
} as const;

export type TargetName = keyof typeof TARGETS;
export const TARGET_NAMES = Object.keys(TARGETS) as TargetName[];

export interface BuildOutcome {
  readonly target: TargetName;
  readonly ok: boolean;
  readonly path: string;
  /** Bun's output when the build failed (for instance: the target runtime could not be fetched). */
  readonly detail: string;
}

/**
 * The `bun build --compile` command line for `entry`, embedding the built page script `pageScript`
 * (writeBuiltPageScript) as an asset: the executable reads it where the sources would have it.
 */
export function compileArgv(entry: string, bunTarget: string, outfile: string, pageScript: string): string[] {
  return [
    process.execPath,
    "build",
    entry,
    "--compile",
    `--target=${bunTarget}`,
    `--outfile=${outfile}`,
    `--asset=${pageScript}`,
    // The OCR worker thread is an entry point of its own; with the repository as the bundle's root
    // it sits at its repository path inside the executable, where the vision surface spawns it.
    VISION_OCR_WORKER,
    `--root=${ROOT}`,
    // Modules ship compiled to bytecode, so a start parses nothing: without it the executable
    // parsed its whole bundle on every start (`flowproof --version` took 775 ms against 66 ms;
    // bench/README.md, "The compiled executable"). Bytecode needs the ES module output named.
    "--bytecode",
    "--format=esm",
    // A project's .env, bunfig.toml or package.json must not change how the executable behaves.
    "--no-compile-autoload-dotenv",
    "--no-compile-autoload-bunfig",
  ];
}

/** Compiles one target into `outDir` (default dist/). Never throws for a failed build: the outcome says so. */
export async function buildExecutable(target: TargetName, outDir: string = DIST_DIR): Promise<BuildOutcome> {
  const { bunTarget, file } = TARGETS[target];
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, file);
  const proc = Bun.spawn(compileArgv(ENTRY, bunTarget, path, writeBuiltPageScript()), { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { target, ok: code === 0, path, detail: `${stdout}${stderr}`.trim() };
}

function parseTargets(args: readonly string[]): TargetName[] {
  if (args.length === 0) return TARGET_NAMES;
  const unknown = args.filter((a) => !(a in TARGETS));
  if (unknown.length > 0) {
    console.error(`unknown target(s) ${unknown.join(", ")}; known: ${TARGET_NAMES.join(", ")}`);
    process.exit(2);
  }
  return args as TargetName[];
}

if (import.meta.main) {
  let failed = 0;
  for (const target of parseTargets(process.argv.slice(2))) {
    const t0 = performance.now();
    const outcome = await buildExecutable(target);
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    if (outcome.ok) console.log(`built  ${target.padEnd(13)} ${outcome.path} (${seconds} s)`);
    else {
      failed++;
      console.log(
        `FAILED ${target.padEnd(13)} (${seconds} s)\n${outcome.detail
          .split("\n")
          .map((l) => `       ${l}`)
          .join("\n")}`,
      );
    }
  }
  process.exit(failed === 0 ? 0 : 1);
}
