// Runs the driver conformance suite (the form every UI driver is checked on) against the vision
// driver. The bed: the form as a web page (test/fixtures/pages/fixture-form.html) in real
// Chromium, seen only through its screenshots and driven by trusted mouse and key events
// (test/support/page-screen.ts), read by the real OCR engine. No display is needed; the same
// driver on a real X11 window through a remote-desktop viewer is test/e2e/vision.test.ts.
import { afterAll } from "bun:test";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { requireChromium } from "../../test/support/chromium.ts";
import { openPageScreen, type PageScreen } from "../../test/support/page-screen.ts";
import { runDriverConformance } from "../../test/conformance/driver.ts";
import { VISION_FORM_IDS, VISION_GAPS } from "../../test/conformance/surfaces.ts";
import { VisionDriver } from "./driver.ts";
import { OcrEngine } from "./ocr/engine.ts";
import { readModel } from "./ocr/model.ts";

requireChromium();

const FORM = pathToFileURL(join(import.meta.dir, "../../test/fixtures/pages/fixture-form.html")).href;
let bed: Promise<{ page: PageScreen; ocr: OcrEngine }> | undefined;
const opened = () =>
  (bed ??= (async () => {
    const [page, model] = await Promise.all([openPageScreen(), readModel()]);
    return { page, ocr: await OcrEngine.start(model.bytes) };
  })());
afterAll(async () => {
  const b = await bed;
  await b?.ocr.terminate();
  await b?.page.close();
});

runDriverConformance({
  name: "vision (a Chromium page seen only as pixels)",
  launch: async () => {
    const { page, ocr } = await opened();
    await page.show(FORM);
    const driver = new VisionDriver({
      screen: page.screen,
      window: page.window,
      ocr,
      geometry: { x: 0, y: 0, width: 480, height: 360 },
      pinned: true,
    });
    return { driver, close: () => driver.close() };
  },
  ids: VISION_FORM_IDS,
  expectations: VISION_GAPS,
});
