// The vision surface's element backend on its own, over a blank window and a fixed OCR reading:
// OCR lines as text controls, a rung matched the vision way (the start of a line), a miss naming
// what is at the recorded place now, readiness (the text held still), the recorded rung.
import { describe, expect, test } from "bun:test";
import type { Selector } from "../../src/plugins/api.ts";
import type { Found } from "../desktop/backend.ts";
import type { DesktopElement } from "../desktop/element.ts";
import { FakeScreen } from "./fake-screen.ts";
import type { Frame } from "./frame.ts";
import type { OcrWord } from "./ocr/engine.ts";
import { VisionSurface } from "./surface.ts";

const blank = (grey: number): Frame => ({ width: 200, height: 100, rgba: new Uint8Array(200 * 100 * 4).fill(grey) });
/** OCR boxes are in twice-the-size pixels (the window is read at OCR_SCALE 2). */
const word = (text: string, x: number, y: number, width: number): OcrWord => ({
  text,
  confidence: 95,
  box: { x: x * 2, y: y * 2, width: width * 2, height: 20 },
});
const READING = [word("Saved", 10, 10, 30), word("ACME", 44, 10, 24), word("Ltd", 72, 10, 16), word("Save", 10, 40, 24)];
const rung = (text: string, extra: Record<string, unknown> = {}): Selector => ({ tier: "text_anchor", provenance: "rules", payload: { text, ...extra } });

function open() {
  const screen = new FakeScreen(blank(255), "Payments");
  const surface = new VisionSurface({
    screen,
    window: screen.window,
    ocr: { recognize: async (_image, layout) => (layout === "lines" ? [] : READING) },
    geometry: { x: 0, y: 0, width: 200, height: 100 },
    pinned: true,
    sleep: async () => undefined,
  });
  return { screen, surface, backend: surface.backend };
}

const found = (el: DesktopElement, r: Selector): Found => ({
  ok: true,
  el,
  tier: "text_anchor",
  window: { handle: "1", title: "Payments", className: "", pid: 0, visible: true },
  rung: r,
});

describe("VisionSurface's element backend", () => {
  test("OCR lines are text controls; a text names the start of a line, and the control made for it shows the whole line", async () => {
    const { backend } = open();
    const lines = await backend.elements({ handle: "1", title: "Payments", className: "", pid: 0, visible: true });
    expect(lines.map((l) => [l.controlType, l.value])).toEqual([
      ["text", "Saved ACME Ltd"],
      ["text", "Save"],
    ]);
    const saved = backend.matchRung!(lines, rung("Saved"), "any") as DesktopElement[];
    expect(saved.map((e) => [e.rect, e.value])).toEqual([[{ x: 10, y: 10, width: 30, height: 10 }, "Saved ACME Ltd"]]);
    expect((backend.matchRung!(lines, rung("save"), "any") as DesktopElement[]).map((e) => e.rect.y)).toEqual([40]);
    // A field's label whose field the pixels do not show is a miss that says so.
    expect(backend.matchRung!(lines, rung("Save", { role: "field" }), "any")).toMatchObject({
      ok: false,
      failed: "not-found",
      detail: expect.stringMatching(/^"Save" is at 10,40, but /),
    });
    // A css rung is left to the driver's refusal.
    expect(backend.matchRung!(lines, { tier: "native_id", provenance: "rules", payload: { css: "#x" } }, "any")).toBeUndefined();
  });

  test("a miss names what is at the recorded place now; a passing step records the text with its box and the window's size", async () => {
    const { backend } = open();
    const lines = await backend.elements({ handle: "1", title: "Payments", className: "", pid: 0, visible: true });
    expect(backend.missed!([rung("Submit", { box: { x: 10, y: 40, width: 24, height: 10 } })], lines)).toEqual({
      ok: false,
      failed: "not-found",
      detail: 'no text "Submit" in the window (recorded at 10,40, 24×10; the window shows "Save" there now); nearest texts seen: "Saved", "ACME", "Save"',
      retryable: true,
    });
    const [save] = backend.matchRung!(lines, rung("Save"), "any") as DesktopElement[];
    expect(backend.recordedRungs!(found(save!, rung("Save")))).toEqual([
      {
        tier: "text_anchor",
        provenance: "recorder",
        payload: { text: "Save", box: { x: 10, y: 40, width: 24, height: 10 }, window: { width: 200, height: 100 } },
      },
    ]);
  });

  test("a text is ready to be acted on once the pixels around it did not change since it was read", async () => {
    const { screen, backend } = open();
    const lines = await backend.elements({ handle: "1", title: "Payments", className: "", pid: 0, visible: true });
    const [save] = backend.matchRung!(lines, rung("Save"), "any") as DesktopElement[];
    expect(await backend.ready!(found(save!, rung("Save")))).toBeUndefined();
    screen.show(blank(0));
    expect(await backend.ready!(found(save!, rung("Save")))).toMatchObject({ ok: false, failed: "stable", retryable: true });
  });
});
