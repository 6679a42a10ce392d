// recording.gif (--video): the persisted, already-redacted keyframes as one animation, 880 px
// wide, each frame shown for the real gap to the next (clamped to stay watchable). Each frame's
// GIF image block is made on its own (in the frame worker, as the frame is written) and the file
// is only concatenated at the end, with the delays filled in once the gaps are known. Pure.
/// <reference path="./gifenc.d.ts" />
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

/**
 * One frame as a GIF image block: graphic control extension (delay left 0, filled in by
 * `assembleGifChunks`), image descriptor, local palette, LZW pixels. 880 px wide.
 */
export function gifFrameChunk(frame: Image): Uint8Array {
  const small = scaleToWidth(frame, GIF_WIDTH_PX);
  // rgb444 buckets over every 8th pixel: plenty for UI screenshots, and quantising stays fast.
  const palette = quantize(everyNthPixel(small.data, 8), 256, { format: "rgb444" });
  const index = applyPalette(small.data, palette, "rgb444");
  const block = GIFEncoder({ auto: false });
  block.writeFrame(index, small.width, small.height, { palette, delay: 0, first: false });
  return block.bytes();
}

// A chunk starts with the graphic control extension: 21 F9 04 <packed> <delay lo> <delay hi> …,
// then the image descriptor 2C <left:2> <top:2> <width:2> <height:2>.
const DELAY_AT = 4;
const WIDTH_AT = 13;

/** Two GIF image blocks with the same bytes (their delays are both still 0): the same picture. */
function samePicture(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The whole GIF (looping forever) from per-frame chunks in timeline order. A frame that shows the
 * same picture as the one before it (an assertion's frame, a step that changed nothing visible) is
 * not repeated: the picture before it stays up for both frames' time.
 */
export function assembleGifChunks(offsetsMs: readonly number[], frameChunks: readonly Uint8Array[]): Uint8Array {
  // A plain Error on purpose: the recorder passes one chunk per frame, so a mismatch is a flowproof bug.
  if (frameChunks.length !== offsetsMs.length) throw new Error(`recording.gif: ${frameChunks.length} frame images for ${offsetsMs.length} frames`);
  const chunks: Uint8Array[] = [];
  const delays: number[] = [];
  gifDelays(offsetsMs).forEach((delay, i) => {
    const chunk = frameChunks[i]!;
    const last = chunks.length - 1;
    if (last >= 0 && samePicture(chunks[last]!, chunk)) delays[last]! += delay;
    else {
      chunks.push(chunk);
      delays.push(delay);
    }
  });
  let width = 1;
  let height = 1;
  for (const c of chunks) {
    width = Math.max(width, c[WIDTH_AT]! | (c[WIDTH_AT + 1]! << 8));
    height = Math.max(height, c[WIDTH_AT + 2]! | (c[WIDTH_AT + 3]! << 8));
  }
  const head = [
    ...Array.from("GIF89a", (ch) => ch.charCodeAt(0)),
    // Logical screen descriptor: size, no global palette (every frame has its own).
    width & 0xff,
    width >> 8,
    height & 0xff,
    height >> 8,
    0x00,
    0x00,
    0x00,
    // NETSCAPE2.0 application extension: loop forever.
    0x21,
    0xff,
    0x0b,
    ...Array.from("NETSCAPE2.0", (ch) => ch.charCodeAt(0)),
    0x03,
    0x01,
    0x00,
    0x00,
    0x00,
  ];
  const total = head.length + chunks.reduce((n, c) => n + c.length, 0) + 1;
  const out = new Uint8Array(total);
  out.set(head, 0);
  let at = head.length;
  for (const [i, chunk] of chunks.entries()) {
    out.set(chunk, at);
    const centis = Math.min(0xffff, Math.round(delays[i]! / 10));
    out[at + DELAY_AT] = centis & 0xff;
    out[at + DELAY_AT + 1] = centis >> 8;
    at += chunk.length;
  }
  out[at] = 0x3b; // trailer
  return out;
}

/** Encodes frames in the given (timeline) order; `load(i)` yields frame i, decoded. */
export async function assembleGif(offsetsMs: readonly number[], load: (index: number) => Image | Promise<Image>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < offsetsMs.length; i++) chunks.push(gifFrameChunk(await load(i)));
  return assembleGifChunks(offsetsMs, chunks);
}

function everyNthPixel(rgba: Uint8Array, n: number): Uint8Array {
  const pixels = Math.floor(rgba.length / 4 / n);
  const out = new Uint32Array(pixels);
  // Whole pixels at a time (an RGBA pixel is one 32-bit word); a misaligned view is copied first.
  const words = rgba.byteOffset % 4 === 0 ? new Uint32Array(rgba.buffer, rgba.byteOffset, rgba.length >> 2) : new Uint32Array(rgba.slice().buffer);
  for (let i = 0; i < pixels; i++) out[i] = words[i * n]!;
  return new Uint8Array(out.buffer);
}
