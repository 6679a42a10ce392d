import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tmpProject } from "../../test/support/tmp-project.ts";
import { merge } from "./merge.ts";
import { createRecordDir, writeRecord } from "./run-records.ts";
import { writeRunBundle } from "../report/bundle.ts";
import { skippedReport } from "./flow-outcome.ts";
import type { RunRecord } from "../report/run-record.ts";

const p = tmpProject();
afterAll(() => p.remove());

const PLAN = `sha256:${"a".repeat(64)}`;

function shard(at: number, flows: Array<[string, number]>, which: RunRecord["shard"] | null = { index: 1, total: 1 }, root = p.dir): string {
  const { runId, dir } = createRecordDir(root, new Date(Date.UTC(2026, 0, 1, 0, 0, at)));
  for (const [name] of flows) {
    mkdirSync(join(dir, "flows", name), { recursive: true });
    writeRunBundle(join(dir, "flows", name), skippedReport(name, `${name}.flow.yaml`, `${name}.trace.jsonl`, "gate"));
  }
  writeRecord(dir, {
    run_id: runId,
    started_at: `2026-01-01T00:00:0${at}Z`,
    flowproof_version: "0",
    env: { os: "linux" },
    suite: ".",
    ...(which ? { shard: which } : {}),
    flows: flows.map(([name, position]) => ({
      flow: `${name}.flow.yaml`,
      name,
      status: "skipped",
      position,
      duration_ms: 0,
      result: `flows/${name}/result.json`,
    })),
  });
  return dir;
}

describe("merge", () => {
  test("joins shards in suite order, copies their bundles and writes junit and the record", () => {
    const a = shard(
      1,
      [
        ["c", 2],
        ["a", 0],
      ],
      { index: 1, total: 2, flows: 3, plan: PLAN },
    );
    const b = shard(2, [["b", 1]], { index: 2, total: 2, flows: 3, plan: PLAN });
    const r = merge({ runDirs: [b, a] });
    expect(r.record.flows.map((f) => f.flow)).toEqual(["a.flow.yaml", "b.flow.yaml", "c.flow.yaml"]);
    expect(r.record.merged_from?.length).toBe(2);
    expect(r.skipped).toBe(3);
    expect(r.run_dir.startsWith(join(p.dir, ".flowproof", "runs"))).toBe(true);
    for (const f of r.record.flows) expect(existsSync(join(r.run_dir, f.result!))).toBe(true);
    expect(readFileSync(r.junit_path, "utf8").match(/<testsuite /g)?.length).toBe(3);
    expect(existsSync(join(p.dir, ".flowproof", "suite-junit.xml"))).toBe(true);
  });
  test("an empty shard is a shard", () => {
    const a = shard(1, [["a", 0]], { index: 1, total: 2, flows: 1, plan: PLAN });
    const b = shard(2, [], { index: 2, total: 2, flows: 1, plan: PLAN });
    expect(merge({ runDirs: [a, b] }).record.flows.length).toBe(1);
  });
  test("refuses a missing, duplicate or mismatched shard, an unsharded run and an incomplete set", () => {
    const one = shard(1, [["a", 0]], { index: 1, total: 2, flows: 2, plan: PLAN });
    const two = shard(2, [["b", 1]], { index: 2, total: 2, flows: 2, plan: PLAN });
    expect(() => merge({ runDirs: [two] })).toThrow("shard 1/2 is missing: a merged run needs every shard 1..2 exactly once");
    expect(() => merge({ runDirs: [one, shard(3, [["b", 1]], { index: 1, total: 2, flows: 2, plan: PLAN })] })).toThrow(/shard 1\/2 is given twice/);
    expect(() => merge({ runDirs: [one, shard(4, [["b", 1]], { index: 2, total: 3, flows: 2, plan: PLAN })] })).toThrow(/is shard 1\/2 but .* is shard 2\/3/);
    expect(() => merge({ runDirs: [one, shard(5, [["b", 1]], { index: 2, total: 2, flows: 2, plan: `sha256:${"b".repeat(64)}` })] })).toThrow(
      /shards of different suites/,
    );
    expect(() => merge({ runDirs: [shard(6, [["a", 0]], null)] })).toThrow(/is not the run of a shard/);
    expect(() => merge({ runDirs: [one, shard(7, [], { index: 2, total: 2, flows: 2, plan: PLAN })] })).toThrow(
      "the 2 shards hold 1 flows but the suite has 2",
    );
  });
  test("refuses overlapping shards and directories without a record", () => {
    const a = shard(3, [["x", 0]], { index: 1, total: 2 });
    const b = shard(4, [["x", 0]], { index: 2, total: 2 });
    expect(() => merge({ runDirs: [a, b] })).toThrow(/x.flow.yaml is in both/);
    expect(() => merge({ runDirs: [p.dir] })).toThrow(/holds no run record/);
  });
  test("writes under -o; without it, run directories outside one suite's .flowproof/runs need -o", () => {
    const elsewhere = tmpProject();
    try {
      const a = shard(1, [["a", 0]], { index: 1, total: 2, flows: 2, plan: PLAN });
      const b = shard(2, [["b", 1]], { index: 2, total: 2, flows: 2, plan: PLAN }, elsewhere.dir);
      expect(() => merge({ runDirs: [a, b] })).toThrow(/say where to write the merged run: .* sit in different suite directories/);
      const out = join(elsewhere.dir, "merged");
      const r = merge({ runDirs: [a, b], out });
      expect(r.run_dir.startsWith(join(out, ".flowproof", "runs"))).toBe(true);
      expect(existsSync(join(out, ".flowproof", "suite-junit.xml"))).toBe(true);
    } finally {
      elsewhere.remove();
    }
  });
});
