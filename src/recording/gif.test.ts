import { describe, expect, test } from "bun:test";
import { assembleGif, gifDelays } from "./gif.ts";
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
