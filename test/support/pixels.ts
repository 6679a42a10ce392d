// Reading decoded frames for what must never be seen: test pages draw it in pure red, so a frame
// (PNG) or a GIF that shows it has a red pixel (a red colour in a GIF palette).
import { expect } from "bun:test";
import type { Image } from "../../src/recording/image.ts";

/** Pixels whose colour is the pure red the fixture pages give what must never be seen. */
export function redPixels(image: Image): number {
  let n = 0;
  for (let i = 0; i < image.data.length; i += 4) {
    if (image.data[i]! > 180 && image.data[i + 1]! < 90 && image.data[i + 2]! < 90) n++;
  }
  return n;
}

/**
 * The red colours of every palette of a GIF (global and per frame). A GIF pixel can only take a
 * palette colour, so a GIF with no red in its palettes shows no red pixel.
 */
export function gifRedColours(bytes: Uint8Array): number {
  let red = 0;
  const palette = (at: number, size: number) => {
    for (let i = 0; i < size; i++) if (bytes[at + i * 3]! > 180 && bytes[at + i * 3 + 1]! < 90 && bytes[at + i * 3 + 2]! < 90) red++;
    return at + size * 3;
  };
  const subBlocks = (at: number) => {
    while (bytes[at]! !== 0) at += bytes[at]! + 1;
    return at + 1;
  };
  let at = 13;
  if (bytes[10]! & 0x80) at = palette(at, 2 << (bytes[10]! & 7));
  for (;;) {
    const block = bytes[at];
    if (block === 0x21) at = subBlocks(at + 2);
    else if (block === 0x2c) {
      const packed = bytes[at + 9]!;
      at += 10;
      if (packed & 0x80) at = palette(at, 2 << (packed & 7));
      at = subBlocks(at + 1);
    } else break;
  }
  expect(bytes[at]).toBe(0x3b);
  return red;
}
