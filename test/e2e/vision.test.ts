// The vision surface end to end, on real parts: a Tk form on a hidden Xvfb display, served by
// x11vnc and shown by TigerVNC's viewer on a second display (the Citrix/RDP stand-in); the vision
// driver reads the viewer's window with XGetImage and tesseract.js and drives it with XTest. One
// bed for the file. The driver as record and replay use it (the CLI record/replay with traces is
// vision-flows.test.ts), a regressed form, a masked secret.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { payloadOf, type AppDriver, type Selector } from "../../src/plugins/api.ts";
import { driverFrameSource } from "../../src/recording/frame-source.ts";
import { decodePng, encodePng } from "../../src/recording/image.ts";
import { Redactor } from "../../src/recording/redactor.ts";
import { decodeFramePng, frameHash } from "../../plugins/vision/frame.ts";
import { OcrEngine } from "../../plugins/vision/ocr/engine.ts";
import { readModel } from "../../plugins/vision/ocr/model.ts";
import { readScene } from "../../plugins/vision/view.ts";
import { VisionSession } from "../../plugins/vision/session.ts";
import type { VisionDriver } from "../../plugins/vision/driver.ts";
import { systemClock } from "../../src/engine/context.ts";
import { poll } from "../../src/engine/poll.ts";
import { isAlive } from "../support/processes.ts";
import { BED_START_MS, DESKTOP, startVisionBed, VIEWER_TITLE, type VisionBed } from "../support/vision-bed.ts";

const text = (t: string, extra: Record<string, unknown> = {}): Selector[] => [{ tier: "text_anchor", provenance: "rules", payload: { text: t, ...extra } }];
const field = (label: string) => text(label, { role: "field" });
const CLICK = { button: "left", clickCount: 1 } as const;
const CONFIG = { window: { title: "TigerVNC", width: DESKTOP.width, height: DESKTOP.height, x: 0, y: 0 } };
const ctx = { baseDir: process.cwd(), log: () => undefined };

/** The engine owns time: an assertion is polled by the engine's own loop until it holds or its bound passes. */
async function eventually(
  driver: AppDriver,
  ladder: Selector[],
  expectation: Parameters<AppDriver["check"]>[1],
  timeoutMs = 10_000,
): Promise<{ pass: boolean; actual: string }> {
  const r = await poll(systemClock, timeoutMs, async () => {
    const c = await driver.check(ladder, expectation);
    return c.pass ? { done: true, value: c } : { done: false, retryable: true, last: c };
  });
  return r.value;
}

/** `eventually`, asserting it held (the failure shows what was read). */
async function holds(driver: AppDriver, ladder: Selector[], expectation: Parameters<AppDriver["check"]>[1]): Promise<void> {
  const r = await eventually(driver, ladder, expectation);
  expect(r.pass, `${JSON.stringify(expectation)} on ${JSON.stringify(ladder)}: read ${JSON.stringify(r.actual)}`).toBe(true);
}

/** An action retried by the engine's loop while it fails retryably (the engine's auto-wait). */
async function act<T extends { ok: boolean }>(fn: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const r = await poll(systemClock, timeoutMs, async () => {
    const a = await fn();
    return a.ok ? { done: true, value: a } : { done: false, retryable: (a as { retryable?: boolean }).retryable !== false, last: a };
  });
  return r.value;
}

let bed: VisionBed;
let session: VisionSession;
let ocr: OcrEngine;
/** This process's worker threads now (Bun names each "Worker"; the OCR engine runs on one). */
const workerThreads = (): number =>
  readdirSync("/proc/self/task").filter((t) => {
    try {
      return readFileSync(`/proc/self/task/${t}/comm`, "utf8").trim() === "Worker";
    } catch {
      return false; // ended while read
    }
  }).length;

beforeAll(async () => {
  bed = await startVisionBed();
  session = new VisionSession({ display: bed.viewDisplay });
  ocr = await OcrEngine.start((await readModel()).bytes);
}, 4 * BED_START_MS);

afterAll(async () => {
  await session?.close();
  await ocr?.terminate();
  const pids = bed?.pids() ?? [];
  await bed?.stop();
  expect(pids.filter(isAlive)).toEqual([]);
}, 60_000);

