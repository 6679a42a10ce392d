// Type-checks a project's plugins with `tsc` as a project that installed flowproof would: the
// package linked at node_modules/flowproof, a strict tsconfig over `plugins/`. Answers what tsc
// printed and its exit code.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./cli.ts";

export async function tscAsInstalled(dir: string, extra: Readonly<Record<string, unknown>> = {}): Promise<{ out: string; code: number }> {
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  symlinkSync(REPO_ROOT, join(dir, "node_modules", "flowproof"));
  const compilerOptions = {
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "bundler",
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    ...extra,
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["plugins"] }));
  const tsc = Bun.spawn([join(REPO_ROOT, "node_modules", ".bin", "tsc"), "-p", "."], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(tsc.stdout).text(), tsc.exited]);
  return { out, code };
}
