// The vision driver over a FakeScreen showing real captures of the Tk form, read by the real OCR
// engine: what it clicks and types, what it records, reads and masks. The same driver on the real
// form through a remote-desktop viewer is test/e2e/vision.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Selector } from "../../src/plugins/api.ts";
import { DesktopDriver } from "../desktop/driver.ts";
import { VisionDriver } from "./driver.ts";
import { FakeScreen } from "./fake-screen.ts";
import { decodeFramePng, type Frame } from "./frame.ts";
import { OcrEngine } from "./ocr/engine.ts";
import { readModel } from "./ocr/model.ts";

const fixture = (name: string) => decodeFramePng(new Uint8Array(readFileSync(join(import.meta.dir, "../../test/fixtures/vision", name))));
const FORM = fixture("form.png");
const SAVED = fixture("form-saved.png");
const t = (text: string, extra: Record<string, unknown> = {}): Selector[] => [{ tier: "text_anchor", provenance: "rules", payload: { text, ...extra } }];
const CLICK = { button: "left", clickCount: 1 } as const;

let ocr: OcrEngine;
beforeAll(async () => {
  ocr = await OcrEngine.start((await readModel()).bytes);
}, 60_000);
afterAll(async () => {
  await ocr?.terminate();
});

function open(frame: Frame = FORM, sleep: (ms: number) => Promise<void> = async () => undefined): { screen: FakeScreen; driver: VisionDriver } {
  const screen = new FakeScreen(frame, "Payments - Fixture");
  const driver = new VisionDriver({
    screen,
    window: screen.window,
    ocr,
    geometry: { x: 0, y: 0, width: 700, height: 480 },
    pinned: true,
    sleep,
  });
  return { screen, driver };
}

describe("VisionDriver actions", () => {
  test("clicks the middle of the text, and records it with its box and the window's size", async () => {
    const { screen, driver } = open();
    expect(await driver.click(t("Save"), CLICK)).toEqual({ ok: true, value: undefined, tier: "text_anchor" });
    expect(screen.inputs).toEqual([{ kind: "click", x: 77, y: 271, button: "left", count: 1 }]);
    expect(await driver.recordedLadder(t("Save"))).toEqual([
      {
        tier: "text_anchor",
        provenance: "recorder",
        payload: { text: "Save", box: { x: 58, y: 265, width: 37, height: 12 }, window: { width: 700, height: 480 } },
      },
      ...t("Save"),
    ]);
    expect(await driver.recordedLadder(t("Save"))).toBeUndefined();
  }, 30_000);

  test("fills a field: clicks into it, selects its line, types, and is done once the field shows the text", async () => {
    const { screen, driver } = open();
    screen.onInput = (input) => {
      if (input.kind === "type") screen.show(SAVED);
    };
    expect(await driver.fill(t("Payee", { role: "field" }), "ACME Ltd")).toMatchObject({ ok: true });
    expect(screen.inputs).toEqual([
      { kind: "click", x: 272, y: 76, button: "left", count: 1 },
      { kind: "key", key: "End", modifiers: [] },
      { kind: "key", key: "Home", modifiers: ["shift"] },
      { kind: "type", text: "ACME Ltd" },
    ]);
    expect((await driver.recordedLadder(t("Payee", { role: "field" })))![0]!.payload).toMatchObject({ field_box: { x: 140, y: 62, width: 264, height: 28 } });
  }, 30_000);

  test("a field that never changes after typing fails the fill (retryably: typing again is safe)", async () => {
    const { driver } = open();
    expect(await driver.fill(t("Token", { role: "field" }), "x")).toMatchObject({ ok: false, failed: "editable", retryable: true });
  }, 30_000);

  test("a secret typed into a masked field is done once the field's pixels changed and held still, not after the whole bound", async () => {
    // The Amount field (140,102 264×28) shows dots after typing: pixels change, the text never shows.
    const dotted: Frame = { ...FORM, rgba: FORM.rgba.slice() };
    for (let x = 150; x < 200; x += 8) for (let y = 112; y < 118; y++) dotted.rgba.fill(0, (y * FORM.width + x) * 4, (y * FORM.width + x) * 4 + 12);
    let slept = 0;
    const { screen, driver } = open(FORM, async (ms) => {
      slept += ms;
    });
    screen.onInput = (input) => {
      if (input.kind === "type") screen.show(dotted);
    };
    expect(await driver.fill(t("Amount", { role: "field" }), "s3cret-Pw", { secret: true })).toMatchObject({ ok: true });
    // Held still for half a second (keystrokes a remote desktop forwards arrive in bursts), not the 3 s bound.
    expect(slept).toBeGreaterThanOrEqual(500);
    expect(slept).toBeLessThan(1_000);
  }, 30_000);

  test("input the screen refuses fails the step with its reason; nothing is sent", async () => {
    const { screen, driver } = open();
    screen.refuse = { ok: false, failed: "receives-pointer", detail: 'window 0x2 "Other" is in front of the window at 77,271' };
    expect(await driver.click(t("Save"), CLICK)).toEqual({
      ok: false,
      failed: "receives-pointer",
      detail: 'window 0x2 "Other" is in front of the window at 77,271',
      retryable: true,
    });
    expect(await driver.pressKey("Enter", [])).toMatchObject({ ok: false, failed: "receives-pointer" });
    expect(screen.inputs).toEqual([]);
  }, 30_000);

  test("an `apps:` block starting on the surface raises the window, or fails naming what holds the keyboard", async () => {
    const { screen, driver } = open();
    expect(await driver.bringToFront()).toEqual({ ok: true, value: undefined });
    screen.refuse = { ok: false, failed: "visible", detail: "another X client holds the keyboard" };
    expect(await driver.bringToFront()).toEqual({ ok: false, failed: "visible", detail: "another X client holds the keyboard", retryable: true });
  }, 30_000);

  test("a target whose pixels change between the reading and the act is not stable yet", async () => {
    const { screen, driver } = open();
    let n = 0;
    screen.capture = async () => (n++ === 0 ? FORM : SAVED);
    expect(await driver.click(t("Save"), CLICK)).toMatchObject({ ok: false, failed: "stable", retryable: true });
    expect(screen.inputs).toEqual([]);
  }, 30_000);

  test("what a vision app cannot do is refused for good", async () => {
    const { driver } = open();
    expect(await driver.navigate("")).toMatchObject({ ok: true });
    expect(await driver.navigate("about:blank")).toMatchObject({ ok: true });
    for (const r of [await driver.navigate("https://x"), await driver.reload(), await driver.select(), await driver.setChecked()])
      expect(r).toMatchObject({ ok: false, failed: "unsupported", retryable: false });
    expect(await driver.click([{ tier: "native_id", provenance: "rules", payload: { css: "#save" } }], CLICK)).toMatchObject({
      ok: false,
      failed: "unsupported",
    });
  }, 30_000);
});

