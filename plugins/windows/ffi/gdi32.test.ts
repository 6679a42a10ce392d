// The pure parts of window capture; BitBlt/GetDIBits run against real windows under Wine in test/e2e/wine-bed.test.ts.
import { expect, test } from "bun:test";
import { PNG } from "pngjs";
import { bgraToRgba, bitmapInfo, encodePng } from "./gdi32.ts";

test("BGRA pixels become RGBA with full alpha", () => {
  expect(Array.from(bgraToRgba(new Uint8Array([1, 2, 3, 0, 10, 20, 30, 7])))).toEqual([3, 2, 1, 255, 30, 20, 10, 255]);
});

test("the DIB header asks for 32bpp top-down rows", () => {
  const v = new DataView(bitmapInfo(632, 374).buffer);
  expect([v.getUint32(0, true), v.getInt32(4, true), v.getInt32(8, true), v.getUint16(12, true), v.getUint16(14, true), v.getUint32(16, true)]).toEqual([
    40, 632, -374, 1, 32, 0,
  ]);
});

test("RGBA encodes to a PNG that decodes to the same pixels", () => {
  const rgba = bgraToRgba(new Uint8Array([0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 0, 9, 9, 9, 0]));
  const back = PNG.sync.read(encodePng(2, 2, rgba));
  expect([back.width, back.height]).toEqual([2, 2]);
  expect(Array.from(back.data)).toEqual(Array.from(rgba));
});
