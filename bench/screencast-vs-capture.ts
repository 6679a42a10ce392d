// Measurement: Chromium's screencast as a recording's frame source, against the one blocking
// `Page.captureScreenshot` per checkpoint a recording takes today.
//
//   node_modules/.bin/bun bench/screencast-vs-capture.ts [--runs N]
//
// On the bench sign-up page at 1280×800, in the browser a headless run takes:
// 1. With `Page.startScreencast` (PNG, every frame acknowledged): how long after a change of the
//    page (a marker painted red or white, as a step's input would change it) the first frame
//    showing it arrives; against that, a `Page.captureScreenshot` (PNG, optimizeForSpeed) taken
//    right after a change, the capture a recording takes at a checkpoint.
// 2. Whether any frame arrives while the page stays still after a change (150 ms): a checkpoint
//    needs a frame it can prove is not stale, and a still page sends none to prove it with.
// 3. A screencast started at the checkpoint and stopped at its first frame (a one-frame screencast
//    in place of the capture): how long the first frame takes, and whether it shows the change.
// 4. The browser's CPU time (its whole process group, from /proc) over typing 40 characters into
//    a field, with the screencast on and off: every frame it draws is encoded and sent.
// A measurement, not a test: exits 0 whatever the figures; 2 without Chromium.
import { readFileSync } from "node:fs";
import { PNG } from "pngjs";
import { Connection, type Session } from "../plugins/web/cdp/connection.ts";
import { findBrowser, launchBrowser } from "../plugins/web/launch.ts";
import { startServer } from "./app-server.ts";
import { loadAverage, median, wholeOption } from "./stats.ts";

const USAGE = "bun bench/screencast-vs-capture.ts [--runs N]";

const paint = (s: Session, red: boolean) =>
  s.send("Runtime.evaluate", {
    expression: `(() => { let b = document.getElementById("__sc"); if (!b) { b = document.createElement("div"); b.id = "__sc"; b.style.cssText = "position:fixed;left:0;top:0;width:64px;height:64px;z-index:2147483647"; document.body.append(b); } b.style.background = ${JSON.stringify(red ? "#ff0000" : "#ffffff")}; })()`,
  });

const isRed = (data: string) => {
  const png = PNG.sync.read(Buffer.from(data, "base64"));
  const i = (32 * png.width + 32) * 4;
  return png.data[i] === 255 && png.data[i + 1] === 0;
};

/** CPU time (ms) of a process and its descendants, from /proc (Linux). */
function treeCpuMs(pid: number): number {
  let ticks = 0;
  const walk = (p: number) => {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
      for (const child of readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) walk(Number(child));
    } catch {
      // gone meanwhile
    }
  };
  walk(pid);
  return ticks * 10;
}

