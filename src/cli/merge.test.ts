import { afterAll, describe, expect, test } from "bun:test";
import { tmpProject } from "../../test/support/tmp-project.ts";
import { captureIo } from "../../test/support/io.ts";
import { mergeCommand } from "./merge.ts";
import { UsageError } from "./flags.ts";
import { createRecordDir, writeRecord } from "../commands/run-records.ts";

const p = tmpProject();
afterAll(() => p.remove());

describe("mergeCommand", () => {
  test("prints the merged verdict; exit code follows the worst flow", async () => {
    const { runId, dir } = createRecordDir(p.dir, new Date());
    writeRecord(dir, {
      run_id: runId,
      started_at: "2026-01-01T00:00:00Z",
      flowproof_version: "0",
      env: { os: "linux" },
      suite: ".",
      shard: { index: 1, total: 1 },
      flows: [{ flow: "a.flow.yaml", name: "A", status: "errored", position: 0, duration_ms: 0, reason: "x" }],
    });
    const io = captureIo();
    expect(await mergeCommand({ positional: [dir], flags: {} }, io)).toBe(2);
    expect(io.stdout).toContain("FAIL: 0/1 flows passed, 1 errored (merged 1 runs)");
  });
  test("needs run directories", async () => {
    await expect(mergeCommand({ positional: [], flags: {} }, captureIo())).rejects.toBeInstanceOf(UsageError);
  });
});
