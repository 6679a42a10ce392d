import { describe, expect, test } from "bun:test";
import { assembleGif, assembleGifChunks, gifDelays, gifFrameChunk } from "./gif.ts";
import { solidImage, fillRect } from "./image.ts";

/** Frame delays (centiseconds) and the logical screen size, read back from GIF bytes. */
function readGif(bytes: Uint8Array): { width: number; height: number; delaysCs: number[] } {
  const width = bytes[6]! | (bytes[7]! << 8);
  const height = bytes[8]! | (bytes[9]! << 8);
  const delaysCs: number[] = [];
  for (let i = 0; i < bytes.length - 5; i++) {
    if (bytes[i] === 0x21 && bytes[i + 1] === 0xf9 && bytes[i + 2] === 4) delaysCs.push(bytes[i + 4]! | (bytes[i + 5]! << 8));
  }
  return { width, height, delaysCs };
}

describe("gifDelays", () => {
  test("shows each frame for the real gap to the next, clamped to 350–1400 ms, the last for 2000 ms", () => {
    expect(gifDelays([0, 100, 1000, 5000, 5600])).toEqual([350, 900, 1400, 600, 2000]);
  });

  test("a single frame shows for 2000 ms", () => {
    expect(gifDelays([42])).toEqual([2000]);
  });
});

describe("assembleGif", () => {
  test("writes an 880 px wide animation with one frame per keyframe and the clamped delays", async () => {
    const frames = [solidImage(1280, 800, [255, 255, 255]), solidImage(1280, 800, [20, 40, 200])];
    fillRect(frames[1]!, { x: 100, y: 100, width: 300, height: 50 }, [0, 0, 0]);
    const bytes = await assembleGif([0, 700], (i) => frames[i]!);
    expect(new TextDecoder().decode(bytes.slice(0, 6))).toBe("GIF89a");
    const info = readGif(bytes);
    expect([info.width, info.height]).toEqual([880, 550]);
    expect(info.delaysCs).toEqual([70, 200]);
    expect(bytes[bytes.length - 1]).toBe(0x3b);
  });
});

/** Walks every block of a GIF; throws on a malformed one. Returns the image count. */
function walkGif(b: Uint8Array): number {
  let at = 13;
  if (b[10]! & 0x80) at += 3 * (1 << ((b[10]! & 7) + 1));
  let images = 0;
  const subBlocks = () => {
    while (b[at] !== 0) {
      if (at >= b.length) throw new Error("ran off the end");
      at += b[at]! + 1;
    }
    at++;
  };
  for (;;) {
    const tag = b[at];
    if (tag === 0x3b) return at === b.length - 1 ? images : -1;
    if (tag === 0x21) {
      at += 2;
      subBlocks();
    } else if (tag === 0x2c) {
      const packed = b[at + 9]!;
      at += 10;
      if (packed & 0x80) at += 3 * (1 << ((packed & 7) + 1));
      at++; // LZW minimum code size
      subBlocks();
      images++;
    } else throw new Error(`unexpected block 0x${String(tag?.toString(16))} at ${at}`);
  }
}

describe("assembleGifChunks", () => {
  test("concatenates per-frame images made separately into one well-formed looping GIF", () => {
    const a = solidImage(1280, 800, [255, 255, 255]);
    const b = solidImage(1280, 800, [0, 128, 0]);
    fillRect(b, { x: 0, y: 0, width: 640, height: 400 }, [200, 0, 0]);
    const chunkA = gifFrameChunk(a);
    const bytes = assembleGifChunks([0, 500, 3000], [chunkA, gifFrameChunk(b), chunkA]);
    expect(walkGif(bytes)).toBe(3);
    const info = readGif(bytes);
    expect([info.width, info.height]).toEqual([880, 550]);
    expect(info.delaysCs).toEqual([50, 140, 200]);
    expect(new TextDecoder().decode(bytes.slice(16, 27))).toBe("NETSCAPE2.0");
  });

  test("a frame showing the same picture as the one before it is not repeated: the picture stays up for both frames' time", () => {
    const a = solidImage(1280, 800, [255, 255, 255]);
    const b = solidImage(1280, 800, [255, 255, 255]);
    fillRect(b, { x: 100, y: 100, width: 200, height: 40 }, [0, 0, 200]);
    const chunkB = gifFrameChunk(b);
    // The same picture made twice (two captures of an unchanged page) gives the same bytes.
    const bytes = assembleGifChunks([0, 500, 1000, 1400, 3000], [gifFrameChunk(a), chunkB, gifFrameChunk(b), chunkB, gifFrameChunk(a)]);
    expect(walkGif(bytes)).toBe(3);
    expect(readGif(bytes).delaysCs).toEqual([50, 50 + 40 + 140, 200]);
  });

  test("refuses a frame list and an image list of different lengths", () => {
    expect(() => assembleGifChunks([0, 1], [gifFrameChunk(solidImage(4, 4, [0, 0, 0]))])).toThrow("1 frame images for 2 frames");
  });
});
