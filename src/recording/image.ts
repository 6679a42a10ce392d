// Decoded frames in memory: PNG decode/encode, solid rectangle fills and downscaling. Pixels
// only: no clock, no disk. Every persisted frame is encoded here after its masks were applied.
import { PNG } from "pngjs";

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

export function decodePng(bytes: Uint8Array): Image {
  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength) };
}

/** Encodes fast (zlib level 1, one filter): frames are written on the step path. */
export function encodePng(image: Image): Uint8Array {
  const png = new PNG({ width: image.width, height: image.height });
  png.data = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  const out = PNG.sync.write(png, { deflateLevel: 1, filterType: 1 });
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
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * sy);
    const y1 = Math.max(y0 + 1, Math.min(image.height, Math.floor((y + 1) * sy)));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor(x * sx);
      const x1 = Math.max(x0 + 1, Math.min(image.width, Math.floor((x + 1) * sx)));
      let r = 0,
        g = 0,
        b = 0,
        n = 0;
      for (let yy = y0; yy < y1; yy++) {
        let i = (yy * image.width + x0) * 4;
        for (let xx = x0; xx < x1; xx++, i += 4) {
          r += src[i]!;
          g += src[i + 1]!;
          b += src[i + 2]!;
          n++;
        }
      }
      const o = (y * width + x) * 4;
      out[o] = r / n;
      out[o + 1] = g / n;
      out[o + 2] = b / n;
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
