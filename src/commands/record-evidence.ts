// What a failed `record` keeps: its recording bundle (the frames up to the failure, redacted as
// they were written) moved to `.flowproof/failed-records/<id>/`, with the surface's debug snapshot
// beside them (`debug/dom.html`, `debug/console.log`, every secret redacted as in a run bundle),
// and the recording's report (`report.html`, `result.json`) as a run bundle would hold it.
// No trace was minted, so nothing references the authoring bundle any more; this directory is
// named in the failure message instead.
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { AppDriver } from "../plugins/api.ts";
import type { TraceStep } from "../trace/schema.ts";
import { redact } from "../engine/context.ts";
import { unusedRunId } from "../report/run-id.ts";
import { FRAMES_DIR } from "../recording/bundle.ts";
import { writeFileAtomic } from "../diagnostics/atomic-write.ts";
import { reportHtml } from "../report/html.ts";
import type { RunReport } from "../report/schema.ts";
import { didYouMean, pageErrors, snapshotOf, targetText, writeDebugFiles } from "./debug-bundle.ts";
import { displayPath } from "./paths.ts";

export const FAILED_RECORDS_DIR = join(".flowproof", "failed-records");

export interface FailedRecordEvidence {
  /** The evidence directory as people should see it, with a trailing `/`; undefined when there was nothing to keep. */
  readonly dir?: string;
  /** What it holds: `report.html`, `frames`, `debug/dom.html`, `debug/console.log`. */
  readonly kept: readonly string[];
  /** ` — did you mean 'X'?` when the failed step's target text is not on the page but a close one is; "" otherwise. */
  readonly suggestion: string;
}

/** The end of a failed recording's message: no trace, and where the evidence is. */
export function evidenceSentence(evidence: FailedRecordEvidence): string {
  return evidence.dir === undefined
    ? "; no trace was written"
    : `; no trace was written; the failure's evidence (${evidence.kept.join(", ")}) is in ${evidence.dir}`;
}

/** A new, unused `.flowproof/failed-records/<id>` directory path next to the flow. */
export function failedRecordDir(flowDir: string, at: Date): string {
  const root = join(flowDir, FAILED_RECORDS_DIR);
  return join(
    root,
    unusedRunId(at, (id) => existsSync(join(root, id))),
  );
}

/**
 * Moves the failed recording's bundle to a failed-records directory and writes the page's debug
 * snapshot into it. Best effort for the snapshot: a surface without one keeps the frames only.
 */
export async function keepFailedRecord(options: {
  readonly driver: AppDriver;
  readonly bundleRoot: string;
  readonly flowDir: string;
  readonly failedStep: TraceStep | undefined;
  readonly secrets: ReadonlyMap<string, string>;
  /** The recording as a run report (steps, frames, the failure): written as report.html and result.json. */
  readonly report?: RunReport;
  readonly at?: Date;
}): Promise<FailedRecordEvidence> {
  const dir = failedRecordDir(options.flowDir, options.at ?? new Date());
  const kept: string[] = [];
  try {
    mkdirSync(dirname(dir), { recursive: true });
    if (existsSync(join(options.bundleRoot, FRAMES_DIR))) kept.push("frames");
    if (existsSync(options.bundleRoot)) renameSync(options.bundleRoot, dir);
  } catch {
    // Evidence is best effort: a failure to keep it never hides the step's own failure.
    rmSync(options.bundleRoot, { recursive: true, force: true });
    kept.length = 0;
  }
  if (options.report) {
    try {
      mkdirSync(dir, { recursive: true });
      writeFileAtomic(join(dir, "result.json"), JSON.stringify(options.report, null, 2) + "\n");
      writeFileAtomic(join(dir, "report.html"), reportHtml(options.report));
      kept.unshift("report.html");
    } catch {
      // The frames and the snapshot are kept even when the report cannot be written.
    }
  }
  const snapshot = await snapshotOf(options.driver, options.secrets);
  let suggestion = "";
  if (snapshot) {
    try {
      kept.push(...writeDebugFiles(dir, snapshot, options.secrets));
    } catch {
      // The frames are kept even when the snapshot cannot be written.
    }
    const guess = didYouMean(targetText(options.failedStep), snapshot.anchors);
    if (guess) suggestion = ` — did you mean '${redact(guess, options.secrets)}'?`;
    suggestion += pageErrors(snapshot, options.secrets);
  }
  if (kept.length === 0) {
    rmSync(dir, { recursive: true, force: true });
    return { kept, suggestion };
  }
  return { dir: `${displayPath(dir)}/`, kept, suggestion };
}
