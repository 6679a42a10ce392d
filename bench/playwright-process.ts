// One whole Playwright process for bench/whole-process.ts: launch Chromium, open a context at
// flowproof's viewport, load the start page, run the 30 steps of playwright-steps.ts, close.
// The bench bundles this file for Node (playwright-core external) and runs it with `node`, the
// runtime Playwright scripts run on. Plain Node APIs only.
//
//   node playwright-process.cjs <bare|tracing|video> <chromium> <start url> <output dir>
//
// tracing: context.tracing with screenshots and snapshots, written to <output dir>/trace.zip.
// video: recordVideo at 1280×800 into <output dir> (WebM, written when the context closes).
// Exits 0 after closing the browser, 1 when a step fails (the message names it).
import { join } from "node:path";
import { chromium } from "playwright-core";
import { STEPS } from "./playwright-steps.ts";

/** The flags the in-process bench gives Playwright (replay-vs-playwright.ts). */
const CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];
const VIEWPORT = { width: 1280, height: 800 } as const;

async function main(): Promise<number> {
  const [mode, executablePath, url, outDir] = process.argv.slice(2);
  if (!(mode === "bare" || mode === "tracing" || mode === "video") || !executablePath || !url || !outDir) {
    console.error("usage: playwright-process <bare|tracing|video> <chromium> <start url> <output dir>");
    return 2;
  }
  const browser = await chromium.launch({ executablePath, args: CHROME_ARGS });
  try {
    const context = await browser.newContext({ viewport: VIEWPORT, ...(mode === "video" ? { recordVideo: { dir: outDir, size: VIEWPORT } } : {}) });
    if (mode === "tracing") await context.tracing.start({ screenshots: true, snapshots: true });
    const page = await context.newPage();
    await page.goto(url);
    for (const [i, step] of STEPS.entries()) {
      try {
        await step.pw(page, "fill");
      } catch (error) {
        console.error(`Playwright (${mode}) failed at step ${i + 1} (${step.text}): ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
        return 1;
      }
    }
    if (mode === "tracing") await context.tracing.stop({ path: join(outDir, "trace.zip") });
    // The video is finished and written when its context closes.
    await context.close();
  } finally {
    await browser.close();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : String(error));
    process.exit(1);
  },
);
