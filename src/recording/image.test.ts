import { describe, expect, test } from "bun:test";
import { PNG, type PNGOptions } from "pngjs";
import { clipRect, decodePlainPng, decodePng, encodePng, fillRect, isUniform, scaleToWidth, solidImage } from "./image.ts";

describe("image", () => {
  test("round-trips pixels through PNG encode and decode", () => {
    const image = solidImage(20, 10, [10, 20, 30]);
    fillRect(image, { x: 2, y: 3, width: 4, height: 2 }, [250, 0, 0]);
    const back = decodePng(encodePng(image));
    expect(back.width).toBe(20);
    expect(back.height).toBe(10);
    expect(Buffer.from(back.data).equals(Buffer.from(image.data))).toBe(true);
  });

  test("fills a rectangle clipped to the image and grown to whole pixels", () => {
    const image = solidImage(10, 10, [255, 255, 255]);
    fillRect(image, { x: 7.5, y: -3, width: 10, height: 4.2 }, [0, 0, 0]);
    expect(clipRect(image, { x: 7.5, y: -3, width: 10, height: 4.2 })).toEqual({ x: 7, y: 0, width: 3, height: 2 });
    expect(isUniform(image, { x: 7, y: 0, width: 3, height: 2 }, [0, 0, 0])).toBe(true);
    expect(isUniform(image, { x: 6, y: 0, width: 1, height: 2 }, [255, 255, 255])).toBe(true);
    expect(isUniform(image, { x: 6, y: 0, width: 2, height: 2 }, [0, 0, 0])).toBe(false);
  });

  test("scales to a width keeping the aspect ratio and averaging colours", () => {
    const image = solidImage(1280, 800, [100, 150, 200]);
    const small = scaleToWidth(image, 880);
    expect([small.width, small.height]).toEqual([880, 550]);
    expect([...small.data.slice(0, 4)]).toEqual([100, 150, 200, 255]);
    expect(scaleToWidth(small, 880)).toBe(small);
  });

  test("decodes RGB and RGBA PNGs under every scanline filter exactly as the general decoder does, and hands it the rest", () => {
    // Gradients and noise, so the encoder's adaptive choice uses every filter (None, Sub, Up, Average, Paeth).
    const width = 64;
    const height = 48;
    const data = Buffer.alloc(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      const x = i % width;
      const y = Math.floor(i / width);
      data.set([(x * 4) & 0xff, (y * 5 + x) & 0xff, (x * y * 7919) % 251, 200 + ((x + y) % 56)], i * 4);
    }
    const cases: PNGOptions[] = [
      { colorType: 6, filterType: -1 },
      { colorType: 2, filterType: -1, inputHasAlpha: true },
      ...[0, 1, 2, 3, 4].map((filterType): PNGOptions => ({ colorType: 6, filterType })),
      { colorType: 0, inputHasAlpha: true },
    ];
    for (const options of cases) {
      const png = new PNG({ width, height, ...options });
      png.data = data;
      const bytes = PNG.sync.write(png, options);
      const expected = PNG.sync.read(bytes);
      const got = decodePng(new Uint8Array(bytes));
      expect({ options, size: [got.width, got.height], same: Buffer.from(got.data).equals(expected.data) }).toEqual({
        options,
        size: [width, height],
        same: true,
      });
      // 8-bit RGB(A) takes the fast path; grey goes to the general decoder.
      expect(decodePlainPng(new Uint8Array(bytes)) !== undefined).toBe(options.colorType !== 0);
    }
  });
});
