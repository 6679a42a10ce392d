import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tmpProject } from "../../test/support/tmp-project.ts";
import { merge } from "./merge.ts";
import { createRecordDir, writeRecord } from "./run-records.ts";
import { writeRunBundle } from "../report/bundle.ts";
import { skippedReport } from "./flow-outcome.ts";

const p = tmpProject();
afterAll(() => p.remove());

function shard(at: number, flows: Array<[string, number]>): string {
  const { runId, dir } = createRecordDir(p.dir, new Date(Date.UTC(2026, 0, 1, 0, 0, at)));
  for (const [name] of flows) {
    mkdirSync(join(dir, "flows", name), { recursive: true });
    writeRunBundle(join(dir, "flows", name), skippedReport(name, `${name}.flow.yaml`, `${name}.trace.jsonl`, "gate"));
  }
  writeRecord(dir, { run_id: runId, started_at: `2026-01-01T00:00:0${at}Z`, flowproof_version: "0", env: { os: "linux" }, suite: ".", flows: flows.map(([name, position]) => ({ flow: `${name}.flow.yaml`, name, status: "skipped", position, duration_ms: 0, result: `flows/${name}/result.json` })) });
  return dir;
}

describe("merge", () => {
  test("joins shards in suite order, copies their bundles and writes junit and the record", () => {
    const a = shard(1, [["c", 2], ["a", 0]]);
    const b = shard(2, [["b", 1]]);
    const r = merge({ runDirs: [a, b] });
    expect(r.record.flows.map((f) => f.flow)).toEqual(["a.flow.yaml", "b.flow.yaml", "c.flow.yaml"]);
    expect(r.record.merged_from?.length).toBe(2);
    expect(r.skipped).toBe(3);
    for (const f of r.record.flows) expect(existsSync(join(r.run_dir, f.result!))).toBe(true);
    expect(readFileSync(r.junit_path, "utf8").match(/<testsuite /g)?.length).toBe(3);
    expect(existsSync(join(p.dir, ".flowproof", "suite-junit.xml"))).toBe(true);
  });
  test("refuses overlapping shards and directories without a record", () => {
    const a = shard(3, [["x", 0]]);
    const b = shard(4, [["x", 0]]);
    expect(() => merge({ runDirs: [a, b] })).toThrow(/x.flow.yaml is in both/);
    expect(() => merge({ runDirs: [p.dir] })).toThrow(/holds no run record/);
  });
});
