// The three execution-time recording controls shared by record and run (CLI, library, MCP), with
// their defaults. Pure: types and constants only.

/** Screenshot density: `full` before/after every step and on failure; `low` initial, every 5th completed step, final; `off` none. */
export type RecordingDetail = "full" | "low" | "off";

export const RECORDING_DETAILS: readonly RecordingDetail[] = ["full", "low", "off"];

export interface RecordingControls {
  /** Default `full`. */
  readonly recordingDetail?: RecordingDetail;
  /** Assemble `recording.gif` from the captured frames. Default false. */
  readonly video?: boolean;
  /** Pre-action checkpoint with a visible cursor and halo for pointer actions. Default false. */
  readonly highlightCursor?: boolean;
}

/** In `low` detail, a frame after every this-many completed steps. */
export const LOW_DETAIL_INTERVAL = 5;

/** The recording format this version writes (keyframe filmstrip; `webm/1` is reserved). */
export const RECORDING_FORMAT = "filmstrip/1" as const;

export function resolveControls(c: RecordingControls): Required<RecordingControls> {
  return { recordingDetail: c.recordingDetail ?? "full", video: c.video ?? false, highlightCursor: c.highlightCursor ?? false };
}
