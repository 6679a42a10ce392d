// One captured frame's trip to disk: decode, mask, draw the cursor overlay (after the masks),
// encode, write — and with --video, the frame's GIF image too, so the GIF is only concatenated
// at the end of the run. Runs in the frame worker (or inline); the caller has already decided
// the frame may be kept (every redaction target resolved).
import type { Rect } from "../plugins/api.ts";
import { FrameBundle, type PersistedFrame } from "./bundle.ts";
import { drawMarks, type CursorMarks } from "./cursor.ts";
import { gifFrameChunk } from "./gif.ts";
import { decodePng, encodePng, type Image } from "./image.ts";
import { applyMasks } from "./redactor.ts";

/** One persisted frame made from the capture: where it sits on the timeline and its overlay. */
export interface FrameVariant {
  readonly offsetMs: number;
  /** Undefined = no overlay. */
  readonly marks: CursorMarks | undefined;
}

export interface FrameJob {
  readonly root: string;
  /** The unredacted frame as the source encoded it. Never written as is. */
  readonly png: Uint8Array;
  readonly masks: readonly Rect[];
  /** One persisted frame per entry, in timeline order. */
  readonly frames: readonly FrameVariant[];
  /** Also encode each frame as a GIF image (--video). */
  readonly gif?: boolean;
}

export interface FrameOutput {
  readonly frames: PersistedFrame[];
  /** With `gif`: one GIF image block per frame, in the same order (see gif.ts). */
  readonly gif?: Uint8Array[];
}

export function processFrame(job: FrameJob): FrameOutput {
  // Nothing to paint: the source's PNG is already the frame to keep (with --video, decoded only
  // for its GIF image, never encoded again).
  if (job.masks.length === 0 && job.frames.every((f) => !f.marks) && isPng(job.png)) {
    const bundle = new FrameBundle(job.root);
    const frames = job.frames.map((v) => bundle.writeEncoded(v.offsetMs, job.png));
    if (!job.gif) return { frames };
    const chunk = gifChunkOf(job.png);
    return { frames, gif: frames.map(() => chunk) };
  }
  const image = decodePng(job.png);
  applyMasks(image, job.masks);
  const bundle = new FrameBundle(job.root);
  // Variants with the same overlay are the same picture: encode it once.
  const made = new Map<string, { png: Uint8Array; gif?: Uint8Array }>();
  const frames: PersistedFrame[] = [];
  const gif: Uint8Array[] = [];
  for (const variant of job.frames) {
    const key = JSON.stringify(variant.marks ?? null);
    let picture = made.get(key);
    if (!picture) {
      const drawn: Image = variant.marks ? { ...image, data: image.data.slice() } : image;
      if (variant.marks) drawMarks(drawn, variant.marks);
      picture = { png: encodePng(drawn), ...(job.gif ? { gif: gifFrameChunk(drawn) } : {}) };
      made.set(key, picture);
    }
    frames.push(bundle.writeEncoded(variant.offsetMs, picture.png));
    if (picture.gif) gif.push(picture.gif);
  }
  return job.gif ? { frames, gif } : { frames };
}

/** The last capture's GIF image: a capture of an unchanged screen (the same PNG bytes) is neither decoded nor encoded again. */
let lastGif: { readonly png: Uint8Array; readonly chunk: Uint8Array } | undefined;

function gifChunkOf(png: Uint8Array): Uint8Array {
  if (lastGif && Buffer.from(lastGif.png.buffer, lastGif.png.byteOffset, lastGif.png.byteLength).equals(png)) return lastGif.chunk;
  const chunk = gifFrameChunk(decodePng(png));
  lastGif = { png, chunk };
  return chunk;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function isPng(bytes: Uint8Array): boolean {
  return bytes.length > PNG_SIGNATURE.length && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

/** Where frame jobs run: on this thread, or on a worker so the step path only waits for the capture. */
export interface FrameProcessor {
  submit(job: FrameJob): Promise<FrameOutput>;
  close(): void;
}

export const inlineProcessor: FrameProcessor = {
  submit: async (job) => processFrame(job),
  close: () => undefined,
};
