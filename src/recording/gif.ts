// recording.gif (--video): the persisted, already-redacted keyframes as one animation, 880 px
// wide, each frame shown for the real gap to the next (clamped to stay watchable). Pure apart
// from the frame loader the caller passes.
import { GIFEncoder, applyPalette, quantize } from "gifenc";
import { scaleToWidth, type Image } from "./image.ts";

export const GIF_WIDTH_PX = 880;
export const GIF_MIN_FRAME_MS = 350;
export const GIF_MAX_FRAME_MS = 1400;
export const GIF_LAST_FRAME_MS = 2000;

/** How long each frame shows: the gap to the next frame clamped to 350–1400 ms; the last 2000 ms. */
export function gifDelays(offsetsMs: readonly number[]): number[] {
  return offsetsMs.map((t, i) => {
    const next = offsetsMs[i + 1];
    if (next === undefined) return GIF_LAST_FRAME_MS;
    return Math.min(GIF_MAX_FRAME_MS, Math.max(GIF_MIN_FRAME_MS, next - t));
  });
}

/** Encodes frames in the given (timeline) order; `load(i)` yields frame i, decoded. */
export async function assembleGif(offsetsMs: readonly number[], load: (index: number) => Image | Promise<Image>): Promise<Uint8Array> {
  const delays = gifDelays(offsetsMs);
  const gif = GIFEncoder();
  for (let i = 0; i < offsetsMs.length; i++) {
    const small = scaleToWidth(await load(i), GIF_WIDTH_PX);
    // rgb444 buckets over every 4th pixel: plenty for UI screenshots, and quantising stays fast.
    const palette = quantize(everyNthPixel(small.data, 4), 256, { format: "rgb444" });
    const index = applyPalette(small.data, palette, "rgb444");
    gif.writeFrame(index, small.width, small.height, { palette, delay: delays[i]!, ...(i === 0 ? { repeat: 0 } : {}) });
  }
  gif.finish();
  return gif.bytes();
}

function everyNthPixel(rgba: Uint8Array, n: number): Uint8Array {
  const pixels = Math.floor(rgba.length / 4 / n);
  const out = new Uint8Array(pixels * 4);
  for (let i = 0; i < pixels; i++) out.set(rgba.subarray(i * n * 4, i * n * 4 + 4), i * 4);
  return out;
}
