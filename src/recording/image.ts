// Decoded frames in memory: PNG decode/encode, solid rectangle fills and downscaling. Pixels
// only: no clock, no disk. Every persisted frame is encoded here after its masks were applied.
import { inflateSync } from "node:zlib";
import type { PNG as PngClass } from "pngjs";

/** An RGBA image, 8 bits per channel, rows top to bottom. */
export interface Image {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

/** A rectangle in image pixels, origin top-left. */
export interface PixelRect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export type Rgb = readonly [number, number, number];

/** The general PNG codec, loaded on first use (a `require` the single-file build bundles): a run whose frames all decode on the fast path and are kept as captured never needs it. */
let pngjs: typeof PngClass | undefined;
const PNG = (): typeof PngClass => (pngjs ??= (require("pngjs") as { PNG: typeof PngClass }).PNG);

export function decodePng(bytes: Uint8Array): Image {
  const fast = decodePlainPng(bytes);
  if (fast) return fast;
  const png = PNG().sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength) };
}

/**
 * The PNGs Chromium captures (8-bit RGB or RGBA, not interlaced) decoded here: one native inflate
 * and a typed-array unfilter, several times faster than the general decoder. Anything else
 * (palettes, 16 bits, grey, interlacing, a damaged file) is undefined, for the general decoder.
 */
export function decodePlainPng(bytes: Uint8Array): Image | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 33 || view.getUint32(0) !== 0x89504e47 || view.getUint32(12) !== 0x49484452) return undefined;
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  const [depth, colour, , , interlace] = [bytes[24], bytes[25], bytes[26], bytes[27], bytes[28]];
  const channels = colour === 6 ? 4 : colour === 2 ? 3 : 0;
  if (depth !== 8 || channels === 0 || interlace !== 0 || width === 0 || height === 0) return undefined;
  const parts: Uint8Array[] = [];
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = view.getUint32(at);
    const type = view.getUint32(at + 4);
    if (at + 12 + length > bytes.length) return undefined;
    if (type === 0x49444154) parts.push(bytes.subarray(at + 8, at + 8 + length)); // IDAT
    if (type === 0x49454e44) break; // IEND
    at += 12 + length;
  }
  let raw: Uint8Array;
  try {
    raw = inflateSync(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
  } catch {
    return undefined;
  }
  const stride = width * channels;
  if (raw.length < (stride + 1) * height) return undefined;
  const out = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  let line = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    if (!unfilter(filter, src, line, prev, channels)) return undefined;
    let o = y * width * 4;
    if (channels === 4) {
      out.set(line, o);
    } else {
      for (let i = 0; i < stride; i += 3, o += 4) {
        out[o] = line[i]!;
        out[o + 1] = line[i + 1]!;
        out[o + 2] = line[i + 2]!;
        out[o + 3] = 255;
      }
    }
    [prev, line] = [line, prev];
  }
  return { width, height, data: out };
}

