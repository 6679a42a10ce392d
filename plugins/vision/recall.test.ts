// Real OCR over the committed real-toolkit screenshots (test/fixtures/vision/screens/): each must
// keep its recall floor, so a change that reads real screens worse fails here.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { OcrEngine } from "./ocr/engine.ts";
import { readModel } from "./ocr/model.ts";
import { loadScreenshots, measure, recallOf } from "./recall.ts";
import { buildScene } from "./scene.ts";

/** Recall floors (found ÷ expected texts); bench/README.md has the measured figures. */
const FLOORS: Record<string, number> = {
  "gtk-form.png": 1,
  "gtk-form-black.png": 1,
  "gtk-dark.png": 1,
  "xcalc.png": 0.85,
  "tk-list.png": 1,
  "wine-about.png": 0.75,
};
/** Texts that must be among those found (the ones real flows stumbled on). */
const MUST: Record<string, string[]> = {
  "gtk-form.png": ["Name", "Amount"],
  "gtk-form-black.png": ["Name", "Amount", "OK"],
  "xcalc.png": ["1", "2", "7", "+", "=", "0"],
};
/** All six screenshots, on a busy 2-core machine (about 3 s idle). */
const BOUND_MS = 90_000;

let engine: OcrEngine;
beforeAll(async () => {
  engine = await OcrEngine.start((await readModel()).bytes);
}, 60_000);
afterAll(async () => {
  await engine?.terminate();
});

describe("recallOf", () => {
  test("counts the expected texts the scene finds as anchors", () => {
    const word = (text: string, x: number) => ({ text, confidence: 90, box: { x, y: 10, width: 30, height: 10 } });
    const scene = buildScene([word("Name", 10), word("OK", 200)]);
    expect(recallOf(scene, ["Name", "ok", "Amount", "+"])).toEqual({ found: ["Name", "ok"], missed: ["Amount", "+"], recall: 0.5 });
  });
});

describe("recall on real toolkit screenshots", () => {
  const shots = loadScreenshots();
  test("the screenshots are committed with their texts", () => {
    expect(shots.map((s) => s.file).sort()).toEqual(Object.keys(FLOORS).sort());
  });

  test(
    "each screenshot keeps its recall floor",
    async () => {
      const t0 = performance.now();
      const below: string[] = [];
      for (const shot of shots) {
        const r = await measure(engine, shot);
        if (r.recall < FLOORS[shot.file]!) below.push(`${shot.file}: ${r.found.length}/${shot.texts.length}, missed ${r.missed.join(" ")}`);
        for (const t of MUST[shot.file] ?? []) if (!r.found.includes(t)) below.push(`${shot.file}: "${t}" not found`);
      }
      expect(below).toEqual([]);
      expect(performance.now() - t0).toBeLessThan(BOUND_MS);
    },
    BOUND_MS + 30_000,
  );
});
