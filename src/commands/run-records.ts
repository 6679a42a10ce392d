// Run records on disk: `<suite>/.flowproof/runs/<run-id>/report.json`, written whole, listed in
// run-id order and pruned to the latest RUN_RECORD_RETENTION. The only code that reads them.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { RUN_RECORD_RETENTION, type RunRecord } from "../report/run-record.ts";
import { isRunId, unusedRunId } from "../report/run-id.ts";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import { makeDir, writeFileAtomic } from "../diagnostics/atomic-write.ts";

export function runsRoot(suiteDir: string): string {
  return join(suiteDir, ".flowproof", "runs");
}

/** A new, unused run directory for a record started at `at`. */
export function createRecordDir(suiteDir: string, at: Date): { runId: string; dir: string } {
  const root = runsRoot(suiteDir);
  const runId = unusedRunId(at, (id) => existsSync(join(root, id)));
  const dir = join(root, runId);
  makeDir(dir);
  return { runId, dir };
}

export function writeRecord(dir: string, record: RunRecord): string {
  const path = join(dir, "report.json");
  writeFileAtomic(path, JSON.stringify(record, null, 2) + "\n");
  return path;
}

/** Run ids with a record, oldest first. */
export function listRecords(suiteDir: string): string[] {
  const root = runsRoot(suiteDir);
  if (!existsSync(root)) return [];
  return readdirSync(root).filter((n) => isRunId(n) && existsSync(join(root, n, "report.json"))).sort();
}

export function readRecord(suiteDir: string, runId: string): RunRecord {
  const path = join(runsRoot(suiteDir), runId, "report.json");
  if (!existsSync(path)) {
    const known = listRecords(suiteDir);
    throw new SpecError(diagnostic("io-error", `no run record ${runId} in ${runsRoot(suiteDir)}`, { hint: known.length > 0 ? `known runs: ${known.slice(-5).join(", ")}` : "run `flowproof run <dir>` first" }));
  }
  return JSON.parse(readFileSync(path, "utf8")) as RunRecord;
}

/** Keeps the latest `keep` records; returns the run ids removed (the caller logs them). */
export function pruneRecords(suiteDir: string, keep = RUN_RECORD_RETENTION): string[] {
  const all = listRecords(suiteDir);
  const old = all.slice(0, Math.max(0, all.length - keep));
  for (const id of old) rmSync(join(runsRoot(suiteDir), id), { recursive: true, force: true });
  return old;
}
