// Pixel comparison of two PNGs with pixelmatch: exact per pixel (anti-aliasing included), the
// differing pixels painted red on a faded copy of the baseline.
import { PNG } from "pngjs";
import pixelmatch from "pixelmatch";

export type Comparison =
  | { readonly kind: "size"; readonly baseline: { width: number; height: number }; readonly actual: { width: number; height: number } }
  | { readonly kind: "pixels"; readonly differing: number; readonly total: number; readonly fraction: number; readonly diff: Uint8Array };

export function compareImages(baselinePng: Uint8Array, actualPng: Uint8Array): Comparison {
  const base = PNG.sync.read(Buffer.from(baselinePng));
  const actual = PNG.sync.read(Buffer.from(actualPng));
  if (base.width !== actual.width || base.height !== actual.height) {
    return { kind: "size", baseline: { width: base.width, height: base.height }, actual: { width: actual.width, height: actual.height } };
  }
  const diff = new PNG({ width: base.width, height: base.height });
  const differing = pixelmatch(base.data, actual.data, diff.data, base.width, base.height, { threshold: 0, includeAA: true, diffColor: [255, 0, 0] });
  const total = base.width * base.height;
  const out = PNG.sync.write(diff);
  return { kind: "pixels", differing, total, fraction: total === 0 ? 0 : differing / total, diff: new Uint8Array(out.buffer, out.byteOffset, out.byteLength) };
}
