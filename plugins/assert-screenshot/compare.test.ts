import { describe, expect, test } from "bun:test";
import { PNG } from "pngjs";
import { compareImages } from "./compare.ts";

function png(width: number, height: number, paint?: (x: number, y: number) => [number, number, number]): Uint8Array {
  const p = new PNG({ width, height });
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint?.(x, y) ?? [255, 255, 255];
      p.data.set([r, g, b, 255], (y * width + x) * 4);
    }
  return PNG.sync.write(p);
}

describe("compareImages", () => {
  test("counts every differing pixel, exactly", () => {
    const r = compareImages(
      png(10, 10),
      png(10, 10, (x, y) => (x < 2 && y < 5 ? [250, 255, 255] : [255, 255, 255])),
    );
    expect(r).toMatchObject({ kind: "pixels", differing: 10, total: 100, fraction: 0.1 });
  });

  test("identical images differ in no pixel", () => {
    expect(compareImages(png(4, 4), png(4, 4))).toMatchObject({ kind: "pixels", differing: 0 });
  });

  test("reports a size mismatch instead of comparing", () => {
    expect(compareImages(png(4, 4), png(5, 4))).toEqual({ kind: "size", baseline: { width: 4, height: 4 }, actual: { width: 5, height: 4 } });
  });
});
