#!/usr/bin/env node
// npm launcher: runs the flowproof CLI (TypeScript) on the Bun runtime installed with the
// package, passing arguments, stdio and the exit code through.
import { spawn } from "node:child_process";
import { constants } from "node:os";
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
// Asynchronous, so this process stays able to pass signals on: a CI timeout's SIGTERM or a
// Ctrl-C must reach the CLI, which stops its flows and browsers and writes their results.
const child = spawn(findBun(), [main, ...process.argv.slice(2)], { stdio: "inherit" });
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
for (const signal of SIGNALS) {
  process.on(signal, () => {
    // Ctrl-C in a terminal reaches the whole process group, the CLI included; the CLI counts a
    // repeat that follows at once as the same request, so passing it on is always safe.
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on("error", (error) => {
  process.stderr.write(`error: could not start the Bun runtime (${error.message}); run \`npm install\` in the flowproof package, or install bun\n`);
  process.exit(2);
});
child.on("exit", (code, signal) => {
  // The CLI's status, or 128 + the signal's number when a signal ended it (as shells report it).
  process.exit(code !== null ? code : 128 + (constants.signals[signal] ?? 0));
});
