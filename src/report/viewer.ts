// The step-synchronised viewer's model: which frames belong to which step, and what each frame
// shows (before / pointer / after / failure), derived from result.json's recording only. Pure.
import type { RecordingReport, RunReport, StepReport } from "./schema.ts";

export type FrameRole = "before" | "pointer" | "after" | "failure" | "checkpoint" | "earlier";

export interface ViewerFrame {
  readonly file: string;
  readonly offset_ms: number;
  readonly role: FrameRole;
}

export interface StepView {
  readonly step: StepReport;
  readonly frames: readonly ViewerFrame[];
  readonly dropped: boolean;
  /** Why a frame of the step was not kept, when the recorder said. */
  readonly droppedWhy?: string;
}

const failing = (s: StepReport) => s.status === "failed" || s.status === "errored";

/**
 * A step's frames are exactly those whose offset lies in its [start_ms, end_ms]. With two or more,
 * the first is the state before the action, the last the state after (the failure frame for a
 * failing step) and any between are pointer checkpoints. A step with no frame of its own (low
 * detail) shows the latest earlier frame, marked as such.
 */
export function stepViews(report: RunReport): StepView[] {
  const rec: RecordingReport | undefined = report.recording;
  const ranges = new Map((rec?.steps ?? []).map((r) => [r.id, r]));
  return report.steps.map((step) => {
    const range = ranges.get(step.id);
    if (!rec || !range) return { step, frames: [], dropped: false };
    const own = rec.frames.filter((f) => f.offset_ms >= range.start_ms && f.offset_ms <= range.end_ms);
    const dropped = range.frames_dropped === "redaction";
    const why = dropped && range.frames_dropped_why ? { droppedWhy: range.frames_dropped_why } : {};
    if (own.length === 0) {
      const earlier = rec.frames.filter((f) => f.offset_ms < range.start_ms).at(-1);
      return {
        step,
        dropped,
        ...why,
        frames: earlier && step.status !== "skipped" ? [{ file: earlier.file, offset_ms: earlier.offset_ms, role: "earlier" as const }] : [],
      };
    }
    const frames = own.map((f, i): ViewerFrame => {
      const last = i === own.length - 1;
      const role: FrameRole =
        own.length === 1 ? (failing(step) ? "failure" : "checkpoint") : i === 0 ? "before" : last ? (failing(step) ? "failure" : "after") : "pointer";
      return { file: f.file, offset_ms: f.offset_ms, role };
    });
    return { step, frames, dropped, ...why };
  });
}

export const ROLE_LABEL: Readonly<Record<FrameRole, string>> = {
  before: "Before",
  pointer: "Pointer",
  after: "After",
  failure: "Failure",
  checkpoint: "Checkpoint",
  earlier: "Latest earlier frame",
};
