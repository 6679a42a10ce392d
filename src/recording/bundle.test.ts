import { afterEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FrameBundle, frameFileName } from "./bundle.ts";
import { decodePng, solidImage } from "./image.ts";

let root = "";
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("FrameBundle", () => {
  test("names a frame by its offset and the first 8 hex digits of its sha256", () => {
    const png = new Uint8Array([1, 2, 3]);
    const hash = createHash("sha256").update(png).digest("hex").slice(0, 8);
    expect(frameFileName(1234, png)).toBe(`frame-1234-${hash}.png`);
  });

  test("writes redacted frames under recording/ and the content name matches the bytes", () => {
    root = mkdtempSync(join(tmpdir(), "flowproof-bundle-"));
    const bundle = new FrameBundle(root);
    const a = bundle.writeFrame(0, solidImage(8, 4, [1, 2, 3]));
    const b = bundle.writeFrame(350, solidImage(8, 4, [9, 9, 9]));
    expect(a.file).toMatch(/^recording\/frame-0-[0-9a-f]{8}\.png$/);
    expect(b.offset_ms).toBe(350);
    expect(readdirSync(join(root, "recording")).sort()).toEqual([a.file.slice(10), b.file.slice(10)].sort());
    const bytes = readFileSync(join(root, a.file));
    expect(a.file).toBe(`recording/${frameFileName(0, bytes)}`);
    expect([...decodePng(bytes).data.slice(0, 4)]).toEqual([1, 2, 3, 255]);
  });

  test("writes the GIF at the bundle root", () => {
    root = mkdtempSync(join(tmpdir(), "flowproof-bundle-"));
    expect(new FrameBundle(root).writeGif(new Uint8Array([71, 73, 70]))).toBe("recording.gif");
    expect(readFileSync(join(root, "recording.gif")).toString()).toBe("GIF");
  });
});