describe("reading the viewer's window", () => {
  test("the same window reads the same every time: equal pixels, equal words and boxes", async () => {
    const driver = await session.launch(CONFIG, ctx);
    try {
      const frames = [];
      for (let i = 0; i < 3; i++) frames.push(decodeFramePng((await driver.captureFrame!()).png));
      expect(new Set(frames.map(frameHash)).size).toBe(1);
      expect([frames[0]!.width, frames[0]!.height]).toEqual([DESKTOP.width, DESKTOP.height]);
      const readings = [];
      for (let i = 0; i < 3; i++) readings.push(JSON.stringify((await readScene(ocr, frames[0]!)).lines.map((l) => [l.text, l.box])));
      expect(new Set(readings).size).toBe(1);
      expect((await readScene(ocr, frames[0]!)).text).toContain("Vendor payment");
    } finally {
      await driver.close();
    }
  }, 60_000);

  test("frames and OCR are reused while the pixels are unchanged", async () => {
    const driver = (await session.launch(CONFIG, ctx)) as VisionDriver;
    try {
      expect((await driver.check([], { kind: "text_contains", text: "Invoice 1002" })).pass).toBe(true);
      const before = driver.stats;
      for (let i = 0; i < 3; i++) expect(await driver.count(text("Pay"))).toBe(3);
      expect(driver.stats.ocrRuns).toBe(before.ocrRuns);
      expect(driver.stats.captures).toBe(before.captures + 3);
      expect(await driver.screenChanged!()).toBe(true);
      expect(await driver.screenChanged!()).toBe(false);
    } finally {
      await driver.close();
    }
  }, 60_000);
});

describe("record, then replay, through the remote-desktop viewer", () => {
  const recorded = new Map<string, readonly Selector[]>();

  test("the driver as record uses it: resolves texts and fields, clicks and types, reads the result; ladders carry the box and the window size", async () => {
    const driver = (await session.launch(CONFIG, ctx)) as VisionDriver;
    try {
      expect(driver.appInfo()).toMatchObject({
        window_title: VIEWER_TITLE,
        platform: "x11",
        geometry: { x: 0, y: 0, width: 700, height: 480 },
        geometry_pinned: true,
      });
      const steps: [string, Selector[], () => Promise<{ ok: boolean }>][] = [
        ["payee", field("Payee"), () => driver.fill(field("Payee"), "ACME Ltd")],
        ["amount", field("Amount"), () => driver.fill(field("Amount"), "42.50")],
        ["save", text("Save"), () => driver.click(text("Save"), CLICK)],
      ];
      for (const [name, ladder, run] of steps) {
        const r = await act(run);
        expect(r, name).toMatchObject({ ok: true, tier: "text_anchor" });
        recorded.set(name, (await driver.recordedLadder(ladder))!);
      }
      await holds(driver, [], { kind: "text_contains", text: "Saved ACME Ltd, 42.50" });
      await holds(driver, field("Payee"), { kind: "text_contains", text: "ACME Ltd" });
      const read = await driver.readText(text("Saved"));
      expect(read.ok && read.value).toBe("Saved ACME Ltd, 42.50");
      const save = recorded.get("save")![0]!;
      expect(save).toMatchObject({ tier: "text_anchor", provenance: "recorder", payload: { text: "Save", window: { width: 700, height: 480 } } });
      const box = payloadOf(save, "text_anchor")?.box;
      if (box === undefined) throw new Error("the recorded rung has no box");
      expect(box.x).toBeGreaterThan(24);
      expect(box.x + box.width).toBeLessThan(140);
      expect(recorded.get("payee")![0]!.payload).toMatchObject({ text: "Payee", field_box: { x: 140, y: 62, width: 264, height: 28 } });
      // Ordinals and counts in reading order: three "Pay" buttons, the 3rd is the last invoice's.
      expect(await driver.count(text("Pay"))).toBe(3);
      const ambiguous = await driver.click(text("Pay"), CLICK);
      expect(ambiguous.ok).toBe(false);
      if (!ambiguous.ok) expect({ failed: ambiguous.failed, retryable: ambiguous.retryable }).toEqual({ failed: "ambiguous", retryable: false });
      expect(await act(() => driver.click(text("Pay", { nth: 3 }), CLICK))).toMatchObject({ ok: true });
      await holds(driver, [], { kind: "text_contains", text: "Paid 1003" });
      expect(await act(() => driver.click(text("Clear"), CLICK))).toMatchObject({ ok: true });
      await holds(driver, [], { kind: "text_contains", text: "Nothing saved yet" });
    } finally {
      await driver.close();
    }
  }, 90_000);

  test("the driver as replay uses it: a fresh driver finds the recorded ladders again (the CLI record and replay are in vision-flows.test.ts)", async () => {
    const driver = await session.launch(CONFIG, ctx);
    try {
      expect(await act(() => driver.fill(recorded.get("payee")!, "ACME Ltd"))).toMatchObject({ ok: true });
      expect(await act(() => driver.fill(recorded.get("amount")!, "42.50"))).toMatchObject({ ok: true });
      expect(await act(() => driver.click(recorded.get("save")!, CLICK))).toMatchObject({ ok: true });
      await holds(driver, [], { kind: "text_contains", text: "Saved ACME Ltd, 42.50" });
      expect(await act(() => driver.click(text("Clear"), CLICK))).toMatchObject({ ok: true });
    } finally {
      await driver.close();
    }
  }, 90_000);

  test("a regressed form fails the replay, naming the text expected and the nearest texts seen", async () => {
    await bed.startForm("regressed");
    const driver = await session.launch(CONFIG, ctx);
    try {
      await holds(driver, [], { kind: "text_contains", text: "Submit" });
      const r = await driver.click(recorded.get("save")!, CLICK);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.failed).toBe("not-found");
        expect(r.detail).toMatch(/^no text "Save" in the window \(recorded at \d+,\d+, \d+×\d+; the window shows "Submit" there now\); nearest texts seen: "/);
      }
    } finally {
      await driver.close();
      await bed.startForm("normal");
    }
  }, 90_000);
});

