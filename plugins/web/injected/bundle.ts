// Builds the page script from page-script.ts and the modules it imports with Bun's bundler, into
// one IIFE for the browser. Imported as a macro (`with { type: "macro" }`), so it runs when the
// importing module is transpiled: `bun build --compile` inlines the text into the executable, and
// running from source builds it once per content of this folder (cached in the temp directory).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ENTRY = join(import.meta.dir, "page-script.ts");

/** A digest of every page-side module (this folder's non-test sources) and of the bundler's version. */
export function sourceDigest(dir: string = import.meta.dir): string {
  const hash = createHash("sha256").update(Bun.version);
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".ts") && !n.endsWith(".test.ts")).sort()) {
    hash.update(`\0${name}\0`).update(readFileSync(join(dir, name)));
  }
  return hash.digest("hex").slice(0, 16);
}

/** Bundles `entry` for the browser as one IIFE; throws with the bundler's message when it fails. */
export function bundle(entry: string = ENTRY): string {
  // Bun.build cannot run inside a macro (the bundler waits for the macro): the CLI, as Bun advises.
  const result = Bun.spawnSync([process.execPath, "build", entry, "--target=browser", "--format=iife"], { stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } });
  if (result.exitCode !== 0) throw new Error(`the page script did not build: ${result.stderr.toString().trim() || `bun build exited with ${result.exitCode}`}`);
  return result.stdout.toString();
}

/** The page script's source text (see installer.ts for how it is run). */
export function pageScript(): string {
  const dir = join(tmpdir(), "flowproof-page-script");
  const cached = join(dir, `${sourceDigest()}.js`);
  if (existsSync(cached)) return readFileSync(cached, "utf8");
  const text = bundle();
  mkdirSync(dir, { recursive: true });
  // Written aside and renamed: a concurrent build never reads half a file.
  const part = `${cached}.${process.pid}.part`;
  writeFileSync(part, text);
  renameSync(part, cached);
  return text;
}
