// Real OCR: tesseract.js on its worker thread reads the form fixture (a capture of the Tk form).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { captionColumn } from "../captions.ts";
import { decodeFramePng, toGrey, upscaleGrey } from "../frame.ts";
import { encodePgm, OcrEngine, parseTsv, workerPath } from "./engine.ts";
import { readModel } from "./model.ts";

const FORM = decodeFramePng(new Uint8Array(readFileSync(join(import.meta.dir, "../../../test/fixtures/vision/form.png"))));
let engine: OcrEngine;

beforeAll(async () => {
  engine = await OcrEngine.start((await readModel()).bytes);
}, 60_000);
afterAll(async () => {
  await engine?.terminate();
});

describe("OcrEngine", () => {
  test("reads the form's words with their boxes, the same every time", async () => {
    const image = upscaleGrey(toGrey(FORM), 2);
    const first = await engine.recognize(image);
    expect(first.map((w) => w.text)).toEqual([
      "Vendor",
      "payment",
      "Payee",
      "Amount",
      "Token",
      "Notes",
      "Save",
      "Clear",
      "Nothing",
      "saved",
      "yet",
      "Invoice",
      "1001",
      "Pay",
      "Invoice",
      "1002",
      "Pay",
      "Invoice",
      "1003",
      "Pay",
    ]);
    expect(first.find((w) => w.text === "Save")!.box).toMatchObject({ x: 116, y: 530 });
    expect(first.every((w) => w.confidence > 80)).toBe(true);
    expect(await engine.recognize(image)).toEqual(first);
  }, 30_000);

  test("a column of one-line captions is read line by line (lone digits and signs), and sparse reading comes back afterwards", async () => {
    const xcalc = toGrey(decodeFramePng(new Uint8Array(readFileSync(join(import.meta.dir, "../../../test/fixtures/vision/screens/xcalc.png")))));
    // xcalc's `7`, `1` and `+` buttons' faces.
    const { image } = captionColumn(xcalc, [
      { x: 65, y: 280, width: 7, height: 10 },
      { x: 65, y: 340, width: 6, height: 10 },
      { x: 198, y: 343, width: 5, height: 5 },
    ]);
    const form = upscaleGrey(toGrey(FORM), 2);
    const sparse = await engine.recognize(form);
    expect((await engine.recognize(image)).map((w) => w.text)).not.toEqual(["7", "1", "+"]);
    expect((await engine.recognize(image, "lines")).map((w) => w.text)).toEqual(["7", "1", "+"]);
    expect(await engine.recognize(form)).toEqual(sparse);
  }, 60_000);

  test("after terminate the engine refuses work, and terminating again is harmless", async () => {
    const e = await OcrEngine.start((await readModel()).bytes);
    await e.terminate();
    await expect(e.recognize({ width: 1, height: 1, grey: new Uint8Array(1) })).rejects.toThrow("the OCR engine was terminated");
    await e.terminate();
  }, 30_000);

  test("a model that is not one fails the start, and its worker is gone", async () => {
    await expect(OcrEngine.start(new TextEncoder().encode("not a model"))).rejects.toThrow(/^the OCR engine could not start/);
  }, 30_000);
});

describe("OCR wire helpers", () => {
  test("PGM is a P5 header and the grey bytes", () => {
    const pgm = encodePgm({ width: 2, height: 1, grey: new Uint8Array([0, 255]) });
    expect(new TextDecoder().decode(pgm.subarray(0, 11))).toBe("P5\n2 1\n255\n");
    expect([...pgm.subarray(11)]).toEqual([0, 255]);
  });

  test("TSV rows of level 5 with text become words", () => {
    const tsv =
      "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n4\t1\t1\t1\t1\t0\t1\t2\t3\t4\t-1\t\n5\t1\t1\t1\t1\t1\t10\t20\t30\t12\t96.5\tSave\n5\t1\t1\t1\t1\t2\t50\t20\t5\t12\t10\t \n";
    expect(parseTsv(tsv)).toEqual([{ text: "Save", confidence: 96.5, box: { x: 10, y: 20, width: 30, height: 12 } }]);
  });

  test("the worker sits beside the engine from source, under the bundle's root when compiled", () => {
    expect(workerPath("/repo/plugins/vision/ocr")).toBe("/repo/plugins/vision/ocr/worker.ts");
    expect(workerPath("/$bunfs/root")).toBe("/$bunfs/root/plugins/vision/ocr/worker.ts");
  });
});
