#!/usr/bin/env node
// npm launcher: runs the flowproof CLI (TypeScript) on the Bun runtime installed with the
// package, passing arguments, stdio and the exit code through.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

function findBun() {
  if (process.env.FLOWPROOF_BUN) return process.env.FLOWPROOF_BUN;
  try {
    const require = createRequire(import.meta.url);
    const exe = path.join(path.dirname(require.resolve("bun/package.json")), "bin", "bun.exe");
    if (existsSync(exe)) return exe;
  } catch {
    // not installed as a dependency: fall back to a bun on PATH
  }
  return "bun";
}

const main = path.join(here, "..", "src", "cli", "main.ts");
const result = spawnSync(findBun(), [main, ...process.argv.slice(2)], { stdio: "inherit" });
if (result.error) {
  process.stderr.write(`error: could not start the Bun runtime (${result.error.message}); run \`npm install\` in the flowproof package, or install bun\n`);
  process.exit(2);
}
process.exit(result.status === null ? 2 : result.status);
