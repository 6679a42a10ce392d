#!/usr/bin/env node
// npm launcher: runs the flowproof CLI (TypeScript) on the Bun runtime installed with the
// package, passing arguments, stdio and the exit code through.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

// npm may install the `bun` package without running its install script (npm 11 skips the install
// scripts a project has not approved): its bin/bun.exe is then a placeholder that only prints an
// error. The runtime itself is in the platform package npm installed beside it, so start that one.
const PLACEHOLDER_MAX_BYTES = 64 * 1024;

function isRuntime(file) {
  try {
    return statSync(file).size > PLACEHOLDER_MAX_BYTES;
  } catch {
    return false;
  }
}

function platformPackage() {
  const os = { linux: "linux", darwin: "darwin", win32: "windows", freebsd: "freebsd", android: "linux" }[process.platform];
  const arch = { x64: "x64", arm64: "aarch64" }[process.arch];
  if (!os || !arch) return undefined;
  const glibc = process.platform === "linux" ? process.report?.getReport?.().header?.glibcVersionRuntime : "n/a";
  return `@oven/bun-${os}-${arch}${os === "linux" && !glibc ? "-musl" : ""}${process.platform === "android" ? "-android" : ""}`;
}

function findBun() {
  if (process.env.FLOWPROOF_BUN) return process.env.FLOWPROOF_BUN;
  const exe = process.platform === "win32" ? "bun.exe" : "bun";
  try {
    const require = createRequire(import.meta.url);
    const bunPackage = require.resolve("bun/package.json");
    const installed = path.join(path.dirname(bunPackage), "bin", "bun.exe");
    if (isRuntime(installed)) return installed;
    const name = platformPackage();
    if (name) {
      const fromPlatform = path.join(path.dirname(createRequire(bunPackage).resolve(`${name}/package.json`)), "bin", exe);
      if (isRuntime(fromPlatform)) return fromPlatform;
    }
  } catch {
    // not installed as a dependency, or no platform package for this machine: a bun on PATH
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
