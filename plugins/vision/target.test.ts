import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Selector } from "../../src/plugins/api.ts";
import { findField } from "./field.ts";
import { decodeFramePng, frameHash } from "./frame.ts";
import { buildScene, type SceneWord } from "./scene.ts";
import { allMatches, anchorOf, atRecordedPlace, missDetail, ordinal, resolveTarget, shownBy } from "./target.ts";
import type { View } from "./view.ts";

const FRAME = decodeFramePng(new Uint8Array(readFileSync(join(import.meta.dir, "../../test/fixtures/vision/form-saved.png"))));
const w = (text: string, x: number, y: number, width: number, height = 12): SceneWord => ({ text, confidence: 95, box: { x, y, width, height } });
// form-saved.png as the scene reads it.
const WORDS = [
  w("Vendor", 26, 22, 90, 20),
  w("payment", 122, 22, 99, 20),
  w("Payee", 27, 69, 47, 15),
  w("ACME", 142, 69, 46),
  w("Ltd", 195, 69, 25),
  w("Amount", 26, 109, 63),
  w("42.50", 142, 109, 45),
  w("Token", 26, 149, 48),
  w("Notes", 27, 189, 45),
  w("Save", 58, 265, 37),
  w("Clear", 183, 265, 41),
  w("Saved", 27, 309, 50),
  w("ACME", 84, 309, 37),
  w("Ltd,", 129, 309, 31),
  w("42.50", 168, 309, 44),
  w("Invoice", 28, 355, 57),
  w("1001", 88, 355, 39),
  w("Pay", 229, 354, 28, 15),
  w("Invoice", 28, 395, 57),
  w("1002", 88, 395, 39),
  w("Pay", 229, 394, 28, 15),
  w("Invoice", 28, 435, 57),
  w("1003", 88, 435, 39),
  w("Pay", 229, 434, 28, 15),
  w("Total", 400, 435, 40),
  w("99", 500, 435, 20),
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
const t = (text: string, extra: Record<string, unknown> = {}): Selector[] => [{ tier: "text_anchor", provenance: "rules", payload: { text, ...extra } }];

describe("resolveTarget", () => {
  test("a text names one place; an ordinal counts in reading order", () => {
    const save = resolveTarget(view, t("Save"), "any");
    expect(save).toMatchObject({ ok: true, box: { x: 58, y: 265 }, text: "Save" });
    expect(resolveTarget(view, t("Pay", { nth: 3 }), "any")).toMatchObject({ ok: true, box: { y: 434 } });
    expect(resolveTarget(view, t("Pay", { nth: 4 }), "any")).toEqual({
      ok: false,
      failed: "not-found",
      detail: '"Pay" appears 3 times, so there is no 4th',
      retryable: true,
    });
  });

  test("several places without an ordinal are ambiguous, for good", () => {
    expect(resolveTarget(view, t("Pay"), "any")).toEqual({
      ok: false,
      failed: "ambiguous",
      retryable: false,
      detail: '3 texts read "Pay" (at 229,354; 229,394; 229,434); name one with an ordinal, in reading order (the 2nd "Pay")',
    });
  });

  test("a field is the input box its label names, with the box's words as what it shows", () => {
    const payee = resolveTarget(view, t("Payee", { role: "field" }), "any");
    expect(payee).toMatchObject({ ok: true, box: { x: 140, y: 62, width: 264, height: 28 }, field: { x: 140, y: 62 } });
    if (payee.ok) expect(shownBy(view, payee)).toBe("ACME Ltd");
    const notes = resolveTarget(view, t("Notes"), "field");
    expect(notes).toMatchObject({ ok: true, box: { x: 24, y: 210 } });
    if (notes.ok) expect(shownBy(view, notes)).toBe("");
    expect(resolveTarget(view, t("Save", { role: "field" }), "any")).toMatchObject({ ok: false, failed: "not-found", retryable: true });
  });

  test("what a text shows: its line, or for a label alone its field or the rest of its row", () => {
    const shown = (text: string) => {
      const r = resolveTarget(view, t(text), "any");
      return r.ok ? shownBy(view, r) : r.detail;
    };
    expect(shown("Saved")).toBe("Saved ACME Ltd, 42.50");
    expect(shown("Amount")).toBe("42.50");
    expect(shown("Total")).toBe("Total 99");
  });

  test("a miss names the text, what is at its recorded place now, and the nearest texts seen", () => {
    const r = resolveTarget(view, t("Sav", { box: { x: 60, y: 266, width: 50, height: 12 } }), "any");
    expect(r).toEqual({
      ok: false,
      failed: "not-found",
      retryable: true,
      detail:
        'no text "Sav" in the window (recorded at 60,266, 50×12; the window shows "Save" there now); nearest texts seen: "Save", "Saved", "Saved ACME Ltd, 42.50"',
    });
    expect(missDetail(buildScene([]), "Save")).toBe('no text "Save" in the window; nearest texts seen: none (the window shows no text)');
    expect(atRecordedPlace(scene, { x: 600, y: 20, width: 10, height: 10 })).toBeUndefined();
  });

  test("the first rung that names anything wins; css and id rungs are refused for good", () => {
    expect(resolveTarget(view, [...t("Nope"), ...t("Clear")], "any")).toMatchObject({ ok: true, text: "Clear" });
    expect(resolveTarget(view, [{ tier: "native_id", provenance: "rules", payload: { css: "#save" } }], "any")).toMatchObject({
      ok: false,
      failed: "unsupported",
      retryable: false,
    });
    expect(resolveTarget(view, [], "any")).toMatchObject({ ok: false, failed: "not-found", retryable: false });
  });

  test("every match, the anchor's parts, ordinals", () => {
    expect(allMatches(view, t("Invoice")).length).toBe(3);
    expect(allMatches(view, t("Nothing"))).toEqual([]);
    expect(anchorOf(t("Pay", { nth: 2, role: "button", box: { x: 1, y: 2, width: 3, height: 4 } })[0]!)).toEqual({
      text: "Pay",
      nth: 2,
      role: "button",
      box: { x: 1, y: 2, width: 3, height: 4 },
    });
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal)).toEqual(["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]);
  });
});
