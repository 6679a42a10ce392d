import { describe, expect, test } from "bun:test";
import type { StepResult } from "../engine/loop.ts";
import type { TraceStep } from "../trace/schema.ts";
import type { RecordingSummary } from "../recording/recorder.ts";
import { frameSecrets, recordingReport, stepsWithRanges, withTimeline } from "./recording.ts";

const summary: RecordingSummary = {
  format: "filmstrip/1",
  frames: [{ offset_ms: 3, file: "recording/frame-3-aaaaaaaa.png" }],
  steps: [
    { id: "s0001", start_ms: 2, end_ms: 40 },
    { id: "s0002", start_ms: 41, end_ms: 41, frames_dropped: "redaction" },
  ],
  gif: "recording.gif",
};

describe("recording views", () => {
  test("step timings come from the recorder's timeline", () => {
    const results: StepResult[] = [
      { id: "s0001", intent: "a", status: "passed", started_ms: 5, duration_ms: 30 },
      { id: "s0002", intent: "b", status: "skipped", started_ms: 39, duration_ms: 0 },
      { id: "s0003", intent: "c", status: "skipped", started_ms: 39, duration_ms: 0 },
    ];
    expect(withTimeline(results, summary.steps).map((r) => [r.started_ms, r.duration_ms])).toEqual([
      [2, 38],
      [41, 0],
      [39, 0],
    ]);
  });

  test("result.json's recording carries frames, ranges and the GIF; off detail has none", () => {
    expect(recordingReport(summary, {})).toEqual({
      format: "filmstrip/1",
      dir: "recording",
      frames: [...summary.frames],
      steps: [...summary.steps],
      gif: "recording.gif",
    });
    expect(recordingReport(summary, { recordingDetail: "off" })).toBeUndefined();
  });

  test("trace steps gain their artifacts.recording range", () => {
    const step = (id: string): TraceStep => ({
      id,
      intent: id,
      action: { type: "press_key", params: { key: "Enter" } },
      selectors: [],
      sync: { pre: [], post: [] },
      artifacts: {},
    });
    expect(stepsWithRanges([step("s0001"), step("s0002")], summary.steps).map((s) => s.artifacts)).toEqual([
      { recording: { start_ms: 2, end_ms: 40 } },
      { recording: { start_ms: 41, end_ms: 41, frames_dropped: "redaction" } },
    ]);
  });
});

describe("frameSecrets", () => {
  test("gives frames every secret text outputs redact, and resolves a rule's ${VAR} into a secret of the run", () => {
    const secrets = new Map([
      ["PIN", "12"],
      ["TOKEN", "tok-9f8e"],
    ]);
    const source = frameSecrets({ env: { ACCOUNT_NO: "ACCT-99" }, captures: new Map(), secrets });
    // A value too short to redact from text is not masked in frames either.
    expect(source.values()).toEqual(["tok-9f8e"]);
    expect(source.resolve("IBAN ${ACCOUNT_NO}")).toBe("IBAN ACCT-99");
    expect(source.values()).toEqual(["tok-9f8e", "ACCT-99"]);
    expect(() => source.resolve("${UNSET_NO}")).toThrow("${UNSET_NO} is not set");
  });
});
