// Run records on disk: `<suite>/.flowproof/runs/<run-id>/report.json`, written whole, listed in
// run-id order and pruned to the latest RUN_RECORD_RETENTION. The only code that reads them.
import { existsSync, lstatSync, readdirSync, readFileSync, rmdirSync, rmSync, unlinkSync } from "node:fs";
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
  return readdirSync(root)
    .filter((n) => isRunId(n) && existsSync(join(root, n, "report.json")))
    .sort();
}

export function readRecord(suiteDir: string, runId: string): RunRecord {
  const path = join(runsRoot(suiteDir), runId, "report.json");
  if (!existsSync(path)) {
    const known = listRecords(suiteDir);
    throw new SpecError(
      diagnostic("io-error", `no run record ${runId} in ${runsRoot(suiteDir)}`, {
        hint: known.length > 0 ? `known runs: ${known.slice(-5).join(", ")}` : "run `flowproof run <dir>` first",
      }),
    );
  }
  return JSON.parse(readFileSync(path, "utf8")) as RunRecord;
}

/** What pruning did: the run ids removed, and a line for each old record that could not be removed. */
export interface Pruned {
  readonly removed: string[];
  readonly problems: string[];
}

/**
 * Keeps the latest `keep` records. Never throws: a record that cannot be removed is named in
 * `problems` (the caller logs it) and the run's own record stands. `remove` is the tree removal
 * (injected by tests).
 */
export function pruneRecords(suiteDir: string, keep = RUN_RECORD_RETENTION, remove: (dir: string) => void = removeTree): Pruned {
  const all = listRecords(suiteDir);
  const old = all.slice(0, Math.max(0, all.length - keep));
  const removed: string[] = [];
  const problems: string[] = [];
  for (const id of old) {
    try {
      remove(join(runsRoot(suiteDir), id));
      removed.push(id);
    } catch (error) {
      problems.push(`WARNING: could not prune the old run record ${id}: ${(error as Error).message}`);
    }
  }
  return { removed, problems };
}

/**
 * Removes a directory tree. The recursive removal fails with EFAULT on some file systems (a Windows
 * executable under Wine); then the tree is walked and removed entry by entry.
 */
export function removeTree(dir: string, rm: typeof rmSync = rmSync): void {
  try {
    rm(dir, { recursive: true, force: true });
    return;
  } catch {
    // Fall through to the walk, which names the entry that cannot be removed.
  }
  const walk = (path: string): void => {
    if (lstatSync(path).isDirectory()) {
      for (const name of readdirSync(path)) walk(join(path, name));
      rmdirSync(path);
    } else unlinkSync(path);
  };
  if (existsSync(dir)) walk(dir);
}

/** Logs what pruning did, in the words every command uses. */
export function logPruned(pruned: Pruned, log: (line: string) => void): void {
  for (const id of pruned.removed) log(`pruned run record ${id} (keeping the latest ${RUN_RECORD_RETENTION})`);
  for (const line of pruned.problems) log(line);
}
