// Run ids: the one name format of every run directory (`.flowproof/runs/<run-id>/`: a flow's run
// bundle, a suite's or a merge's run record) and of a failed recording's evidence directory.

/** `YYYYMMDDTHHMMSS.mmmZ`, then `-2`, `-3`… for a later run started in the same millisecond. */
export const RUN_ID_PATTERN = /^\d{8}T\d{6}\.\d{3}Z(-\d+)?$/;

/** The run-record ids written before the one format (`YYYY-MM-DDTHH-MM-SSZ-<4 hex>`): still read, listed and merged. */
export const EARLIER_RUN_ID_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-[0-9a-f]{4}$/;

/** Whether `name` is a run id (of either format); earlier ids sort before every current one. */
export function isRunId(name: string): boolean {
  return RUN_ID_PATTERN.test(name) || EARLIER_RUN_ID_PATTERN.test(name);
}

/** The run id of a run started at `at`: sortable as text. */
export function runId(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.(\d{3})Z$/, ".$1Z");
}

/** The first run id for `at` that `taken` does not report as used (`-2`, `-3`… after the plain one). */
export function unusedRunId(at: Date, taken: (id: string) => boolean): string {
  const base = runId(at);
  let id = base;
  for (let n = 2; taken(id); n++) id = `${base}-${n}`;
  return id;
}
