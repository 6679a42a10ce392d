import { describe, expect, test } from "bun:test";
import { colourDiffers, decodeFramePng, encodeFramePng, frameHash, pixelAt, regionHash, toGrey, upscaleGrey, type Frame } from "./frame.ts";

const solid = (width: number, height: number, rgb: [number, number, number]): Frame => {
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) rgba.set([...rgb, 255], i * 4);
  return { width, height, rgba };
};

describe("frame", () => {
  test("equal pixels hash equal; one changed pixel or another size changes the hash", () => {
    const a = solid(4, 3, [10, 20, 30]);
    const b = solid(4, 3, [10, 20, 30]);
    expect(frameHash(a)).toBe(frameHash(b));
    b.rgba[5] = 21;
    expect(frameHash(a)).not.toBe(frameHash(b));
    expect(frameHash(solid(3, 4, [10, 20, 30]))).not.toBe(frameHash(a));
  });

  test("a region's hash sees only the pixels inside it", () => {
    const a = solid(10, 10, [0, 0, 0]);
    const b = solid(10, 10, [0, 0, 0]);
    b.rgba[(9 * 10 + 9) * 4] = 255;
    expect(regionHash(a, { x: 0, y: 0, width: 5, height: 5 })).toBe(regionHash(b, { x: 0, y: 0, width: 5, height: 5 }));
    expect(regionHash(a, { x: 5, y: 5, width: 9, height: 9 })).not.toBe(regionHash(b, { x: 5, y: 5, width: 9, height: 9 }));
    expect(regionHash(a, { x: 20, y: 20, width: 5, height: 5 })).toBe("empty");
  });

  test("grey is BT.601 luma; upscaling replicates each pixel", () => {
    const g = toGrey(solid(2, 1, [255, 0, 0]));
    expect([...g.grey]).toEqual([76, 76]);
    const up = upscaleGrey({ width: 2, height: 1, grey: new Uint8Array([1, 2]) }, 2);
    expect([up.width, up.height, ...up.grey]).toEqual([4, 2, 1, 1, 2, 2, 1, 1, 2, 2]);
  });

  test("PNG round-trips; pixels read as 0xRRGGBB, -1 outside", () => {
    const f = solid(3, 2, [1, 2, 3]);
    const back = decodeFramePng(encodeFramePng(f));
    expect([back.width, back.height]).toEqual([3, 2]);
    expect(frameHash(back)).toBe(frameHash(f));
    expect(pixelAt(f, 2, 1)).toBe(0x010203);
    expect(pixelAt(f, 3, 0)).toBe(-1);
    expect(colourDiffers(0x101010, 0x202020, 24)).toBe(false);
    expect(colourDiffers(0x101010, 0x101040, 24)).toBe(true);
  });
});
