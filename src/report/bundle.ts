// Writes a run bundle: `.flowproof/runs/<run-id>/` with result.json, junit.xml and report.html.
// Each file is written whole (temp + rename) so a crash never leaves a half-written report.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { checkWritable, writeFileAtomic } from "../diagnostics/atomic-write.ts";
import { runId, unusedRunId } from "./run-id.ts";
import type { RunReport } from "./schema.ts";
import { junitXml } from "./junit.ts";
import { reportHtml } from "./html.ts";

/** The run id format (run-id.ts), as this module always offered it. */
export { runId };

/** A new run directory, proven writable before the run starts (an `io-error` otherwise). */
export function createRunDir(baseDir: string, at: Date): string {
  const root = join(baseDir, ".flowproof", "runs");
  const dir = join(root, unusedRunId(at, (id) => existsSync(join(root, id))));
  checkWritable(dir, "the run's result.json, junit.xml, report.html and frames");
  return dir;
}

export interface BundlePaths {
  readonly dir: string;
  readonly result: string;
  readonly junit: string;
  readonly html: string;
}

export function writeRunBundle(dir: string, report: RunReport): BundlePaths {
  const paths = { dir, result: join(dir, "result.json"), junit: join(dir, "junit.xml"), html: join(dir, "report.html") };
  writeFileAtomic(paths.result, JSON.stringify(report, null, 2) + "\n");
  writeFileAtomic(paths.junit, junitXml([report]));
  writeFileAtomic(paths.html, reportHtml(report));
  return paths;
}
