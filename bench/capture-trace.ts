// Where one `Page.captureScreenshot` spends its time, from Chromium's own trace.
//
//   node_modules/.bin/bun bench/capture-trace.ts [--runs N] [--clip] [--no-emulation] [-- <chromium switches>]
//
// In the browser a headless run takes, on a small page at 1280×800 (emulated, as a flowproof page
// is, unless --no-emulation): the page is changed, a console.timeStamp marks the moment, and the
// capture a recording takes (the full PNG frame; with --clip the 1×1 no-pixel capture) is asked
// for at once. Chromium's trace (categories cc, viz, devtools, benchmark) then gives, per
// capture, when each stage ran, in ms after the change: the BeginFrame ticks of the display's
// 60 Hz source, the renderer's main frames, the display's draws, the copy request, the copy's
// result, the PNG encode, the emulation swaps around the capture, and the DevTools command's end.
// A measurement, not a test: exits 0 whatever the figures; 2 without Chromium.
import { Connection } from "../plugins/web/cdp/connection.ts";
import { findBrowser, launchBrowser } from "../plugins/web/launch.ts";
import { loadAverage, median, wholeOption } from "./stats.ts";

const USAGE = "bun bench/capture-trace.ts [--runs N] [--clip] [--no-emulation] [-- <chromium switches>]";

/** The trace events that mark a stage, and what the table calls them. */
const STAGES: Record<string, string> = {
  "DelayBasedBeginFrameSource::OnTimerTick": "tick",
  "ProxyMain::BeginMainFrame": "renderer frame",
  "Display::DrawAndSwap": "display draw",
  "FrameSinkManagerImpl::RequestCopyOfOutput": "copy requested",
  "viz::mojom::CopyOutputResultSender::SendResult": "copy result",
  EncodeBitmapAsPngFast: "png encode",
  EncodeBitmapAsPng: "png encode",
  "DelegatedFrameHost::EmbedSurface": "surface swap",
};

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  args?: { data?: { message?: string } };
}

async function main(): Promise<number> {
  const runs = wholeOption("--runs", 8, USAGE, 1);
  const clip = process.argv.includes("--clip");
  const emulate = !process.argv.includes("--no-emulation");
  const dashes = process.argv.indexOf("--");
  const extraArgs = dashes === -1 ? [] : process.argv.slice(dashes + 1);
  const chrome = findBrowser(process.env, { headless: true }).path;
  if (!chrome) {
    console.error("bench: no Chromium found; set FLOWPROOF_CHROME or install chromium");
    return 2;
  }
  const browser = await launchBrowser(chrome, { extraArgs });
  try {
    const c = await Connection.connect(browser.wsUrl);
    const { browserContextId } = await c.send("Target.createBrowserContext", { disposeOnDetach: true });
    const { targetId } = await c.send("Target.createTarget", { url: "about:blank", browserContextId });
    const { sessionId } = await c.send("Target.attachToTarget", { targetId, flatten: true });
    const s = c.session(sessionId);
    if (emulate) await s.send("Emulation.setDeviceMetricsOverride", { width: 1280, height: 800, deviceScaleFactor: 1, mobile: false });
    await s.send("Page.navigate", { url: "data:text/html,<h1>A page</h1><div id=b style='width:64px;height:64px;background:red'></div>" });
    await Bun.sleep(800);
    const events: TraceEvent[] = [];
    c.on("Tracing.dataCollected", (p) => events.push(...(p.value as unknown as TraceEvent[])));
    const complete = new Promise<void>((resolve) => c.on("Tracing.tracingComplete", () => resolve()));
    await c.send("Tracing.start", {
      traceConfig: { includedCategories: ["cc", "viz", "benchmark", "devtools.timeline", "devtools", "toplevel"] },
      transferMode: "ReportEvents",
    });
    await Bun.sleep(300);
    const params = clip
      ? { format: "png" as const, optimizeForSpeed: true, clip: { x: 0, y: 0, width: 1, height: 1, scale: 1 } }
      : { format: "png" as const, optimizeForSpeed: true };
    const answered: number[] = [];
    for (let i = 0; i < runs; i++) {
      await s.send("Runtime.evaluate", {
        expression: `document.getElementById('b').style.background = '${i % 2 ? "red" : "blue"}'; console.timeStamp('ask${i}')`,
      });
      const t0 = performance.now();
      await s.send("Page.captureScreenshot", params);
      answered.push(performance.now() - t0);
      await s.send("Runtime.evaluate", { expression: `console.timeStamp('done${i}')` });
      await Bun.sleep(200);
    }
    await c.send("Tracing.end");
    await Promise.race([complete, Bun.sleep(10_000)]);
    await c.close();

    const marks = new Map<string, number>();
    for (const e of events) if (e.name === "TimeStamp" && e.args?.data?.message) marks.set(e.args.data.message, e.ts);
    const timed = events.filter((e) => e.name in STAGES && ["X", "B", "I", "i", "n"].includes(e.ph)).sort((a, b) => a.ts - b.ts);
    console.log(
      `capture trace — ${chrome} ${extraArgs.join(" ")}, ${clip ? "1×1 clip" : "full frame"}, ${emulate ? "emulated 1280×800" : "no emulation"}; load average ${loadAverage()}`,
    );
    console.log(`answered (as this process saw it): median ${median(answered).toFixed(1)} ms of ${runs}`);
    console.log("per capture, ms after the page's change (a stage's own duration in brackets):");
    for (let i = 0; i < runs; i++) {
      const from = marks.get(`ask${i}`);
      const to = marks.get(`done${i}`);
      if (from === undefined || to === undefined) continue;
      const stages = timed
        .filter((e) => e.ts >= from && e.ts <= to)
        .map((e) => `${((e.ts - from) / 1000).toFixed(1)} ${STAGES[e.name]}${e.dur ? ` (${(e.dur / 1000).toFixed(1)})` : ""}`);
      console.log(`  ${i}: ${stages.join("; ")}; answered ${((to - from) / 1000).toFixed(1)}`);
    }
    return 0;
  } finally {
    await browser.close();
  }
}

process.exit(await main());
