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
  test("under a browsers: matrix a control has a verdict per browser, each compared with its own", () => {
    const matrix = (id: string, verdicts: Record<string, "pass" | "fail">): RunRecord => ({
      ...rec(id, []),
      flows: Object.entries(verdicts).map(([browser, verdict], position) => ({
        flow: "c.flow.yaml",
        name: `C [${browser}]`,
        browser,
        status: verdict,
        position,
        duration_ms: 1,
        control: { id: "c", verdict, evidence: { trace: "c.trace.jsonl" } },
      })),
    });
    const base = matrix("r1", { chromium: "pass", firefox: "pass" });
    const head = matrix("r2", { firefox: "fail", chromium: "pass" });
    expect(auditMap(head).controls.map((c) => [c.id, c.browser, c.verdict])).toEqual([
      ["c", "chromium", "pass"],
      ["c", "firefox", "fail"],
    ]);
    // Keyed by id alone, the later browser would hide the other: here Chromium's pass hid Firefox's regression.
    const d = auditDiff(base, head);
    expect(d.changed).toEqual([{ id: "c", browser: "firefox", old: "pass", new: "fail" }]);
    expect(isRegression(d)).toBe(true);
    expect(auditDiff(base, matrix("r3", { chromium: "pass" })).removed).toEqual([{ id: "c", browser: "firefox", verdict: "pass" }]);
  });
});
