// One captured frame's trip to disk: decode, mask, draw the cursor overlay (after the masks),
// encode, write. Runs in the frame worker (or inline); the caller has already decided the frame
// may be kept (every redaction target resolved).
import type { Rect } from "../plugins/api.ts";
import { FrameBundle, type PersistedFrame } from "./bundle.ts";
import { drawMarks, type CursorMarks } from "./cursor.ts";
import { decodePng } from "./image.ts";
import { applyMasks } from "./redactor.ts";

export interface FrameJob {
  readonly root: string;
  readonly offsetMs: number;
  /** The unredacted frame as the source encoded it. Never written as is. */
  readonly png: Uint8Array;
  readonly masks: readonly Rect[];
  /** One persisted frame per entry; undefined marks = no overlay. */
  readonly variants: ReadonlyArray<CursorMarks | undefined>;
}

export function processFrame(job: FrameJob): PersistedFrame[] {
  const image = decodePng(job.png);
  applyMasks(image, job.masks);
  const bundle = new FrameBundle(job.root);
  return job.variants.map((marks, i) => {
    const frame = i === job.variants.length - 1 ? image : { ...image, data: image.data.slice() };
    if (marks) drawMarks(frame, marks);
    return bundle.writeFrame(job.offsetMs, frame);
  });
}

/** Where frame jobs run: on this thread, or on a worker so the step path only waits for the capture. */
export interface FrameProcessor {
  submit(job: FrameJob): Promise<PersistedFrame[]>;
  close(): void;
}

export const inlineProcessor: FrameProcessor = {
  submit: async (job) => processFrame(job),
  close: () => undefined,
};
