// `flowproof merge <run-dir>…`: joins the run records of shards (`flowproof run <dir> --shard i/n`)
// into one run record, junit.xml and report.html under the suite's `.flowproof/runs/`, so the
// merged run is what `flowproof audit` reads. Typed options in, typed result out; never prints.
import { cpSync, existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { SpecError, diagnostic } from "../diagnostics/diagnostic.ts";
import { RUN_ID_PATTERN, type FlowRecord, type RunRecord } from "../report/run-record.ts";
import type { RunReport } from "../report/schema.ts";
import { junitXml } from "../report/junit.ts";
import { suiteHtml } from "../report/suite-html.ts";
import { FLOWPROOF_VERSION } from "../version.ts";
import { createRecordDir, pruneRecords, writeRecord, writeWhole } from "./run-records.ts";

export interface MergeOptions {
  /** Run directories (`<suite>/.flowproof/runs/<run-id>`), one per shard. */
  readonly runDirs: readonly string[];
  /** The suite directory to write under; default the suite of the first run directory. */
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
}

function readShard(dir: string): RunRecord {
  const path = join(dir, "report.json");
  if (!existsSync(path)) throw new SpecError(diagnostic("io-error", `${dir} holds no run record (report.json)`, { hint: "pass run directories: <suite>/.flowproof/runs/<run-id>" }));
  const value = JSON.parse(readFileSync(path, "utf8")) as Partial<RunRecord>;
  if (typeof value.run_id !== "string" || !RUN_ID_PATTERN.test(value.run_id) || !Array.isArray(value.flows)) {
    throw new SpecError(diagnostic("bad-value", `${path} is not a flowproof run record`, { hint: "pass run directories written by `flowproof run <dir>`" }));
  }
  return value as RunRecord;
}

export function merge(options: MergeOptions): MergeResult {
  if (options.runDirs.length === 0) throw new SpecError(diagnostic("bad-value", "merge needs at least one run directory", { hint: "flowproof merge <suite>/.flowproof/runs/<id-1> <suite>/.flowproof/runs/<id-2>" }));
  const dirs = options.runDirs.map((d) => resolve(d));
  const shards = dirs.map(readShard);
  const seen = new Map<string, string>();
  const flows: { flow: FlowRecord; from: string }[] = [];
  for (const [i, shard] of shards.entries()) {
    for (const flow of shard.flows) {
      const other = seen.get(flow.flow);
      if (other) throw new SpecError(diagnostic("bad-value", `${flow.flow} is in both ${other} and ${shard.run_id}`, { hint: "merge the runs of distinct shards (--shard 1/n … n/n) of one suite" }));
      seen.set(flow.flow, shard.run_id);
      flows.push({ flow, from: dirs[i]! });
    }
  }
  flows.sort((a, b) => a.flow.position - b.flow.position);
  const suiteDir = resolve(options.out ?? join(dirs[0]!, "..", "..", ".."));
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
  writeWhole(junitPath, junit);
  writeWhole(join(suiteDir, ".flowproof", "suite-junit.xml"), junit);
  const htmlPath = join(dir, "report.html");
  const outcome = { pass: "passed", degraded: "passed", fail: "failed", skipped: "skipped", errored: "errored", stale: "errored" } as const;
  writeWhole(htmlPath, suiteHtml(record.suite, runId, merged.map((f) => ({ spec: f.flow, name: f.name, outcome: outcome[f.status], duration_ms: f.duration_ms, ...(f.reason ? { reason: f.reason } : {}), ...(f.result ? { report: f.result.replace(/result\.json$/, "report.html") } : {}) }))));
  for (const id of pruneRecords(suiteDir)) options.log?.(`pruned run record ${id} (keeping the latest 10)`);
  const count = (...s: FlowRecord["status"][]) => merged.filter((f) => s.includes(f.status)).length;
  return { record, record_path: recordPath, run_dir: dir, junit_path: junitPath, html_path: htmlPath, passed: count("pass", "degraded"), failed: count("fail"), skipped: count("skipped"), errored: count("errored", "stale") };
}