async function main(): Promise<number> {
  const runs = wholeOption("--runs", 12, USAGE, 2);
  const chrome = findBrowser(process.env, { headless: true }).path;
  if (!chrome) {
    console.error("bench: no Chromium found; set FLOWPROOF_CHROME or install chromium");
    return 2;
  }
  const server = startServer();
  const browser = await launchBrowser(chrome);
  try {
    const c = await Connection.connect(browser.wsUrl);
    const { browserContextId } = await c.send("Target.createBrowserContext", { disposeOnDetach: true });
    const { targetId } = await c.send("Target.createTarget", { url: "about:blank", browserContextId, width: 1280, height: 800 });
    const { sessionId } = await c.send("Target.attachToTarget", { targetId, flatten: true });
    const s = c.session(sessionId);
    await s.send("Page.enable");
    const loaded = new Promise<void>((resolve) => {
      const off = s.on("Page.loadEventFired", () => {
        off();
        resolve();
      });
    });
    await s.send("Page.navigate", { url: `${server.url}/index.html` });
    await loaded;
    const loadBefore = loadAverage();

    // 3, first half: typing without a screencast.
    const typeBurst = async () => {
      await s.send("Runtime.evaluate", { expression: `document.getElementById("notes")?.focus() ?? document.querySelector("textarea,input")?.focus()` });
      const cpu0 = treeCpuMs(browser.pid);
      for (const ch of "Please call after 5pm on weekdays, thanks") {
        await s.send("Input.dispatchKeyEvent", { type: "keyDown", text: ch });
        await s.send("Input.dispatchKeyEvent", { type: "keyUp" });
      }
      await Bun.sleep(100);
      return treeCpuMs(browser.pid) - cpu0;
    };
    const cpuOff: number[] = [];
    for (let i = 0; i < 3; i++) cpuOff.push(await typeBurst());

    // 1 and 2: the screencast, every frame acknowledged.
    const frames: { at: number; data: string }[] = [];
    let screencasting = true;
    let firstFrame: ((data: string) => void) | undefined;
    s.on("Page.screencastFrame", (p) => {
      frames.push({ at: performance.now(), data: p.data });
      firstFrame?.(p.data);
      firstFrame = undefined;
      if (screencasting) void s.send("Page.screencastFrameAck", { sessionId: p.sessionId }).catch(() => undefined);
    });
    await s.send("Page.startScreencast", { format: "png" });
    await Bun.sleep(300);
    const screencastMs: number[] = [];
    const captureMs: number[] = [];
    let neverShown = 0;
    let stillFrames = 0;
    for (let i = 0; i < runs; i++) {
      const red = i % 2 === 0;
      const seen = frames.length;
      await paint(s, red);
      const t = performance.now();
      let shown = -1;
      while (performance.now() - t < 1_000) {
        const f = frames.slice(seen).find((x) => isRed(x.data) === red);
        if (f) {
          shown = f.at - t;
          break;
        }
        await Bun.sleep(2);
      }
      if (shown < 0) neverShown++;
      else screencastMs.push(shown);
      const before = frames.length;
      await Bun.sleep(150);
      stillFrames += frames.length - before;
    }
    const cpuOn: number[] = [];
    for (let i = 0; i < 3; i++) cpuOn.push(await typeBurst());
    screencasting = false;
    await s.send("Page.stopScreencast");
    for (let i = 0; i < runs; i++) {
      await paint(s, i % 2 === 0);
      const t = performance.now();
      await s.send("Page.captureScreenshot", { format: "png", optimizeForSpeed: true });
      captureMs.push(performance.now() - t);
    }
    // 3: one frame of a screencast started at the checkpoint.
    const oneFrameMs: number[] = [];
    let oneFrameStale = 0;
    screencasting = true;
    for (let i = 0; i < runs; i++) {
      const red = i % 2 === 0;
      await paint(s, red);
      const t = performance.now();
      const first = new Promise<string | undefined>((resolve) => {
        firstFrame = resolve;
        setTimeout(() => resolve(undefined), 2_000);
      });
      await s.send("Page.startScreencast", { format: "png" });
      const data = await first;
      await s.send("Page.stopScreencast");
      oneFrameMs.push(performance.now() - t);
      if (data === undefined || isRed(data) !== red) oneFrameStale++;
    }
    console.log(`screencast vs capture — ${chrome}, 1280×800, medians of ${runs}; load average ${loadBefore} before, ${loadAverage()} after`);
    console.log(
      `  a change to the first screencast frame showing it   ${median(screencastMs).toFixed(1)} ms (min ${Math.min(...screencastMs).toFixed(1)}, max ${Math.max(...screencastMs).toFixed(1)}; never shown within 1 s: ${neverShown})`,
    );
    console.log(`  a change to a captureScreenshot's answer             ${median(captureMs).toFixed(1)} ms`);
    console.log(
      `  a screencast started at the checkpoint, to its first frame  ${median(oneFrameMs).toFixed(1)} ms (frames not showing the change: ${oneFrameStale})`,
    );
    console.log(`  frames that arrived while the page stayed still 150 ms after a change: ${stillFrames} in ${runs}`);
    console.log(
      `  browser CPU over typing 41 characters: ${median(cpuOff).toFixed(0)} ms without the screencast, ${median(cpuOn).toFixed(0)} ms with it (medians of 3)`,
    );
    return 0;
  } finally {
    await browser.close();
    server.stop();
  }
}

process.exit(await main());
