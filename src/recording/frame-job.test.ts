import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inlineProcessor, processFrame } from "./frame-job.ts";
import { decodePng, encodePng, isUniform, solidImage } from "./image.ts";
import { HALO_RGB } from "./cursor.ts";

let root = "";
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("processFrame", () => {
  test("masks the decoded frame, then draws each overlay variant, and writes one file per variant", async () => {
    root = mkdtempSync(join(tmpdir(), "flowproof-job-"));
    const png = encodePng(solidImage(80, 60, [255, 255, 255]));
    const { frames } = await inlineProcessor.submit({
      root,
      png,
      masks: [{ x: 0, y: 0, width: 80, height: 20 }],
      frames: [
        { offsetMs: 42, marks: undefined },
        { offsetMs: 42, marks: { halos: [{ x: 40, y: 50 }], cursor: { x: 40, y: 50 } } },
      ],
    });
    expect(frames.map((f) => f.offset_ms)).toEqual([42, 42]);
    const [plain, marked] = frames.map((f) => decodePng(readFileSync(join(root, f.file))));
    for (const img of [plain!, marked!]) expect(isUniform(img, { x: 0, y: 0, width: 80, height: 20 }, [0, 0, 0])).toBe(true);
    expect(isUniform(plain!, { x: 0, y: 20, width: 80, height: 40 }, [255, 255, 255])).toBe(true);
    expect(isUniform(marked!, { x: 40 + 25, y: 50, width: 1, height: 1 }, HALO_RGB)).toBe(true);
  });

  test("keeps the source's PNG bytes as they are when there is nothing to paint, and decodes when there is", () => {
    root = mkdtempSync(join(tmpdir(), "flowproof-job-"));
    const png = encodePng(solidImage(8, 6, [1, 2, 3]));
    const [kept] = processFrame({ root, png, masks: [], frames: [{ offsetMs: 5, marks: undefined }] }).frames;
    expect(readFileSync(join(root, kept!.file)).equals(Buffer.from(png))).toBe(true);
    const [masked] = processFrame({ root, png, masks: [{ x: 0, y: 0, width: 8, height: 3 }], frames: [{ offsetMs: 6, marks: undefined }] }).frames;
    expect(isUniform(decodePng(readFileSync(join(root, masked!.file))), { x: 0, y: 0, width: 8, height: 3 }, [0, 0, 0])).toBe(true);
    expect(() => processFrame({ root, png: new Uint8Array([1, 2, 3]), masks: [], frames: [{ offsetMs: 7, marks: undefined }] })).toThrow();
  });

  test("writes nothing for a job without variants", () => {
    root = mkdtempSync(join(tmpdir(), "flowproof-job-"));
    expect(processFrame({ root, png: encodePng(solidImage(2, 2, [0, 0, 0])), masks: [], frames: [] })).toEqual({ frames: [] });
  });

  test("one capture can be several timeline frames: the same picture at each offset, encoded once", async () => {
    root = mkdtempSync(join(tmpdir(), "flowproof-job-"));
    const png = encodePng(solidImage(40, 30, [10, 20, 30]));
    const out = processFrame({
      root,
      png,
      masks: [],
      frames: [
        { offsetMs: 100, marks: undefined },
        { offsetMs: 101, marks: undefined },
      ],
      gif: true,
    });
    expect(out.frames.map((f) => f.offset_ms)).toEqual([100, 101]);
    expect(out.frames[0]!.file.slice(-12)).toBe(out.frames[1]!.file.slice(-12));
    expect(readFileSync(join(root, out.frames[0]!.file)).equals(readFileSync(join(root, out.frames[1]!.file)))).toBe(true);
    expect(out.gif?.length).toBe(2);
    expect(out.gif![0]).toBe(out.gif![1]!);
  });

  test("with --video, a frame with nothing to paint keeps the source's PNG bytes, and an unchanged capture reuses the GIF image", () => {
    root = mkdtempSync(join(tmpdir(), "flowproof-job-"));
    const png = encodePng(solidImage(40, 30, [10, 20, 30]));
    const first = processFrame({ root, png, masks: [], frames: [{ offsetMs: 10, marks: undefined }], gif: true });
    expect(readFileSync(join(root, first.frames[0]!.file)).equals(Buffer.from(png))).toBe(true);
    // A later capture of the same screen: the same bytes, received as a copy.
    const again = processFrame({ root, png: png.slice(), masks: [], frames: [{ offsetMs: 20, marks: undefined }], gif: true });
    expect(again.gif![0]).toBe(first.gif![0]!);
    const other = processFrame({ root, png: encodePng(solidImage(40, 30, [200, 20, 30])), masks: [], frames: [{ offsetMs: 30, marks: undefined }], gif: true });
    expect(other.gif![0]).not.toEqual(first.gif![0]!);
  });
});