describe("input goes only to the window", () => {
  test("a window over the field is put behind the viewer before the click, so the text lands in the form", async () => {
    const driver = await session.launch(CONFIG, ctx);
    // Over the middle of the Payee field (140,62 264×28), clear of its label and its left edge.
    const uncover = await bed.cover("Covering Window", { x: 250, y: 50, width: 80, height: 50 });
    try {
      expect(await act(() => driver.fill(field("Payee"), "Under cover"))).toMatchObject({ ok: true });
      await holds(driver, field("Payee"), { kind: "text_contains", text: "Under cover" });
      expect(await act(() => driver.click(text("Clear"), CLICK))).toMatchObject({ ok: true });
      await holds(driver, field("Payee"), { kind: "empty", empty: true });
    } finally {
      await uncover();
      await driver.close();
    }
  }, 60_000);

  test("while another program holds the keyboard and pointer (a grab), input fails naming it and nothing is typed", async () => {
    const driver = await session.launch(CONFIG, ctx);
    const release = await bed.cover("Grabbing Menu", { x: 600, y: 600, width: 100, height: 60 }, { grab: true });
    try {
      const r = await driver.fill(field("Payee"), "never typed");
      expect(r).toMatchObject({ ok: false, failed: "visible", retryable: true });
      if (!r.ok) expect(r.detail).toContain("another X client holds the keyboard");
      const k = await driver.pressKey("Tab", []);
      expect(k).toMatchObject({ ok: false, failed: "visible" });
    } finally {
      await release();
    }
    try {
      await holds(driver, field("Payee"), { kind: "empty", empty: true });
      expect((await driver.check([], { kind: "text_absent", text: "never" })).pass).toBe(true);
    } finally {
      await driver.close();
    }
  }, 60_000);
});

describe("evidence", () => {
  test("a secret typed into a field is masked in the frame the recorder keeps", async () => {
    const secret = "hunter2-Secret";
    const driver = await session.launch(CONFIG, ctx);
    try {
      expect(await act(() => driver.fill(field("Token"), secret, { secret: true }))).toMatchObject({ ok: true });
      // The raw frame shows it (so this test can fail)…
      const raw = await driver.captureFrame!();
      expect((await readScene(ocr, decodeFramePng(raw.png))).text).toContain("hunter2");
      // …and the frame the recorder keeps does not: masks resolved before and after the capture.
      const source = driverFrameSource(driver)!;
      const redactor = new Redactor([]);
      const before = await source.resolve(redactor.targets);
      const shot = await source.capture();
      const after = await source.resolve(redactor.targets);
      const image = decodePng(shot.png);
      const outcome = redactor.mask(image, [before, after]);
      expect(outcome).toMatchObject({ ok: true });
      const kept = decodeFramePng(encodePng(image));
      const words = (await readScene(ocr, kept)).text;
      expect(words).not.toContain("hunter2");
      expect(words).toContain("Token");
      // The token field (140,142 264×28) is solid black.
      const o = (156 * kept.width + 200) * 4;
      expect([...kept.rgba.subarray(o, o + 3)]).toEqual([0, 0, 0]);
      // Model authoring never sees it either.
      expect(JSON.stringify(await driver.scene!())).not.toContain("hunter2");
      expect(await act(() => driver.click(text("Clear"), CLICK))).toMatchObject({ ok: true });
    } finally {
      await driver.close();
    }
  }, 60_000);
});

describe("the run's end", () => {
  test("closing the session ends the OCR worker thread", async () => {
    const s = new VisionSession({ display: bed.viewDisplay });
    const before = workerThreads();
    const d = await s.launch(CONFIG, ctx);
    expect((await d.check([], { kind: "text_contains", text: "Vendor" })).pass).toBe(true);
    expect(workerThreads()).toBe(before + 1);
    await s.close();
    expect(workerThreads()).toBe(before);
  }, 60_000);
});
