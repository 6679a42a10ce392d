import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpProject } from "../../test/support/tmp-project.ts";
import { createRecordDir, listRecords, pruneRecords, readRecord, removeTree, writeRecord } from "./run-records.ts";
import type { RunRecord } from "../report/run-record.ts";

const p = tmpProject();
afterAll(() => p.remove());

describe("run records on disk", () => {
  test("writes, lists in run-id order, reads back and prunes to the latest 10", () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const { runId, dir } = createRecordDir(p.dir, new Date(Date.UTC(2026, 0, 1, 0, 0, i)));
      const record: RunRecord = { run_id: runId, started_at: "2026-01-01T00:00:00Z", flowproof_version: "0", env: { os: "linux" }, suite: ".", flows: [] };
      writeRecord(dir, record);
      ids.push(runId);
    }
    // A single-flow bundle directory is not a run record and is left alone.
    mkdirSync(join(p.dir, ".flowproof", "runs", "20260101T000000.000Z"), { recursive: true });
    expect(listRecords(p.dir)).toEqual(ids);
    expect(readRecord(p.dir, ids[3]!).run_id).toBe(ids[3]!);
    expect(pruneRecords(p.dir)).toEqual({ removed: ids.slice(0, 2), problems: [] });
    expect(listRecords(p.dir)).toEqual(ids.slice(2));
    expect(() => readRecord(p.dir, ids[0]!)).toThrow(/no run record/);
  });
});

describe("pruning where the recursive removal fails (a Windows executable under Wine: EFAULT)", () => {
  const efault = (() => {
    throw Object.assign(new Error("EFAULT: bad address in system call argument, rm"), { code: "EFAULT" });
  }) as unknown as typeof rmSync;

  test("the tree is removed entry by entry instead", () => {
    const dir = join(p.dir, "tree");
    mkdirSync(join(dir, "a", "b"), { recursive: true });
    writeFileSync(join(dir, "a", "b", "frame.png"), "x");
    writeFileSync(join(dir, "report.json"), "{}");
    removeTree(dir, efault);
    expect(existsSync(dir)).toBe(false);
  });

  test("a record that cannot be removed at all is a warning naming it; the others are pruned and nothing throws", () => {
    const q = tmpProject();
    try {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const { runId, dir } = createRecordDir(q.dir, new Date(Date.UTC(2026, 0, 2, 0, 0, i)));
        writeRecord(dir, { run_id: runId, started_at: "2026-01-02T00:00:00Z", flowproof_version: "0", env: { os: "linux" }, suite: ".", flows: [] });
        ids.push(runId);
      }
      const stuck = ids[0]!;
      const pruned = pruneRecords(q.dir, 10, (dir) => {
        if (dir.endsWith(stuck)) throw new Error("EFAULT: bad address in system call argument");
        removeTree(dir, efault);
      });
      expect(pruned).toEqual({
        removed: [ids[1]!],
        problems: [`WARNING: could not prune the old run record ${stuck}: EFAULT: bad address in system call argument`],
      });
      expect(listRecords(q.dir)).toEqual([stuck, ...ids.slice(2)]);
    } finally {
      q.remove();
    }
  });
});
