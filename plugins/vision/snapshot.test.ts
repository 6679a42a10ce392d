import { expect, test } from "bun:test";
import { visionSnapshot } from "./snapshot.ts";
import type { View } from "./view.ts";

const line = (text: string, row: number, x: number, y: number) => ({
  text,
  row,
  box: { x, y, width: 10 * text.length, height: 14 },
  words: text.split(" ").map((w) => ({ text: w, confidence: 91.4, box: { x, y, width: 10 * w.length, height: 14 } })),
});

test("the snapshot says what OCR read (lines by row, boxes, word confidences) and each line's field, with secrets redacted", () => {
  const lines = [line("Payee", 0, 20, 60), line("Amount", 1, 20, 100), line("Token s3cret-42", 2, 20, 140)];
  const view: View = {
    hash: "h",
    frame: { width: 700, height: 480, rgba: new Uint8Array(0) },
    scene: { lines, text: lines.map((l) => l.text).join("\n") },
    field: (label) =>
      label.y === 60
        ? { ok: true, box: { x: 140, y: 56, width: 264, height: 28 }, side: "right" }
        : { ok: false, detail: "no input box starts within 240 px right of the label or 48 px below it" },
  };
  const snap = visionSnapshot(view, "Payments", (t) => t.replaceAll("s3cret-42", "${TOKEN}"));
  expect(snap.dom).toBe(
    [
      'window "Payments" 700×480, read by OCR: 3 lines in reading order',
      "row 1:",
      '  line "Payee" at 20,60 50×14 (words: "Payee" 91%)',
      "row 2:",
      '  line "Amount" at 20,100 60×14 (words: "Amount" 91%)',
      "row 3:",
      '  line "Token ${TOKEN}" at 20,140 150×14 (words: "Token" 91%, "${TOKEN}" 91%)',
      'fields (the input box `Type … into the "<line>" field` would use, each line taken as the label):',
      '  "Payee" → box at 140,56 264×28 (right of the label)',
      '  "Amount" → none: no input box starts within 240 px right of the label or 48 px below it',
      '  "Token ${TOKEN}" → none: no input box starts within 240 px right of the label or 48 px below it',
      "",
    ].join("\n"),
  );
  expect(snap.anchors).toEqual(["Payee", "Amount", "Token ${TOKEN}"]);
  expect(snap.dom).not.toContain("s3cret");
});
