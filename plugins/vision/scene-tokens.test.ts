import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findField } from "./field.ts";
import { decodeFramePng, frameHash } from "./frame.ts";
import { buildScene, type SceneWord } from "./scene.ts";
import { sceneInventory } from "./scene-tokens.ts";
import type { View } from "./view.ts";

const FRAME = decodeFramePng(new Uint8Array(readFileSync(join(import.meta.dir, "../../test/fixtures/vision/form-saved.png"))));
const w = (text: string, x: number, y: number, width: number, height = 12): SceneWord => ({ text, confidence: 95, box: { x, y, width, height } });
const WORDS = [
  w("Payee", 27, 69, 47, 15),
  w("ACME", 142, 69, 46),
  w("Ltd", 195, 69, 25),
  w("Amount", 26, 109, 63),
  w("42.50", 142, 109, 45),
  w("Token", 26, 149, 48),
  w("s3cret-value", 142, 149, 100),
  w("Save", 58, 265, 37),
  w("Pay", 229, 354, 28, 15),
  w("Pay", 229, 394, 28, 15),
];
const scene = buildScene(WORDS);
const view: View = {
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

describe("sceneInventory", () => {
  test("lists fields first with their contents, then texts once each with a count; never a typed secret", () => {
    const inv = sceneInventory(view, "Payments", ["s3cret-value"], [{ anchor: "Token", box: { x: 140, y: 142, width: 264, height: 28 } }]);
    expect(inv.entries).toEqual([
      { target: "text:Payee", tag: "field", type: "text", actionable: true, label: "Payee", value: "ACME Ltd" },
      { target: "text:Amount", tag: "field", type: "text", actionable: true, label: "Amount", value: "42.50" },
      { target: "text:Token", tag: "field", type: "text", actionable: true, label: "Token" },
      { target: "text:Save", tag: "text", actionable: true, text: "Save" },
      { target: "text:Pay", tag: "text", actionable: true, text: "Pay", count: 2 },
    ]);
    expect(inv).toMatchObject({ url: "", title: "Payments", loaded: true, omitted: 0 });
    expect(inv.text).toBe("Payee ACME Ltd Amount 42.50 Token Save Pay Pay");
    expect(JSON.stringify(inv)).not.toContain("s3cret");
  });
});
