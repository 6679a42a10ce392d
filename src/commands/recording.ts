// What record and run share about recording an execution: a RunRecorder over the driver's frames,
// the loop observer that feeds it, and the views of its timeline that land in result.json and
// the trace. The recorder's clock is the execution's only clock.
import type { AppDriver } from "../plugins/api.ts";
import type { LoopObserver, StepResult } from "../engine/loop.ts";
import type { RecordingReport } from "../report/schema.ts";
import type { TraceStep } from "../trace/schema.ts";
import { FrameBundle, FRAMES_DIR } from "../recording/bundle.ts";
import { resolveControls, type RecordingControls } from "../recording/controls.ts";
import { driverFrameSource } from "../recording/frame-source.ts";
import { workerProcessor } from "../recording/frame-worker.ts";
import { RunRecorder, type RecorderClock, type RecordingSummary, type StepRange } from "../recording/recorder.ts";
import type { SecretSource } from "../recording/redactor.ts";
import { MIN_SECRET, type ExecutionContext } from "../engine/context.ts";
import { resolveText } from "../engine/templates.ts";

export function createRecorder(
  driver: AppDriver,
  bundleRoot: string,
  controls: RecordingControls,
  rules: readonly unknown[],
  clock: RecorderClock,
  secrets?: SecretSource,
): RunRecorder {
  const source = resolveControls(controls).recordingDetail === "off" ? undefined : driverFrameSource(driver);
  return new RunRecorder({
    source,
    bundle: new FrameBundle(bundleRoot),
    clock,
    controls,
    rules,
    ...(source ? { processor: workerProcessor() } : {}),
    ...(secrets ? { secrets } : {}),
  });
}

/**
 * The execution's secrets as frames see them: every value text outputs redact (as long as they
 * redact one), read when each frame is taken; a rule's `${VAR}` resolved from the environment,
 * its value joining the secrets.
 */
export function frameSecrets(ctx: Pick<ExecutionContext, "env" | "captures" | "secrets">): SecretSource {
  return {
    values: () => [...ctx.secrets.values()].filter((v) => v.length >= MIN_SECRET),
    resolve: (text) => resolveText(text, ctx).value,
  };
}

/** Feeds the recorder from the step loop; `after` runs once the step's frames are taken. */
export function recorderObserver(recorder: RunRecorder, after?: (step: TraceStep, result: StepResult) => void): LoopObserver {
  return {
    stepStarted: (step) => recorder.stepStarted(step),
    stepFinished: async (step, result) => {
      await recorder.stepFinished(step, result);
      after?.(step, result);
    },
  };
}

/** Step timings from the recorder's timeline, so result.json and the frames share one clock. */
export function withTimeline(results: readonly StepResult[], ranges: readonly StepRange[]): StepResult[] {
  const byId = new Map(ranges.map((r) => [r.id, r]));
  return results.map((r) => {
    const range = byId.get(r.id);
    return range ? { ...r, started_ms: range.start_ms, duration_ms: range.end_ms - range.start_ms } : r;
  });
}

/** result.json's `recording`, or undefined when detail is off (no frames were intended). */
export function recordingReport(summary: RecordingSummary, controls: RecordingControls): RecordingReport | undefined {
  if (resolveControls(controls).recordingDetail === "off") return undefined;
  return {
    format: summary.format,
    dir: FRAMES_DIR,
    frames: summary.frames.map((f) => ({ offset_ms: f.offset_ms, file: f.file })),
    steps: summary.steps.map((s) => ({
      id: s.id,
      start_ms: s.start_ms,
      end_ms: s.end_ms,
      ...(s.frames_dropped ? { frames_dropped: s.frames_dropped } : {}),
      ...(s.frames_dropped_why ? { frames_dropped_why: s.frames_dropped_why } : {}),
    })),
    ...(summary.gif ? { gif: summary.gif } : {}),
  };
}

/** Trace steps carrying their `artifacts.recording` range. */
export function stepsWithRanges(steps: readonly TraceStep[], ranges: readonly StepRange[]): TraceStep[] {
  const byId = new Map(ranges.map((r) => [r.id, r]));
  return steps.map((s) => {
    const r = byId.get(s.id);
    if (!r) return s;
    return {
      ...s,
      artifacts: { ...s.artifacts, recording: { start_ms: r.start_ms, end_ms: r.end_ms, ...(r.frames_dropped ? { frames_dropped: r.frames_dropped } : {}) } },
    };
  });
}
