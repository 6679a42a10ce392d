import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { workerProcessor } from "./frame-worker.ts";
import { processFrame } from "./frame-job.ts";
import { encodePng, solidImage } from "./image.ts";

let roots: string[] = [];
afterEach(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
  roots = [];
});

describe("workerProcessor", () => {
  test("writes the same redacted frames on a worker thread as inline, in submission order", async () => {
    const [a, b] = [mkdtempSync(join(tmpdir(), "flowproof-w-")), mkdtempSync(join(tmpdir(), "flowproof-w-"))];
    roots.push(a!, b!);
    const job = (root: string, n: number) => ({
      root,
      png: encodePng(solidImage(40, 30, [n, 100, 200])),
      masks: [{ x: 5, y: 5, width: 10, height: 10 }],
      frames: [{ offsetMs: n * 10, marks: undefined }],
    });
    const processor = workerProcessor();
    try {
      const viaWorker = await Promise.all([1, 2, 3].map((n) => processor.submit(job(a!, n))));
      const inline = [1, 2, 3].map((n) => processFrame(job(b!, n)));
      expect(viaWorker.map((o) => o.frames.map((x) => x.file))).toEqual(inline.map((o) => o.frames.map((x) => x.file)));
      expect(readFileSync(join(a!, viaWorker[0]!.frames[0]!.file)).equals(readFileSync(join(b!, inline[0]!.frames[0]!.file)))).toBe(true);
    } finally {
      processor.close();
    }
  });

  test("falls back to this thread when the worker cannot start", async () => {
    const root = mkdtempSync(join(tmpdir(), "flowproof-w-"));
    roots.push(root);
    const processor = workerProcessor(new URL("./no-such-worker.ts", import.meta.url).href);
    try {
      const { frames } = await processor.submit({ root, png: encodePng(solidImage(8, 8, [1, 2, 3])), masks: [], frames: [{ offsetMs: 7, marks: undefined }] });
      expect(frames.map((f) => f.offset_ms)).toEqual([7]);
      expect(readFileSync(join(root, frames[0]!.file)).length).toBeGreaterThan(0);
    } finally {
      processor.close();
    }
  });

  test("reports a job that cannot be written as a rejected promise", async () => {
    const processor = workerProcessor();
    try {
      await expect(
        processor.submit({ root: "/dev/null/flowproof", png: new Uint8Array([1, 2, 3]), masks: [], frames: [{ offsetMs: 0, marks: undefined }] }),
      ).rejects.toThrow("could not write a recording frame");
    } finally {
      processor.close();
    }
  });
});
