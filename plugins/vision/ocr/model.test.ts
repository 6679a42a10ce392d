import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chooseModel, MODEL_ENV, modelFileIn, modelPlaces, readModel } from "./model.ts";

describe("finding the OCR model", () => {
  test("the bundled model comes first, then the folder beside the executable", async () => {
    const places = await modelPlaces({}, "/opt/flowproof/flowproof");
    expect(places.map((p) => p.label)).toEqual(["the bundled model", "beside the executable"]);
    expect(places[1]).toEqual({ label: "beside the executable", path: "/opt/flowproof/flowproof-ocr/eng.traineddata.gz" });
    const { path, bytes } = await readModel({});
    expect(path).toEndWith("eng.traineddata.gz");
    expect(bytes.length).toBeGreaterThan(1_000_000);
  });

  test("FLOWPROOF_OCR_MODEL is the only place looked in when set: a file, or a folder holding one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "flowproof-model-"));
    try {
      writeFileSync(join(dir, "eng.traineddata"), "model");
      expect(modelFileIn(dir)).toBe(join(dir, "eng.traineddata"));
      expect(await readModel({ [MODEL_ENV]: dir })).toEqual({ path: join(dir, "eng.traineddata"), bytes: new TextEncoder().encode("model") });
      const missing = join(dir, "nope.gz");
      await expect(readModel({ [MODEL_ENV]: missing })).rejects.toThrow(`no OCR model found; looked in: ${MODEL_ENV} (${missing}: not there)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a model that is nowhere is an error naming every place and why, and how to fix it", () => {
    let error: unknown;
    try {
      chooseModel(
        [
          { label: "the bundled model", problem: "the @tesseract.js-data/eng package is not installed" },
          { label: "beside the executable", path: "/x/flowproof-ocr/eng.traineddata.gz" },
        ],
        () => false,
      );
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({
      code: "no-ocr-model",
      message:
        "no OCR model found; looked in: the bundled model (the @tesseract.js-data/eng package is not installed); beside the executable (/x/flowproof-ocr/eng.traineddata.gz: not there)",
    });
    expect((error as { diagnostics: { hint: string }[] }).diagnostics[0]!.hint).toContain(MODEL_ENV);
  });
});
