import { describe, expect, test } from "bun:test";
import { auditDiff, auditMap, isRegression } from "./audit.ts";
import type { RunRecord } from "./run-record.ts";

const rec = (id: string, controls: Array<[string, "pass" | "fail" | "capability-error"]>): RunRecord => ({
  run_id: id,
  started_at: "2026-01-01T00:00:00Z",
  flowproof_version: "0",
  env: { os: "linux" },
  suite: ".",
  flows: controls.map(([cid, verdict], position) => ({
    flow: `${cid}.flow.yaml`,
    name: cid,
    status: verdict === "pass" ? "pass" : "fail",
    position,
    duration_ms: 1,
    control: { id: cid, verdict, evidence: { trace: `${cid}.trace.jsonl` } },
  })),
});

describe("audit views", () => {
  test("the map lists controls sorted by id with flow and evidence", () => {
    const m = auditMap(
      rec("r1", [
        ["b.x", "pass"],
        ["a.y", "fail"],
      ]),
    );
    expect(m.controls.map((c) => [c.id, c.verdict, c.flow])).toEqual([
      ["a.y", "fail", "a.y.flow.yaml"],
      ["b.x", "pass", "b.x.flow.yaml"],
    ]);
  });
  test("the diff lists added, removed and changed; regressions are removals and new bad verdicts", () => {
    const d = auditDiff(
      rec("r1", [
        ["a", "pass"],
        ["b", "pass"],
        ["c", "fail"],
      ]),
      rec("r2", [
        ["b", "fail"],
        ["c", "pass"],
        ["d", "pass"],
      ]),
    );
    expect(d).toEqual({
      base: "r1",
      head: "r2",
      added: [{ id: "d", verdict: "pass" }],
      removed: [{ id: "a", verdict: "pass" }],
      changed: [
        { id: "b", old: "pass", new: "fail" },
        { id: "c", old: "fail", new: "pass" },
      ],
    });
    expect(isRegression(d)).toBe(true);
    expect(
      isRegression(
        auditDiff(
          rec("r1", [["c", "fail"]]),
          rec("r2", [
            ["c", "pass"],
            ["d", "pass"],
          ]),
        ),
      ),
    ).toBe(false);
    expect(isRegression(auditDiff(rec("r1", []), rec("r2", [["d", "capability-error"]])))).toBe(true);
  });
});
