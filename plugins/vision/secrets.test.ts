import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findField } from "./field.ts";
import { decodeFramePng, frameHash } from "./frame.ts";
import { buildScene, type SceneWord } from "./scene.ts";
import { secretRects, showsSecret } from "./secrets.ts";
import type { View } from "./view.ts";

const FRAME = decodeFramePng(new Uint8Array(readFileSync(join(import.meta.dir, "../../test/fixtures/vision/form.png"))));
const w = (text: string, x: number, y: number, width: number, height = 12): SceneWord => ({ text, confidence: 95, box: { x, y, width, height } });
const viewOf = (words: SceneWord[]): View => {
  const scene = buildScene(words);
  return {
    hash: frameHash(FRAME),
    frame: FRAME,
    scene,
    field: (label) =>
      findField(
        FRAME,
        label,
        scene.lines.map((l) => l.box),
      ),
  };
};

describe("secretRects", () => {
  test("masks the field a secret was typed into, where it was and where its label's field is now", () => {
    const view = viewOf([w("Token", 26, 149, 48), w("Amount", 26, 109, 63)]);
    const typedAt = { x: 140, y: 142, width: 264, height: 28 };
    expect(secretRects(view, [{ anchor: "Token", box: typedAt }], [])).toEqual([typedAt]);
    const moved = { x: 140, y: 100, width: 264, height: 28 };
    expect(secretRects(view, [{ anchor: "Token", box: moved }], [])).toEqual([moved, typedAt]);
  });

  test("masks every line that shows a typed secret, misread or not, with a margin", () => {
    const view = viewOf([w("Saved", 27, 309, 50), w("hunter2-Secrel", 84, 309, 120), w("Pay", 229, 354, 28, 15)]);
    expect(secretRects(view, [], ["hunter2-Secret"])).toEqual([{ x: 25, y: 307, width: 181, height: 16 }]);
    expect(showsSecret("Pay", ["hunter2-Secret"])).toBe(false);
    // A page that shows the secret in capitals (text-transform, an echo) shows it all the same.
    expect(showsSecret("Echo: HUNTER2-SECRET", ["hunter2-Secret"])).toBe(true);
    expect(secretRects(view, [], [])).toEqual([]);
  });
});
