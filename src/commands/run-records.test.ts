import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { tmpProject } from "../../test/support/tmp-project.ts";
import { createRecordDir, listRecords, pruneRecords, readRecord, writeRecord } from "./run-records.ts";
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
    expect(pruneRecords(p.dir)).toEqual(ids.slice(0, 2));
    expect(listRecords(p.dir)).toEqual(ids.slice(2));
    expect(() => readRecord(p.dir, ids[0]!)).toThrow(/no run record/);
  });
});
