import { afterAll, describe, expect, test } from "bun:test";
import { tmpProject } from "../../test/support/tmp-project.ts";
import { audit } from "./audit.ts";
import { createRecordDir, writeRecord } from "./run-records.ts";
import { SpecError } from "../diagnostics/diagnostic.ts";

const p = tmpProject();
afterAll(() => p.remove());

function store(at: number, verdict: "pass" | "fail"): string {
  const { runId, dir } = createRecordDir(p.dir, new Date(Date.UTC(2026, 0, 1, 0, 0, at)));
  writeRecord(dir, {
    run_id: runId,
    started_at: "2026-01-01T00:00:00Z",
    flowproof_version: "0",
    env: { os: "linux" },
    suite: ".",
    flows: [
      { flow: "a.flow.yaml", name: "A", status: verdict, position: 0, duration_ms: 1, control: { id: "c.a", verdict, evidence: { trace: "a.trace.jsonl" } } },
    ],
  });
  return runId;
}

describe("audit", () => {
  test("needs a directory with a run record", () => {
    expect(() => audit({ dir: p.dir })).toThrow(/no run record/);
    expect(() => audit({ dir: `${p.dir}/missing` })).toThrow(SpecError);
  });
  test("maps the latest record, a chosen one, and the difference since one", () => {
    const first = store(1, "pass");
    store(2, "fail");
    const latest = audit({ dir: p.dir });
    expect(latest).toMatchObject({ kind: "map", failed: true });
    expect(audit({ dir: p.dir, run: first })).toMatchObject({ kind: "map", failed: false });
    expect(audit({ dir: p.dir, since: first })).toMatchObject({ kind: "diff", regression: true, diff: { changed: [{ id: "c.a", old: "pass", new: "fail" }] } });
  });
});
