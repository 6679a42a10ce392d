// Writes a run bundle: `.flowproof/runs/<run-id>/` with result.json, junit.xml and report.html.
// Each file is written whole (temp + rename) so a crash never leaves a half-written report, and
// a bundle that cannot be written whole never says the run passed.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { OutputError, checkWritable, writeFileAtomic, writeFilesAtomic } from "../diagnostics/atomic-write.ts";
import { runId, unusedRunId } from "./run-id.ts";
import type { RunReport } from "./schema.ts";
import { junitXml } from "./junit.ts";
import { reportHtml } from "./html.ts";

/** The run id format (run-id.ts), as this module always offered it. */
export { runId };

/** A new run directory, proven writable before the run starts (an `io-error` otherwise). */
export function createRunDir(baseDir: string, at: Date): string {
  const root = join(baseDir, ".flowproof", "runs");
  const dir = join(
    root,
    unusedRunId(at, (id) => existsSync(join(root, id))),
  );
  checkWritable(dir, "the run's result.json, junit.xml, report.html and frames");
  return dir;
}

export interface BundlePaths {
  readonly dir: string;
  readonly result: string;
  readonly junit: string;
  readonly html: string;
}

/**
 * Writes result.json, junit.xml and report.html together, or none of them. When one cannot be
 * written (a full disk), the run's evidence is incomplete and nothing may say it passed: each file
 * that still fits is written with the report errored, naming what failed, verdict files first,
 * and the `io-error` is thrown.
 */
export function writeRunBundle(dir: string, report: RunReport): BundlePaths {
  const paths = { dir, result: join(dir, "result.json"), junit: join(dir, "junit.xml"), html: join(dir, "report.html") };
  const files = (r: RunReport): [string, string][] => [
    [paths.result, JSON.stringify(r, null, 2) + "\n"],
    [paths.junit, junitXml([r])],
    [paths.html, reportHtml(r)],
  ];
  try {
    // The verdict files last: the view is the largest and the likeliest to meet a full disk.
    writeFilesAtomic(files(report).reverse());
  } catch (error) {
    if (!(error instanceof OutputError)) throw error;
    for (const [path, text] of files(evidenceLost(report, error))) {
      try {
        writeFileAtomic(path, text);
      } catch {
        // Does not fit either: left unwritten, and the error below says why.
      }
    }
    throw error;
  }
  return paths;
}

/** The report once its own evidence could not be written whole: errored (a stale or interrupted run keeps its outcome), saying why. */
export function evidenceLost(report: RunReport, error: OutputError): RunReport {
  const why = `the run's evidence could not be written whole: ${error.message}`;
  const outcome = report.outcome === "stale" || report.outcome === "interrupted" ? report.outcome : "errored";
  return { ...report, passed: false, outcome, error: report.error !== undefined ? `${report.error}; ${why}` : why };
}
