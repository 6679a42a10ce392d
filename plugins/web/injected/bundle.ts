// Builds the page script from page-script.ts and the modules it imports with Bun's bundler, into
// one IIFE for the browser, and finds it at run time: the built file beside these modules (written
// at pack time for the npm package and embedded in the single-file executable), else built here
// once per content of this folder and cached in the temp directory. No macro: Bun refuses to run
// one from node_modules, where the npm package lives.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const ENTRY = join(import.meta.dir, "page-script.ts");

const BUILT_NAME = "flowproof-page-script.js";

/** Where `writeBuiltPageScript` puts the page script: gitignored, packed into the npm package, embedded in the executable. */
export const BUILT_PAGE_SCRIPT = join(import.meta.dir, "dist", BUILT_NAME);

/** Where the single-file executable has it: `--asset` files sit by their base name beside the bundled modules. */
const EMBEDDED_PAGE_SCRIPT = join(import.meta.dir, BUILT_NAME);

const HEADER = "// flowproof page script, built from sources ";

/** A digest of every page-side module (this folder's non-test sources). */
export function sourceDigest(dir: string = import.meta.dir): string {
  const hash = createHash("sha256");
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith(".ts") && !n.endsWith(".test.ts"))
    .sort()) {
    hash.update(`\0${name}\0`).update(readFileSync(join(dir, name)));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * Bundles `entry` for the browser as one IIFE; throws with the bundler's message when it fails.
 * Built from the entry's folder: the bundler names each module by its path from there, so the
 * text is the same whichever directory flowproof runs in (it is cached, and shared, by its sources' digest).
 */
export function bundle(entry: string = ENTRY): string {
  const result = Bun.spawnSync([process.execPath, "build", entry, "--target=browser", "--format=iife"], {
    cwd: dirname(entry),
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, NO_COLOR: "1" },
  });
  // A plain Error on purpose: the page script is flowproof's own, so a build failure is a flowproof bug.
  if (result.exitCode !== 0) throw new Error(`the page script did not build: ${result.stderr.toString().trim() || `bun build exited with ${result.exitCode}`}`);
  return result.stdout.toString();
}

/** Writes aside and renames, so that a concurrent reader never sees half a file. */
function writeWhole(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const part = `${path}.${process.pid}.part`;
  writeFileSync(part, text);
  renameSync(part, path);
}

/** Builds the page script into `path` (default BUILT_PAGE_SCRIPT), headed by the digest of its sources. */
export function writeBuiltPageScript(path: string = BUILT_PAGE_SCRIPT): string {
  writeWhole(path, `${HEADER}${sourceDigest()}\n${bundle()}`);
  return path;
}

/**
 * The built page script at `path`, or undefined when there is none or, with `sourcesDir`, when it
 * was built from other sources than the ones there (a checkout edited after a pack). Inside the
 * single-file executable there are no sources to compare: the embedded file is the one it was built with.
 */
export function readBuiltPageScript(path: string, sourcesDir?: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const text = readFileSync(path, "utf8");
  const newline = text.indexOf("\n");
  if (!text.startsWith(HEADER) || newline < 0) return undefined;
  if (sourcesDir !== undefined && text.slice(HEADER.length, newline) !== sourceDigest(sourcesDir)) return undefined;
  return text.slice(newline + 1);
}

/** The page script's source text (see installer.ts for how it is run). */
export function pageScript(): string {
  const built = Bun.isStandaloneExecutable ? readBuiltPageScript(EMBEDDED_PAGE_SCRIPT) : readBuiltPageScript(BUILT_PAGE_SCRIPT, import.meta.dir);
  if (built !== undefined) return built;
  // The bundler's version is part of the key: another Bun may bundle the same sources differently.
  const cached = join(tmpdir(), "flowproof-page-script", `${Bun.version}-${sourceDigest()}.js`);
  if (existsSync(cached)) return readFileSync(cached, "utf8");
  const text = bundle();
  writeWhole(cached, text);
  return text;
}
