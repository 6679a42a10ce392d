// Recall on real toolkit screenshots: which of the texts a screenshot must yield the scene of it
// finds as a text anchor (as `Click "…"` would). The screenshots and their texts are committed
// under test/fixtures/vision/screens/ (bench/vision-screens.ts made them); bench/vision-recall.ts
// prints the figures and recall.test.ts holds a floor per screenshot.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { decodeFramePng, type Frame } from "./frame.ts";
import { findText, type Scene } from "./scene.ts";
import { readScene, type TextReader } from "./view.ts";

export const SCREENS_DIR = resolve(import.meta.dir, "../../test/fixtures/vision/screens");

export interface Screenshot {
  readonly file: string;
  readonly program: string;
  readonly texts: readonly string[];
  readonly frame: Frame;
}

/** The committed screenshots with the texts each must yield. */
export function loadScreenshots(dir: string = SCREENS_DIR): Screenshot[] {
  const list = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as Record<string, { program: string; texts: string[] }>;
  return Object.entries(list).map(([file, e]) => ({
    file,
    program: e.program,
    texts: e.texts,
    frame: decodeFramePng(new Uint8Array(readFileSync(join(dir, file)))),
  }));
}

export interface Recall {
  readonly found: readonly string[];
  readonly missed: readonly string[];
  /** found ÷ expected, 0–1. */
  readonly recall: number;
}

/** Pure: which of `texts` the scene finds as an anchor. */
export function recallOf(scene: Scene, texts: readonly string[]): Recall {
  const found = texts.filter((t) => findText(scene, t).length > 0);
  const missed = texts.filter((t) => !found.includes(t));
  return { found, missed, recall: texts.length === 0 ? 1 : found.length / texts.length };
}

/** OCR one screenshot as the driver reads a window, and its recall. */
export async function measure(ocr: TextReader, shot: Screenshot): Promise<Recall & { readonly ms: number }> {
  const t0 = performance.now();
  const scene = await readScene(ocr, shot.frame);
  return { ...recallOf(scene, shot.texts), ms: performance.now() - t0 };
}