describe("VisionDriver is the one desktop driver over an OCR element backend", () => {
  test("resolution is the desktop driver's: its ambiguity and ordinal messages, over OCR lines matched the vision way", async () => {
    const { screen, driver } = open(SAVED);
    expect(driver).toBeInstanceOf(DesktopDriver);
    expect(driver.backendName).toBe("ocr");
    const ambiguous = await driver.click(t("Pay"), CLICK);
    expect(ambiguous).toMatchObject({ ok: false, failed: "ambiguous", retryable: false });
    expect((ambiguous as { detail: string }).detail).toStartWith(
      '3 controls match: "Pay" at 229,354; "Pay" at 229,394; "Pay" at 229,434; name one with an ordinal',
    );
    expect(await driver.click(t("Pay", { nth: 4 }), CLICK)).toMatchObject({ ok: false, detail: "only 3 controls match, so there is no 4th" });
    expect(screen.inputs).toEqual([]);
  }, 30_000);
});

describe("VisionDriver reads", () => {
  test("checks what the window and a text show, counts in reading order, and lists candidates", async () => {
    const { driver } = open(SAVED);
    expect(await driver.check([], { kind: "text_contains", text: "Saved ACME Ltd, 42.50" })).toMatchObject({ pass: true });
    expect(await driver.check([], { kind: "text_contains", text: "Invoice", count: 3 })).toMatchObject({ pass: true });
    expect(await driver.check([], { kind: "text_absent", text: "Nothing saved" })).toMatchObject({ pass: true });
    // The one page-shows rule of every surface: as written, else ignoring case.
    expect(await driver.check([], { kind: "text_contains", text: "saved acme ltd" })).toMatchObject({ pass: true });
    expect(await driver.check([], { kind: "text_contains", text: "INVOICE", count: 3 })).toMatchObject({ pass: true });
    expect(await driver.check([], { kind: "text_absent", text: "saved acme" })).toMatchObject({ pass: false });
    expect(await driver.check(t("Payee", { role: "field" }), { kind: "text_contains", text: "acme" })).toMatchObject({ pass: true });
    expect(await driver.check([], { kind: "title", op: "contains", value: "Payments" })).toEqual({ pass: true, actual: 'titled "Payments - Fixture"' });
    expect(await driver.check(t("Payee", { role: "field" }), { kind: "text_contains", text: "ACME" })).toMatchObject({ pass: true, actual: '"ACME Ltd"' });
    expect(await driver.check(t("Amount"), { kind: "numeric_equals", value: 42.5 })).toMatchObject({ pass: true });
    expect(await driver.check(t("Token", { role: "field" }), { kind: "empty", empty: true })).toMatchObject({ pass: true });
    expect(await driver.check(t("Pay"), { kind: "count", count: 3 })).toEqual({ pass: true, actual: "3 matching" });
    expect(await driver.check(t("Submit"), { kind: "visible", visible: false })).toEqual({ pass: true, actual: "absent" });
    expect(await driver.check(t("Save"), { kind: "enabled", enabled: true })).toMatchObject({ pass: false, retryable: false });
    const read = await driver.readText(t("Saved"));
    expect(read).toEqual({ ok: true, value: "Saved ACME Ltd, 42.50", tier: "text_anchor" });
    expect(await driver.candidates(t("Pay"))).toEqual([
      { nth: 1, what: '1st "Pay" at 229,354' },
      { nth: 2, what: '2nd "Pay" at 229,394' },
      { nth: 3, what: '3rd "Pay" at 229,434' },
    ]);
    expect(await driver.candidates(t("Pay", { nth: 2 }))).toEqual([]);
    expect(await driver.pointFor(t("Pay", { nth: 2 }))).toEqual({ x: 243, y: 402 });
  }, 30_000);

  test("frames are PNGs, encoded once per distinct picture; the change signal follows the pixels", async () => {
    const { screen, driver } = open();
    const a = await driver.captureFrame();
    expect((await driver.captureFrame()).png).toBe(a.png);
    expect(decodeFramePng(a.png).width).toBe(700);
    expect(await driver.screenChanged()).toBe(true);
    expect(await driver.screenChanged()).toBe(false);
    screen.show(SAVED);
    expect(await driver.screenChanged()).toBe(true);
  }, 30_000);

  test("masks the field a secret was typed into and any line showing it; resolves text rules by OCR; refuses css rules", async () => {
    const { screen, driver } = open();
    screen.onInput = (input) => {
      if (input.kind === "type") screen.show(SAVED);
    };
    await driver.fill(t("Amount", { role: "field" }), "42.50", { secret: true });
    const [secret, password, byText, css] = await driver.rectsFor([{ secretFields: true }, { passwordFields: true }, { text: "ACME" }, { css: "#ssn" }]);
    // The field, then the two lines that show the value: the field's own and the result label.
    expect(secret).toMatchObject({ ok: true, rects: [{ x: 140, y: 102, width: 264, height: 28 }, { x: 141 }, { x: 25 }] });
    expect(password).toEqual({ ok: true, rects: [] });
    expect(byText).toMatchObject({ ok: true, rects: [{ x: 142 }, { x: 27 }] });
    expect(css).toMatchObject({ ok: false });
    expect(JSON.stringify(await driver.scene())).not.toContain("42.50");
    // A secret of the run that was not typed here is masked on every line that shows it.
    const [shownSecret] = await driver.rectsFor([{ secretText: ["acme"] }]);
    expect(shownSecret).toMatchObject({ ok: true, rects: [{ x: 140 }, { x: 25 }] });
  }, 30_000);

  test("the scene a model grounds on is read once the window held still, not from a picture caught while it changed", async () => {
    const { screen, driver } = open();
    // The first capture catches the form before a repaint lands; every later one shows the result.
    let captures = 0;
    screen.capture = async () => (++captures === 1 ? FORM : SAVED);
    const scene = await driver.scene();
    expect(scene.text).toContain("Saved");
    expect(captures).toBeGreaterThanOrEqual(3);
  }, 30_000);

  test("the trace header's facts, the environment, a closed window", async () => {
    const { screen, driver } = open();
    expect(driver.appInfo()).toEqual({
      window_title: "Payments - Fixture",
      platform: "fake",
      geometry: { x: 0, y: 0, width: 700, height: 480 },
      geometry_pinned: true,
      ocr: { engine: "tesseract.js 7", model: "eng 4.0.0_best_int", psm: "sparse text", scale: 2 },
    });
    expect(await driver.environment()).toEqual({ os: "linux", resolution: [1024, 768] });
    expect((await driver.debugSnapshot((s) => s.replace("Vendor", "•"))).anchors[0]).toBe("• payment");
    await screen.close();
    await driver.untilClosed();
    expect(await driver.check([], { kind: "title", op: "contains", value: "x" })).toMatchObject({ pass: false, retryable: false });
  }, 30_000);
});
