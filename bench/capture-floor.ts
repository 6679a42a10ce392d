// What one recording checkpoint costs at least: the floor under bench/recording-overhead.ts.
//
//   node_modules/.bin/bun bench/capture-floor.ts [--runs N]
//
// On the bench sign-up page at 1280×800, in the browser a headless run takes:
// 1. The latency of `Page.captureScreenshot` (median of N, the page changed before each):
//    a 1×1 clip (a fresh frame with no pixels to read back: the floor of any capture), the full
//    PNG frame flowproof keeps, and the frame at half scale.
// 2. When the frame is grabbed: a capture is requested, the page is changed D ms later (what the
//    next step's input would do), and the frame is checked for that change. DevTools answers
//    only once the frame is encoded, so the input is held until then; the share of frames
//    showing a change made D ms in says how early a timer could release it (never safely).
// 3. The replay of the 30-step flow with recording off (median of N), and what the
//    `full ≤ 1.35× off` bound leaves each of its captures, against the floor of (1).
// A measurement, not a test: exits 0 whatever the figures; 2 without Chromium.
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PNG } from "pngjs";
import { record, run } from "../src/index.ts";
import { Connection, type Session } from "../plugins/web/cdp/connection.ts";
import { findBrowser, launchBrowser } from "../plugins/web/launch.ts";
import { startServer } from "./app-server.ts";
import { median, wholeOption } from "./stats.ts";

const FLOW_FILE = resolve(import.meta.dir, "flows", "bench.flow.yaml");
/** New captures of the 30-step flow in full detail (bench/recording-overhead.ts prints it). */
const FLOW_CAPTURES = 22;
const DELAYS_MS = [0, 10, 20, 30, 40, 60];

/** Paints a marker box red or white: a change of the screen, as an input would make. */
const paint = (s: Session, red: boolean) =>
  s.send("Runtime.evaluate", {
    expression: `(() => { let b = document.getElementById("__floor"); if (!b) { b = document.createElement("div"); b.id = "__floor"; b.style.cssText = "position:fixed;left:0;top:0;width:64px;height:64px;z-index:2147483647"; document.body.append(b); } b.style.background = ${JSON.stringify(red ? "#ff0000" : "#ffffff")}; })()`,
  });

const isRed = (data: string) => {
  const png = PNG.sync.read(Buffer.from(data, "base64"));
  const i = (32 * png.width + 32) * 4;
  return png.data[i] === 255 && png.data[i + 1] === 0;
};

async function main(): Promise<number> {
  const runs = wholeOption("--runs", 15, "bun bench/capture-floor.ts [--runs N]", 1);
  const chrome = findBrowser(process.env, { headless: true }).path;
  if (!chrome) {
    console.error("bench: no Chromium found; set FLOWPROOF_CHROME or install chromium");
    return 2;
  }
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
  const loadBefore = load();
  const server = startServer();
  const browser = await launchBrowser(chrome);
  const work = mkdtempSync(join(tmpdir(), "flowproof-floor-"));
  try {
    const connection = await Connection.connect(browser.wsUrl);
    const { browserContextId } = await connection.send("Target.createBrowserContext", { disposeOnDetach: true });
    const { targetId } = await connection.send("Target.createTarget", { url: "about:blank", browserContextId });
    const { sessionId } = await connection.send("Target.attachToTarget", { targetId, flatten: true });
    const s = connection.session(sessionId);
    await s.send("Emulation.setDeviceMetricsOverride", { width: 1280, height: 800, deviceScaleFactor: 1, mobile: false });
    await s.send("Page.navigate", { url: `${server.url}/index.html` });
    await Bun.sleep(1000);

    const kinds = {
      "1×1 clip (no pixels)": { format: "png", optimizeForSpeed: true, clip: { x: 0, y: 0, width: 1, height: 1, scale: 1 } },
      "full frame (kept)": { format: "png", optimizeForSpeed: true },
      "half scale": { format: "png", optimizeForSpeed: true, clip: { x: 0, y: 0, width: 1280, height: 800, scale: 0.5 } },
    } as const;
    const latency: Record<string, number> = {};
    for (const [name, params] of Object.entries(kinds)) {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        await paint(s, i % 2 === 0);
        const t0 = performance.now();
        await s.send("Page.captureScreenshot", params);
        times.push(performance.now() - t0);
      }
      latency[name] = median(times);
    }

    const shown: string[] = [];
    for (const delay of DELAYS_MS) {
      let later = 0;
      for (let i = 0; i < runs; i++) {
        await paint(s, false);
        const frame = s.send("Page.captureScreenshot", kinds["full frame (kept)"]);
        await Bun.sleep(delay);
        await paint(s, true);
        if (isRed((await frame).data)) later++;
      }
      shown.push(`${delay} ms: ${later}/${runs}`);
    }
    await connection.close();

    const spec = join(work, "bench.flow.yaml");
    copyFileSync(FLOW_FILE, spec);
    const env = { ...process.env, BENCH_URL: server.url };
    await record({ spec, env, author: "rules", recordingDetail: "off" });
    const off: number[] = [];
    for (let i = 0; i < Math.min(runs, 5); i++) {
      const t0 = performance.now();
      await run({ spec, env, recordingDetail: "off" });
      off.push(performance.now() - t0);
    }
    const offMs = median(off);
    const allowed = (offMs * 0.35) / FLOW_CAPTURES;
    const floor = latency["1×1 clip (no pixels)"]!;

    console.log(`capture floor — ${chrome}, 1280×800, medians of ${runs}; load average ${loadBefore} before, ${load()} after`);
    for (const [name, ms] of Object.entries(latency)) console.log(`  ${name.padEnd(22)} ${ms.toFixed(1)} ms`);
    console.log(`  frames showing a change made D ms after the capture was asked for: ${shown.join(", ")}`);
    console.log(
      `  30-step flow, recording off: ${offMs.toFixed(0)} ms; full ≤ 1.35× off leaves ${allowed.toFixed(1)} ms for each of its ${FLOW_CAPTURES} captures`,
    );
    console.log(
      `  the no-pixel floor alone is ${(((floor * FLOW_CAPTURES) / offMs) * 100).toFixed(0)} % of the off run (${FLOW_CAPTURES} × ${floor.toFixed(1)} ms); the kept frame ${(((latency["full frame (kept)"]! * FLOW_CAPTURES) / offMs) * 100).toFixed(0)} %`,
    );
    return 0;
  } finally {
    await browser.close();
    server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

process.exit(await main());
