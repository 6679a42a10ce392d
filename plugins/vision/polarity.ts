// One polarity for OCR: light text on dark (a dark theme, a dark toolbar, a remote desktop's black
// surroundings) is inverted in place, so everything the engine sees is dark on light and one
// threshold fits the whole window. Pure.
import type { GreyImage } from "./ocr/engine.ts";

/** Half the side of the square whose mean grey decides a pixel's surroundings. */
export const SURROUND_RADIUS = 12;
/** Surroundings darker than this (mean grey, 0–255) are a dark area: its pixels are inverted. */
export const DARK_MEAN = 100;

/** The image with every pixel whose surroundings are dark inverted (255 − grey); the rest as is. */
export function darkOnLight(image: GreyImage, radius = SURROUND_RADIUS): GreyImage {
  const { width, height, grey } = image;
  // Summed-area table, (width + 1) × (height + 1).
  const w1 = width + 1;
  const sums = new Float64Array(w1 * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += grey[y * width + x]!;
      sums[(y + 1) * w1 + x + 1] = sums[y * w1 + x + 1]! + row;
    }
  }
  let any = false;
  const out = new Uint8Array(grey.length);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - radius);
    const y1 = Math.min(height, y + radius + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - radius);
      const x1 = Math.min(width, x + radius + 1);
      const total = sums[y1 * w1 + x1]! - sums[y0 * w1 + x1]! - sums[y1 * w1 + x0]! + sums[y0 * w1 + x0]!;
      const v = grey[y * width + x]!;
      if (total < DARK_MEAN * (x1 - x0) * (y1 - y0)) {
        out[y * width + x] = 255 - v;
        any = true;
      } else out[y * width + x] = v;
    }
  }
  return any ? { width, height, grey: out } : image;
}
