// `flowproof audit <dir>`: the control map from the suite's persisted run record (never re-runs),
// or the difference to an earlier run with `since`. Typed options in, typed result out.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import { auditDiff, auditMap, isRegression, type AuditDiff, type AuditMap } from "../report/audit.ts";
import { listRecords, readRecord } from "./run-records.ts";

export interface AuditOptions {
  readonly dir: string;
  /** A specific run record instead of the latest. */
  readonly run?: string;
  /** Compare the latest record with this one. */
  readonly since?: string;
}

export type AuditResult =
  | { readonly kind: "map"; readonly map: AuditMap; readonly failed: boolean }
  | { readonly kind: "diff"; readonly diff: AuditDiff; readonly regression: boolean };

export function audit(options: AuditOptions): AuditResult {
  const dir = resolve(options.dir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new SpecError(diagnostic("bad-value", `${options.dir} is not a directory`, { hint: "audit a suite directory: flowproof audit <dir>" }));
  }
  const records = listRecords(dir);
  const latest = records[records.length - 1];
  if (!latest && !options.run) {
    throw new SpecError(
      diagnostic("io-error", `no run record in ${options.dir}/.flowproof/runs`, { hint: `run the suite first: flowproof run ${options.dir}` }),
    );
  }
  if (options.since) {
    const base = readRecord(dir, options.since);
    const head = readRecord(dir, latest!);
    const diff = auditDiff(base, head);
    return { kind: "diff", diff, regression: isRegression(diff) };
  }
  const map = auditMap(readRecord(dir, options.run ?? latest!));
  return { kind: "map", map, failed: map.controls.some((c) => c.verdict === "fail") };
}
