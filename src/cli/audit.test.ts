import { afterAll, describe, expect, test } from "bun:test";
import { tmpProject } from "../../test/support/tmp-project.ts";
import { captureIo } from "../../test/support/io.ts";
import { auditCommand } from "./audit.ts";
import { UsageError } from "./flags.ts";
import { createRecordDir, writeRecord } from "../commands/run-records.ts";

const p = tmpProject();
afterAll(() => p.remove());

describe("auditCommand", () => {
  test("prints YAML by default and JSON with --json; exit 1 on a failing control", async () => {
    const { runId, dir } = createRecordDir(p.dir, new Date());
    writeRecord(dir, {
      run_id: runId,
      started_at: "2026-01-01T00:00:00Z",
      flowproof_version: "0",
      env: { os: "linux" },
      suite: ".",
      flows: [
        {
          flow: "a.flow.yaml",
          name: "A",
          status: "fail",
          position: 0,
          duration_ms: 1,
          control: { id: "c.a", verdict: "fail", reason: "s0001 x", evidence: { trace: "a.trace.jsonl" } },
        },
      ],
    });
    const io = captureIo();
    expect(await auditCommand({ positional: [p.dir], flags: {} }, io)).toBe(1);
    expect(io.stdout).toContain(`run: ${runId}\ncontrols:\n  - id: c.a`);
    const json = captureIo();
    expect(await auditCommand({ positional: [p.dir], flags: { json: true } }, json)).toBe(1);
    expect(JSON.parse(json.stdout).controls[0].verdict).toBe("fail");
  });
  test("--run and --since together are a usage error", async () => {
    await expect(auditCommand({ positional: [p.dir], flags: { run: "a", since: "b" } }, captureIo())).rejects.toBeInstanceOf(UsageError);
  });
});
