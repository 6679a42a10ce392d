import { describe, expect, test } from "bun:test";
import { stepViews } from "./viewer.ts";
import type { RunReport } from "./schema.ts";

const report = (recording: RunReport["recording"], statuses: Array<"passed" | "failed" | "skipped"> = ["passed", "failed", "skipped"]): RunReport => ({
  name: "R",
  trace_id: "t",
  passed: false,
  outcome: "failed",
  duration_ms: 100,
  started_at: "2026-01-01T00:00:00.000Z",
  flowproof_version: "0",
  spec_path: "a",
  trace_path: "b",
  steps: statuses.map((status, i) => ({ id: `s000${i + 1}`, intent: `step ${i + 1}`, status, started_ms: i * 10, duration_ms: 5 })),
  ...(recording ? { recording } : {}),
});
const f = (offset_ms: number) => ({ offset_ms, file: `recording/frame-${offset_ms}-00000000.png` });

describe("stepViews", () => {
  test("gives each step exactly the frames in its range: before, pointer, after, and the failure frame", () => {
    const views = stepViews(
      report({
        format: "filmstrip/1",
        dir: "recording",
        frames: [f(1), f(1), f(4), f(11), f(14)],
        steps: [
          { id: "s0001", start_ms: 0, end_ms: 5 },
          { id: "s0002", start_ms: 10, end_ms: 15 },
          { id: "s0003", start_ms: 15, end_ms: 15 },
        ],
      }),
    );
    expect(views.map((v) => v.frames.map((x) => [x.offset_ms, x.role]))).toEqual([
      [
        [1, "before"],
        [1, "pointer"],
        [4, "after"],
      ],
      [
        [11, "before"],
        [14, "failure"],
      ],
      [],
    ]);
  });

  test("a step without frames of its own (low detail) shows the latest earlier frame", () => {
    const views = stepViews(
      report(
        {
          format: "filmstrip/1",
          dir: "recording",
          frames: [f(0), f(14)],
          steps: [
            { id: "s0001", start_ms: 1, end_ms: 5 },
            { id: "s0002", start_ms: 10, end_ms: 15 },
          ],
        },
        ["passed", "failed"],
      ),
    );
    expect(views[0]!.frames).toEqual([{ file: f(0).file, offset_ms: 0, role: "earlier" }]);
    expect(views[1]!.frames.map((x) => x.role)).toEqual(["failure"]);
  });

  test("marks steps whose frames were dropped for redaction", () => {
    const views = stepViews(
      report({ format: "filmstrip/1", dir: "recording", frames: [], steps: [{ id: "s0001", start_ms: 0, end_ms: 5, frames_dropped: "redaction" }] }, [
        "passed",
      ]),
    );
    expect(views[0]).toMatchObject({ dropped: true, frames: [] });
  });

  test("a run without a recording has no frames", () => {
    expect(stepViews(report(undefined)).every((v) => v.frames.length === 0)).toBe(true);
  });
});
