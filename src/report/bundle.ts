// Writes a run bundle: `.flowproof/runs/<run-id>/` with result.json, junit.xml and report.html.
// Each file is written whole (temp + rename) so a crash never leaves a half-written report.
import { mkdirSync, renameSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import type { RunReport } from "./schema.ts";
import { junitXml } from "./junit.ts";
import { reportHtml } from "./html.ts";

/** `YYYYMMDDTHHMMSS.mmmZ`: sortable, one per run. */
export function runId(at: Date): string {
  return at.toISOString().replace(/[-:]/g, "").replace(/\.(\d{3})Z$/, ".$1Z");
}

export function createRunDir(baseDir: string, at: Date): string {
  const root = join(baseDir, ".flowproof", "runs");
  let dir = join(root, runId(at));
  for (let n = 2; existsSync(dir); n++) dir = join(root, `${runId(at)}-${n}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

function writeWhole(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export interface BundlePaths {
  readonly dir: string;
  readonly result: string;
  readonly junit: string;
  readonly html: string;
}

export function writeRunBundle(dir: string, report: RunReport): BundlePaths {
  const paths = { dir, result: join(dir, "result.json"), junit: join(dir, "junit.xml"), html: join(dir, "report.html") };
  writeWhole(paths.result, JSON.stringify(report, null, 2) + "\n");
  writeWhole(paths.junit, junitXml([report]));
  writeWhole(paths.html, reportHtml(report));
  return paths;
}
