// A frame: one capture of a window's pixels (RGBA, rows top-down), with the operations the vision
// surface needs on it: a content hash (frames and OCR are reused while it is unchanged), a grey
// copy for OCR, PNG encoding, and reading a pixel. Pure.
import { PNG } from "pngjs";
import type { Rect } from "../../src/plugins/api.ts";

export interface Frame {
  readonly width: number;
  readonly height: number;
  /** width × height × 4 bytes, RGBA. */
  readonly rgba: Uint8Array;
}

/** A hash of the frame's size and pixels: equal hashes mean the window shows the same. */
export function frameHash(frame: Frame): string {
  return `${frame.width}x${frame.height}:${Bun.hash(frame.rgba).toString(16)}`;
}

/** A hash of the pixels inside `rect` (clipped to the frame): whether one region stayed the same. */
export function regionHash(frame: Frame, rect: Rect): string {
  const x0 = Math.max(0, Math.floor(rect.x));
  const y0 = Math.max(0, Math.floor(rect.y));
  const x1 = Math.min(frame.width, Math.ceil(rect.x + rect.width));
  const y1 = Math.min(frame.height, Math.ceil(rect.y + rect.height));
  if (x1 <= x0 || y1 <= y0) return "empty";
  const rows = new Uint8Array((x1 - x0) * 4 * (y1 - y0));
  for (let y = y0; y < y1; y++) rows.set(frame.rgba.subarray((y * frame.width + x0) * 4, (y * frame.width + x1) * 4), (y - y0) * (x1 - x0) * 4);
  return Bun.hash(rows).toString(16);
}

/** ITU-R BT.601 luma, as integers. */
export function toGrey(frame: Frame): { width: number; height: number; grey: Uint8Array } {
  const grey = new Uint8Array(frame.width * frame.height);
  const p = frame.rgba;
  for (let i = 0, o = 0; i < grey.length; i++, o += 4) grey[i] = (299 * p[o]! + 587 * p[o + 1]! + 114 * p[o + 2]! + 500) / 1000;
  return { width: frame.width, height: frame.height, grey };
}

/** A grey image scaled up `factor` times by pixel replication (text stays crisp; OCR reads small UI fonts better). */
export function upscaleGrey(image: { width: number; height: number; grey: Uint8Array }, factor: number): { width: number; height: number; grey: Uint8Array } {
  if (factor === 1) return image;
  const width = image.width * factor;
  const height = image.height * factor;
  const grey = new Uint8Array(width * height);
  const row = new Uint8Array(width);
  for (let y = 0; y < image.height; y++) {
    const src = y * image.width;
    for (let x = 0; x < width; x++) row[x] = image.grey[src + Math.floor(x / factor)]!;
    for (let k = 0; k < factor; k++) grey.set(row, (y * factor + k) * width);
  }
  return { width, height, grey };
}

export function encodeFramePng(frame: Frame): Uint8Array {
  const png = new PNG({ width: frame.width, height: frame.height });
  png.data.set(frame.rgba);
  return new Uint8Array(PNG.sync.write(png));
}

export function decodeFramePng(bytes: Uint8Array): Frame {
  const png = PNG.sync.read(Buffer.from(bytes));
  return { width: png.width, height: png.height, rgba: new Uint8Array(png.data) };
}

/** The pixel at (x, y) as one 24-bit number (0xRRGGBB); -1 outside the frame. */
export function pixelAt(frame: Frame, x: number, y: number): number {
  if (x < 0 || y < 0 || x >= frame.width || y >= frame.height) return -1;
  const o = (y * frame.width + x) * 4;
  return (frame.rgba[o]! << 16) | (frame.rgba[o + 1]! << 8) | frame.rgba[o + 2]!;
}

/** Whether two 0xRRGGBB colours differ by more than `tolerance` in any channel. */
export function colourDiffers(a: number, b: number, tolerance: number): boolean {
  return (
    Math.abs(((a >> 16) & 0xff) - ((b >> 16) & 0xff)) > tolerance ||
    Math.abs(((a >> 8) & 0xff) - ((b >> 8) & 0xff)) > tolerance ||
    Math.abs((a & 0xff) - (b & 0xff)) > tolerance
  );
}
