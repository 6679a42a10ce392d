// `flowproof merge <run-dir>…`: joins the run records of shards (`flowproof run <dir> --shard i/n`)
// into one run record, junit.xml and report.html under the suite's `.flowproof/runs/`, so the
// merged run is what `flowproof audit` reads. Every shard 1..n of one suite, each exactly once,
// or nothing is written. Typed options in, typed result out; never prints.
import { unitKey } from "./suite-matrix.ts";
import { cpSync, existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import type { FlowRecord, RunRecord } from "../report/run-record.ts";
import { isRunId } from "../report/run-id.ts";
import type { RunReport } from "../report/schema.ts";
import { junitXml } from "../report/junit.ts";
import { suiteHtml } from "../report/suite-html.ts";
import { FLOWPROOF_VERSION } from "../version.ts";
import { createRecordDir, logPruned, pruneRecords, writeRecord } from "./run-records.ts";
import { writeFileAtomic } from "../diagnostics/atomic-write.ts";

export interface MergeOptions {
  /** Run directories (`<suite>/.flowproof/runs/<run-id>`), one per shard. */
  readonly runDirs: readonly string[];
  /**
   * The suite directory to write the merged run under (`<out>/.flowproof/runs/<id>`); default the
   * suite the run directories sit in when they all are `<suite>/.flowproof/runs/<id>` of one suite.
   */
  readonly out?: string;
  readonly log?: (line: string) => void;
}

export interface MergeResult {
  readonly record: RunRecord;
  readonly record_path: string;
  readonly run_dir: string;
  readonly junit_path: string;
  readonly html_path: string;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly errored: number;
  /** Known failures that failed as recorded: no failure. */
  readonly expected_failures: number;
}

function readShard(dir: string): RunRecord {
  const path = join(dir, "report.json");
  if (!existsSync(path))
    throw new SpecError(diagnostic("io-error", `${dir} holds no run record (report.json)`, { hint: "pass run directories: <suite>/.flowproof/runs/<run-id>" }));
  const value = JSON.parse(readFileSync(path, "utf8")) as Partial<RunRecord>;
  if (typeof value.run_id !== "string" || !isRunId(value.run_id) || !Array.isArray(value.flows)) {
    throw new SpecError(diagnostic("bad-value", `${path} is not a flowproof run record`, { hint: "pass run directories written by `flowproof run <dir>`" }));
  }
  return value as RunRecord;
}

const HINT = "merge the runs of every shard of one suite, each once: flowproof merge <run of --shard 1/n> … <run of --shard n/n>";

/** The suite a run directory `<suite>/.flowproof/runs/<id>` belongs to, or undefined for any other place. */
function suiteOfRunDir(dir: string): string | undefined {
  const runs = dirname(dir);
  const dot = dirname(runs);
  return basename(runs) === "runs" && basename(dot) === ".flowproof" ? dirname(dot) : undefined;
}

/**
 * Refuses anything but one complete set of shards: every record is a shard run of the same
 * suite (the same flow list) and the same n, and each of 1..n is there exactly once.
 */
export function checkShardSet(shards: readonly RunRecord[], labels: readonly string[]): void {
  const label = (i: number) => labels[i]!;
  const unsharded = shards.findIndex((s) => !s.shard);
  if (unsharded >= 0) {
    throw new SpecError(
      diagnostic("bad-value", `${label(unsharded)} is not the run of a shard (it ran the whole suite, without --shard)`, {
        hint: `only shard runs merge (flowproof run <dir> --shard i/n); ${HINT}`,
      }),
    );
  }
  const first = shards[0]!;
  const n = first.shard!.total;
  for (const [i, s] of shards.entries()) {
    if (s.shard!.total !== n) {
      throw new SpecError(
        diagnostic(
          "bad-value",
          `${label(0)} is shard ${first.shard!.index}/${n} but ${label(i)} is shard ${s.shard!.index}/${s.shard!.total}: the shards were cut differently`,
          { hint: HINT },
        ),
      );
    }
    const sameSuite = first.shard!.plan !== undefined && s.shard!.plan !== undefined ? first.shard!.plan === s.shard!.plan : first.suite === s.suite;
    if (!sameSuite) {
      throw new SpecError(
        diagnostic(
          "bad-value",
          `${label(0)} (suite ${first.suite}) and ${label(i)} (suite ${s.suite}) are shards of different suites, or of different versions of its flow list`,
          { hint: HINT },
        ),
      );
    }
  }
  const byIndex = new Map<number, number>();
  for (const [i, s] of shards.entries()) {
    const other = byIndex.get(s.shard!.index);
    if (other !== undefined)
      throw new SpecError(diagnostic("bad-value", `shard ${s.shard!.index}/${n} is given twice: ${label(other)} and ${label(i)}`, { hint: HINT }));
    byIndex.set(s.shard!.index, i);
  }
  const missing = Array.from({ length: n }, (_, k) => k + 1).filter((k) => !byIndex.has(k));
  if (missing.length > 0) {
    throw new SpecError(
      diagnostic(
        "bad-value",
        `${missing.map((k) => `shard ${k}/${n}`).join(", ")} ${missing.length === 1 ? "is" : "are"} missing: a merged run needs every shard 1..${n} exactly once`,
        { hint: HINT },
      ),
    );
  }
  const expected = first.shard!.flows;
  const got = shards.reduce((sum, s) => sum + s.flows.length, 0);
  if (expected !== undefined && got !== expected) {
    throw new SpecError(
      diagnostic("bad-value", `the ${n} shards hold ${got} flows but the suite has ${expected}: a shard's run record is incomplete`, {
        hint: "re-run the incomplete shard and merge again",
      }),
    );
  }
}

export function merge(options: MergeOptions): MergeResult {
  if (options.runDirs.length === 0)
    throw new SpecError(
      diagnostic("bad-value", "merge needs at least one run directory", {
        hint: "flowproof merge <suite>/.flowproof/runs/<id-1> <suite>/.flowproof/runs/<id-2>",
      }),
    );
  const dirs = options.runDirs.map((d) => resolve(d));
  const shards = dirs.map(readShard);
  checkShardSet(shards, options.runDirs);
  const seen = new Map<string, string>();
  const flows: { flow: FlowRecord; from: string }[] = [];
  for (const [i, shard] of shards.entries()) {
    for (const flow of shard.flows) {
      const key = unitKey({ rel: flow.flow, ...(flow.browser ? { variant: flow.browser } : {}) });
      const other = seen.get(key);
      if (other)
        throw new SpecError(
          diagnostic("bad-value", `${key} is in both ${other} and ${shard.run_id}`, {
            hint: "merge the runs of distinct shards (--shard 1/n … n/n) of one suite",
          }),
        );
      seen.set(key, shard.run_id);
      flows.push({ flow, from: dirs[i]! });
    }
  }
  flows.sort((a, b) => a.flow.position - b.flow.position);
  const suiteDir = options.out !== undefined ? resolve(options.out) : defaultOut(dirs, options.runDirs);
  const startedAt = shards.map((s) => s.started_at).sort()[0]!;
  const { runId, dir } = createRecordDir(suiteDir, new Date());
  const reports: RunReport[] = [];
  const merged: FlowRecord[] = flows.map(({ flow, from }) => {
    if (!flow.result) return flow;
    // Each shard's flow bundles move along, so the merged run directory stands alone.
    const source = join(from, flow.result);
    const target = join(dir, "shards", basename(from), flow.result);
    cpSync(join(source, ".."), join(target, ".."), { recursive: true });
    reports.push(JSON.parse(readFileSync(target, "utf8")) as RunReport);
    return { ...flow, result: join("shards", basename(from), flow.result) };
  });
  const record: RunRecord = {
    run_id: runId,
    started_at: startedAt,
    flowproof_version: FLOWPROOF_VERSION,
    env: shards[0]!.env,
    suite: shards[0]!.suite,
    merged_from: shards.map((s) => s.run_id),
    flows: merged,
  };
  const recordPath = writeRecord(dir, record);
  const junit = junitXml(reports);
  const junitPath = join(dir, "junit.xml");
  writeFileAtomic(junitPath, junit);
  writeFileAtomic(join(suiteDir, ".flowproof", "suite-junit.xml"), junit);
  const htmlPath = join(dir, "report.html");
  const outcome = {
    pass: "passed",
    degraded: "passed",
    fail: "failed",
    skipped: "skipped",
    errored: "errored",
    stale: "errored",
    xfail: "expected_failure",
    flaky: "flaky",
  } as const;
  writeFileAtomic(
    htmlPath,
    suiteHtml(
      record.suite,
      runId,
      merged.map((f) => ({
        spec: f.flow,
        name: f.name,
        outcome: outcome[f.status],
        duration_ms: f.duration_ms,
        ...(f.reason ? { reason: f.reason } : {}),
        ...(f.result ? { report: f.result.replace(/result\.json$/, "report.html") } : {}),
      })),
    ),
  );
  logPruned(pruneRecords(suiteDir), (line) => options.log?.(line));
  const count = (...s: FlowRecord["status"][]) => merged.filter((f) => s.includes(f.status)).length;
  return {
    record,
    record_path: recordPath,
    run_dir: dir,
    junit_path: junitPath,
    html_path: htmlPath,
    passed: count("pass", "degraded"),
    failed: count("fail", "flaky"),
    skipped: count("skipped"),
    errored: count("errored", "stale"),
    expected_failures: count("xfail"),
  };
}

/** Where a merge writes by default: the one suite every run directory sits in; otherwise `-o` is needed. */
function defaultOut(dirs: readonly string[], labels: readonly string[]): string {
  const suites = dirs.map(suiteOfRunDir);
  const first = suites[0];
  const i = suites.findIndex((s) => s === undefined || s !== first);
  if (first !== undefined && i < 0) return first;
  const where =
    i < 0 || suites[i] === undefined
      ? `${labels[Math.max(i, 0)]} is not <suite>/.flowproof/runs/<run-id>`
      : `${labels[0]} and ${labels[i]} sit in different suite directories`;
  throw new SpecError(
    diagnostic("usage", `say where to write the merged run: ${where}`, {
      hint: "flowproof merge <run-dir>… -o <suite dir> (the merged run goes to <suite dir>/.flowproof/runs/<run-id>)",
    }),
  );
}