/** Undoes one scanline's PNG filter into `line`; false for an unknown filter. */
function unfilter(filter: number, src: Uint8Array, line: Uint8Array, prev: Uint8Array, bpp: number): boolean {
  const n = src.length;
  switch (filter) {
    case 0:
      line.set(src);
      return true;
    case 1:
      for (let i = 0; i < n; i++) line[i] = (src[i]! + (i >= bpp ? line[i - bpp]! : 0)) & 0xff;
      return true;
    case 2:
      for (let i = 0; i < n; i++) line[i] = (src[i]! + prev[i]!) & 0xff;
      return true;
    case 3:
      for (let i = 0; i < n; i++) line[i] = (src[i]! + (((i >= bpp ? line[i - bpp]! : 0) + prev[i]!) >> 1)) & 0xff;
      return true;
    case 4:
      for (let i = 0; i < n; i++) {
        const a = i >= bpp ? line[i - bpp]! : 0;
        const b = prev[i]!;
        const c = i >= bpp ? prev[i - bpp]! : 0;
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        line[i] = (src[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 0xff;
      }
      return true;
    default:
      return false;
  }
}

/** Encodes fast (zlib level 1, one filter): frames are written on the step path. */
export function encodePng(image: Image): Uint8Array {
  const png = new (PNG())({ width: image.width, height: image.height });
  png.data = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  const out = PNG().sync.write(png, { deflateLevel: 1, filterType: 1 });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** The part of `rect` inside the image, with whole-pixel edges grown outwards (never shrunk). */
export function clipRect(image: Pick<Image, "width" | "height">, rect: PixelRect): PixelRect | undefined {
  const x0 = Math.max(0, Math.floor(rect.x));
  const y0 = Math.max(0, Math.floor(rect.y));
  const x1 = Math.min(image.width, Math.ceil(rect.x + rect.width));
  const y1 = Math.min(image.height, Math.ceil(rect.y + rect.height));
  if (x1 <= x0 || y1 <= y0) return undefined;
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Fills `rect` (clipped to the image) with an opaque colour, in place. */
export function fillRect(image: Image, rect: PixelRect, rgb: Rgb): void {
  const r = clipRect(image, rect);
  if (!r) return;
  const { data, width } = image;
  for (let y = r.y; y < r.y + r.height; y++) {
    let i = (y * width + r.x) * 4;
    for (let x = 0; x < r.width; x++, i += 4) {
      data[i] = rgb[0];
      data[i + 1] = rgb[1];
      data[i + 2] = rgb[2];
      data[i + 3] = 255;
    }
  }
}

/** True when every pixel of `rect` has exactly the colour `rgb` (alpha ignored). */
export function isUniform(image: Image, rect: PixelRect, rgb: Rgb): boolean {
  const r = clipRect(image, rect);
  if (!r) return true;
  const { data, width } = image;
  for (let y = r.y; y < r.y + r.height; y++) {
    let i = (y * width + r.x) * 4;
    for (let x = 0; x < r.width; x++, i += 4) {
      if (data[i] !== rgb[0] || data[i + 1] !== rgb[1] || data[i + 2] !== rgb[2]) return false;
    }
  }
  return true;
}

/** Box-filtered downscale to `width` (aspect kept); an image already that narrow is returned as is. */
export function scaleToWidth(image: Image, width: number): Image {
  if (image.width <= width) return image;
  const height = Math.max(1, Math.round((image.height * width) / image.width));
  const out = new Uint8Array(width * height * 4);
  const sx = image.width / width;
  const sy = image.height / height;
  const src = image.data;
  // Each output column's source span, computed once for every row.
  const xs0 = new Int32Array(width);
  const xs1 = new Int32Array(width);
  for (let x = 0; x < width; x++) {
    xs0[x] = Math.floor(x * sx);
    xs1[x] = Math.max(xs0[x]! + 1, Math.min(image.width, Math.floor((x + 1) * sx)));
  }
  const sums = new Float64Array(width * 3);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * sy);
    const y1 = Math.max(y0 + 1, Math.min(image.height, Math.floor((y + 1) * sy)));
    sums.fill(0);
    for (let yy = y0; yy < y1; yy++) {
      const row = yy * image.width * 4;
      for (let x = 0; x < width; x++) {
        let r = 0;
        let g = 0;
        let b = 0;
        for (let i = row + xs0[x]! * 4, end = row + xs1[x]! * 4; i < end; i += 4) {
          r += src[i]!;
          g += src[i + 1]!;
          b += src[i + 2]!;
        }
        sums[x * 3] = sums[x * 3]! + r;
        sums[x * 3 + 1] = sums[x * 3 + 1]! + g;
        sums[x * 3 + 2] = sums[x * 3 + 2]! + b;
      }
    }
    const rows = y1 - y0;
    for (let x = 0, o = y * width * 4; x < width; x++, o += 4) {
      const n = rows * (xs1[x]! - xs0[x]!);
      out[o] = sums[x * 3]! / n;
      out[o + 1] = sums[x * 3 + 1]! / n;
      out[o + 2] = sums[x * 3 + 2]! / n;
      out[o + 3] = 255;
    }
  }
  return { width, height, data: out };
}

/** A blank opaque image of one colour (tests, placeholders). */
export function solidImage(width: number, height: number, rgb: Rgb): Image {
  const image = { width, height, data: new Uint8Array(width * height * 4) };
  fillRect(image, { x: 0, y: 0, width, height }, rgb);
  return image;
}
