// Chromium switches and capture parameters against the floor under a recording's capture.
//
//   node_modules/.bin/bun bench/capture-flags.ts [--runs N] [--rounds R] [--flows F] [--only a,b]
//
// For each candidate (a set of Chromium switches added to flowproof's own), in the browser a
// headless run takes, at 1280×800, in rounds whose order rotates (the machine is shared: paired
// figures from the same minutes, never from separate runs):
// 1. `Page.captureScreenshot` latency, median of N, the page changed before each: a 1×1 clip (a
//    fresh frame, no pixels read back) and the full PNG frame a recording keeps; and the wait for
//    the next frame alone (an awaited `requestAnimationFrame`, less a plain evaluate).
// 2. Whether the frame is step-exact: a change made right after the capture was asked for must not
//    be in the frame more often than with flowproof's own switches (the input a capture holds).
// 3. The browser's CPU time (its whole process group, from /proc) over 2 s on the still sign-up
//    page, and over 2 s on a page with a CSS animation and a requestAnimationFrame loop (with the
//    frames that loop saw: how many frames the browser drew).
// 4. The 30-step flow replayed in-process, full recording and recording off (F of each per round,
//    wall time and the steps' sum), through a wrapper that adds the switches (FLOWPROOF_CHROME).
// Then, with flowproof's switches alone, capture parameters: fromSurface:false,
// captureBeyondViewport:false, a viewport clip at scale 1, JPEG and WebP (the encode's share), and
// the page without its device-metrics emulation (the window is 1280×800 already); and
// `--enable-begin-frame-control` (it needs `--run-all-compositor-stages-before-draw`) with
// `HeadlessExperimental.beginFrame({screenshot})`: see beginFrameProbe.
// Not a candidate: `--disable-threaded-compositing` (the headless shell's page is gone at once:
// "Not attached to an active page" to the first capture).
// A measurement, not a test: exits 0 whatever the figures; 2 without Chromium.
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PNG } from "pngjs";
import { record, run } from "../src/index.ts";
import { Connection, type Session } from "../plugins/web/cdp/connection.ts";
import { findBrowser, launchBrowser, type LaunchedBrowser } from "../plugins/web/launch.ts";
import { startServer } from "./app-server.ts";
import { loadAverage, median, wholeOption } from "./stats.ts";

const USAGE = "bun bench/capture-flags.ts [--runs N] [--rounds R] [--flows F] [--only name,name]";
const FLOW_FILE = resolve(import.meta.dir, "flows", "bench.flow.yaml");

const CANDIDATES: Record<string, readonly string[]> = {
  flowproof: [],
  "disable-gpu-vsync": ["--disable-gpu-vsync"],
  "run-all-stages": ["--run-all-compositor-stages-before-draw"],
  "no-threaded-animation": ["--disable-threaded-animation"],
  "no-checker-imaging": ["--disable-checker-imaging"],
  "headless-rendering set": [
    "--run-all-compositor-stages-before-draw",
    "--disable-threaded-animation",
    "--disable-checker-imaging",
    "--disable-new-content-rendering-timeout",
  ],
  "frame-rate-limit-off": ["--disable-frame-rate-limit"],
  "limit-fps-120": ["--limit-fps=120"],
  "limit-fps-240": ["--limit-fps=240"],
};

const ANIMATED = `data:text/html,${encodeURIComponent(
  "<style>@keyframes s{to{transform:rotate(360deg)}}.a{width:120px;height:120px;background:#06c;animation:s 1s linear infinite}</style>" +
    "<div class=a></div><p id=n>0</p><script>window.__n=0;const f=()=>{__n++;document.getElementById('n').textContent=__n;requestAnimationFrame(f)};requestAnimationFrame(f)</script>",
)}`;

const paint = (s: Session, red: boolean) =>
  s.send("Runtime.evaluate", {
    expression: `(() => { let b = document.getElementById("__cf"); if (!b) { b = document.createElement("div"); b.id = "__cf"; b.style.cssText = "position:fixed;left:0;top:0;width:64px;height:64px;z-index:2147483647"; document.body.append(b); } b.style.background = ${JSON.stringify(red ? "#ff0000" : "#ffffff")}; })()`,
  });

const isRed = (data: string) => {
  const png = PNG.sync.read(Buffer.from(data, "base64"));
  const i = (32 * png.width + 32) * 4;
  return png.data[i] === 255 && png.data[i + 1] === 0;
};

/** CPU time (ms) of every process in the browser's process group (it leads one), from /proc. */
function groupCpuMs(pgid: number): number {
  let ticks = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const fields = readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1]!.split(" ");
      if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks * 10;
}

async function openPage(browser: LaunchedBrowser, options: { beginFrameControl?: boolean } = {}) {
  const connection = await Connection.connect(browser.wsUrl);
  const { browserContextId } = await connection.send("Target.createBrowserContext", { disposeOnDetach: true });
  const { targetId } = await connection.send("Target.createTarget", {
    url: "about:blank",
    browserContextId,
    ...(options.beginFrameControl ? { enableBeginFrameControl: true } : {}),
  });
  const { sessionId } = await connection.send("Target.attachToTarget", { targetId, flatten: true });
  const s = connection.session(sessionId);
  await s.send("Emulation.setDeviceMetricsOverride", { width: 1280, height: 800, deviceScaleFactor: 1, mobile: false });
  return { connection, s };
}

const settle = async (s: Session, url: string) => {
  await s.send("Page.navigate", { url });
  await Bun.sleep(800);
};

type Params = Record<string, unknown>;
const NO_PIXEL: Params = { format: "png", optimizeForSpeed: true, clip: { x: 0, y: 0, width: 1, height: 1, scale: 1 } };
const FULL: Params = { format: "png", optimizeForSpeed: true };
const NO_EMULATION = "png, optimizeForSpeed, no Emulation.setDeviceMetricsOverride";

async function latency(s: Session, params: Params, n: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    await paint(s, i % 2 === 0);
    const t0 = performance.now();
    await s.send("Page.captureScreenshot", params as never);
    times.push(performance.now() - t0);
  }
  return median(times);
}

interface Probe {
  noPixel: number;
  full: number;
  frameWait: number;
  lateInFrame: number;
  stale: number;
  stillCpu: number;
  animCpu: number;
  animFrames: number;
}

async function probe(browser: LaunchedBrowser, url: string, n: number): Promise<Probe> {
  const { connection, s } = await openPage(browser);
  try {
    await settle(s, url);
    const noPixel = await latency(s, NO_PIXEL, n);
    const full = await latency(s, FULL, n);
    const waits: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await s.send("Runtime.evaluate", { expression: "1" });
      const t1 = performance.now();
      await s.send("Runtime.evaluate", { expression: "new Promise((r) => requestAnimationFrame(() => r(1)))", awaitPromise: true });
      waits.push(performance.now() - t1 - (t1 - t0));
    }
    // A change made as soon as the capture was sent: in the frame at most as often as with flowproof's own switches.
    let late = 0;
    let stale = 0;
    for (let i = 0; i < n; i++) {
      await paint(s, false);
      const frame = s.send("Page.captureScreenshot", FULL as never);
      await paint(s, true);
      if (isRed((await frame).data)) late++;
      // A change made before the ask must be in the frame: a stale frame would miss the step's effect.
      if (!isRed((await s.send("Page.captureScreenshot", FULL as never)).data)) stale++;
    }
    await Bun.sleep(300);
    const c0 = groupCpuMs(browser.pid);
    await Bun.sleep(2000);
    const stillCpu = groupCpuMs(browser.pid) - c0;
    await settle(s, ANIMATED);
    const n0 = Number((await s.send("Runtime.evaluate", { expression: "__n", returnByValue: true })).result.value);
    const a0 = groupCpuMs(browser.pid);
    await Bun.sleep(2000);
    const animCpu = groupCpuMs(browser.pid) - a0;
    const n1 = Number((await s.send("Runtime.evaluate", { expression: "__n", returnByValue: true })).result.value);
    return { noPixel, full, frameWait: median(waits), lateInFrame: late / n, stale, stillCpu, animCpu, animFrames: n1 - n0 };
  } finally {
    await connection.close();
  }
}

/**
 * `--enable-begin-frame-control`: nothing draws unless the client sends a BeginFrame. How many
 * requestAnimationFrame callbacks run with none sent; the CPU (the browser's, and this process's)
 * of sending one every 16.7 ms for 2 s, on the animating page and on the still sign-up page; and a
 * capture as `beginFrame({screenshot})` right after a change (and whether it shows the change).
 */
async function beginFrameProbe(chrome: string, url: string, runs: number): Promise<string> {
  const bf = await launchBrowser(chrome, { extraArgs: ["--enable-begin-frame-control", "--run-all-compositor-stages-before-draw"] });
  try {
    const { connection, s } = await openPage(bf, { beginFrameControl: true });
    const frame = (screenshot = false) =>
      s.send(
        "HeadlessExperimental.beginFrame",
        (screenshot ? { interval: 16.666, screenshot: { format: "png", optimizeForSpeed: true } } : { interval: 16.666 }) as never,
      ) as Promise<{
        screenshotData?: string;
      }>;
    const read = async () => Number((await s.send("Runtime.evaluate", { expression: "window.__n ?? -1", returnByValue: true })).result.value);
    /** BeginFrames at 60 Hz for `ms`: the browser's and this process's CPU time meanwhile. */
    const drive = async (ms: number) => {
      const c0 = groupCpuMs(bf.pid);
      const u0 = process.cpuUsage();
      const end = performance.now() + ms;
      for (let next = performance.now(); next < end; next += 1000 / 60) {
        await frame();
        const wait = next + 1000 / 60 - performance.now();
        if (wait > 0) await Bun.sleep(wait);
      }
      const u = process.cpuUsage(u0);
      return { browser: groupCpuMs(bf.pid) - c0, self: Math.round((u.user + u.system) / 1000) };
    };
    await s.send("Page.navigate", { url: ANIMATED });
    await drive(1000);
    const r0 = await read();
    await Bun.sleep(1000);
    const r1 = await read();
    const animated = await drive(2000);
    const r2 = await read();
    await s.send("Page.navigate", { url });
    await drive(1000);
    const still = await drive(2000);
    const times: number[] = [];
    let shown = 0;
    for (let i = 0; i < runs; i++) {
      await drive(100);
      await paint(s, true);
      const t0 = performance.now();
      const res = await frame(true);
      times.push(performance.now() - t0);
      if (res.screenshotData && isRed(res.screenshotData)) shown++;
      await paint(s, false);
    }
    await connection.close();
    return (
      `requestAnimationFrame callbacks in 1 s with no BeginFrame sent: ${r1 - r0}; BeginFrames sent at 60 Hz for 2 s: on the animating page ${r2 - r1} callbacks, ` +
      `browser CPU ${animated.browser} ms, this process ${animated.self} ms; on the still sign-up page browser ${still.browser} ms, this process ${still.self} ms; ` +
      `beginFrame({screenshot}) after a change ${median(times).toFixed(1)} ms median, ${shown}/${runs} frames showing the change`
    );
  } catch (error) {
    return `failed: ${(error as Error).message}`;
  } finally {
    await bf.close();
  }
}

async function main(): Promise<number> {
  const runs = wholeOption("--runs", 15, USAGE, 1);
  const rounds = wholeOption("--rounds", 3, USAGE, 1);
  const flows = wholeOption("--flows", 1, USAGE, 0);
  const onlyAt = process.argv.indexOf("--only");
  const names = onlyAt === -1 ? Object.keys(CANDIDATES) : process.argv[onlyAt + 1]!.split(",");
  for (const n of names)
    if (!(n in CANDIDATES)) {
      console.error(`usage: ${USAGE} (unknown candidate ${n}; known: ${Object.keys(CANDIDATES).join(", ")})`);
      return 2;
    }
  const chrome = findBrowser(process.env, { headless: true }).path;
  if (!chrome) {
    console.error("bench: no Chromium found; set FLOWPROOF_CHROME or install chromium");
    return 2;
  }
  const server = startServer();
  const work = mkdtempSync(join(tmpdir(), "flowproof-capflags-"));
  const url = `${server.url}/index.html`;
  const before = loadAverage();
  try {
    const wrappers: Record<string, string> = {};
    for (const name of names) {
      const path = join(work, `chrome-${name}.sh`);
      writeFileSync(path, `#!/bin/sh\nexec ${JSON.stringify(chrome)} "$@" ${CANDIDATES[name]!.join(" ")}\n`);
      chmodSync(path, 0o755);
      wrappers[name] = path;
    }
    const spec = join(work, "bench.flow.yaml");
    copyFileSync(FLOW_FILE, spec);
    const env = { ...process.env, BENCH_URL: server.url };
    if (flows > 0) {
      const recorded = await record({ spec, env, author: "rules", recordingDetail: "off" });
      if (!recorded.ok) {
        console.error(`bench: recording failed: ${recorded.error ?? "unknown"}`);
        return 1;
      }
    }
    const flowOnce = async (name: string, detail: "off" | "full") => {
      process.env["FLOWPROOF_CHROME"] = wrappers[name];
      const t0 = performance.now();
      const result = await run({ spec, env, recordingDetail: detail });
      const wall = performance.now() - t0;
      if (!result.report.passed) throw new Error(`replay failed (${name}, ${detail}): ${result.run_dir}`);
      rmSync(result.run_dir, { recursive: true, force: true });
      return { wall, steps: result.report.steps.reduce((a, st) => a + st.duration_ms, 0) };
    };
    const samples: Record<string, { probes: Probe[]; full: number[]; off: number[]; fullSteps: number[]; offSteps: number[] }> = {};
    for (const name of names) samples[name] = { probes: [], full: [], off: [], fullSteps: [], offSteps: [] };
    for (let round = 0; round < rounds; round++) {
      const order = names.map((_, i) => names[(i + round) % names.length]!);
      for (const name of order) {
        const browser = await launchBrowser(chrome, { extraArgs: CANDIDATES[name]! });
        try {
          const p = await probe(browser, url, runs);
          samples[name]!.probes.push(p);
          console.error(
            `round ${round + 1} ${name}: no-pixel ${p.noPixel.toFixed(1)} full ${p.full.toFixed(1)} frame wait ${p.frameWait.toFixed(1)} ms, late-in-frame ${(p.lateInFrame * 100).toFixed(0)} %, stale ${p.stale}/${runs}, CPU still ${p.stillCpu} anim ${p.animCpu} ms (${p.animFrames} rAF frames)`,
          );
        } finally {
          await browser.close();
        }
        for (let f = 0; f < flows; f++) {
          const a = await flowOnce(name, "full");
          const b = await flowOnce(name, "off");
          samples[name]!.full.push(a.wall);
          samples[name]!.fullSteps.push(a.steps);
          samples[name]!.off.push(b.wall);
          samples[name]!.offSteps.push(b.steps);
          console.error(`round ${round + 1} ${name}: flow full ${a.wall.toFixed(0)} (steps ${a.steps}) off ${b.wall.toFixed(0)} (steps ${b.steps}) ms`);
        }
      }
    }
    delete process.env["FLOWPROOF_CHROME"];
    const during = loadAverage();

    // Capture parameters, with flowproof's switches alone.
    const variants: Record<string, Params> = {
      "png, optimizeForSpeed (flowproof)": FULL,
      "+ fromSurface: false": { ...FULL, fromSurface: false },
      "+ captureBeyondViewport: false": { ...FULL, captureBeyondViewport: false },
      "+ clip 1280×800 at scale 1": { ...FULL, clip: { x: 0, y: 0, width: 1280, height: 800, scale: 1 } },
      "png without optimizeForSpeed": { format: "png" },
      "jpeg, quality 80": { format: "jpeg", quality: 80, optimizeForSpeed: true },
      "webp, quality 80": { format: "webp", quality: 80, optimizeForSpeed: true },
      "1×1 clip, fromSurface: false": { ...NO_PIXEL, fromSurface: false },
    };
    const params: Record<string, number[]> = {};
    const browser = await launchBrowser(chrome);
    try {
      const { connection, s } = await openPage(browser);
      await settle(s, url);
      const metrics = { width: 1280, height: 800, deviceScaleFactor: 1, mobile: false };
      for (let round = 0; round < rounds; round++) {
        for (const [name, p] of Object.entries(variants)) (params[name] ??= []).push(await latency(s, p, runs));
        // The page at the window's own size, without the device-metrics emulation a flowproof page has.
        await s.send("Emulation.clearDeviceMetricsOverride");
        (params[NO_EMULATION] ??= []).push(await latency(s, FULL, runs));
        (params[`${NO_EMULATION}, 1×1 clip`] ??= []).push(await latency(s, NO_PIXEL, runs));
        await s.send("Emulation.setDeviceMetricsOverride", metrics);
      }
      await connection.close();
    } finally {
      await browser.close();
    }

    const beginFrame = await beginFrameProbe(chrome, url, runs);

    const m = (xs: number[]) => median(xs);
    console.log(
      `capture flags — ${chrome}, 1280×800; ${rounds} rounds (medians of ${runs} per round, then the median over rounds); load average ${before} before, ${during} after the candidates, ${loadAverage()} at the end`,
    );
    console.log(
      "| candidate | 1×1 capture | full frame | frame wait | change after the ask in frame | stale frames | CPU still 2 s | CPU animating 2 s | rAF frames 2 s | flow full | flow off | steps full | steps off |",
    );
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const name of names) {
      const x = samples[name]!;
      const pm = (k: keyof Probe) => m(x.probes.map((p) => p[k]));
      console.log(
        `| ${name} ${CANDIDATES[name]!.join(" ")} | ${pm("noPixel").toFixed(1)} | ${pm("full").toFixed(1)} | ${pm("frameWait").toFixed(1)} | ${(pm("lateInFrame") * 100).toFixed(0)} % | ${x.probes.reduce((a, p) => a + p.stale, 0)}/${runs * x.probes.length} | ${pm("stillCpu")} | ${pm("animCpu")} | ${pm("animFrames")} | ${flows ? m(x.full).toFixed(0) : "-"} | ${flows ? m(x.off).toFixed(0) : "-"} | ${flows ? m(x.fullSteps) : "-"} | ${flows ? m(x.offSteps) : "-"} |`,
      );
    }
    console.log("\n| capture parameters (flowproof's switches) | latency |\n|---|---:|");
    for (const [name, xs] of Object.entries(params)) console.log(`| ${name} | ${m(xs).toFixed(1)} ms |`);
    console.log(`\n--enable-begin-frame-control: ${beginFrame}`);
    return 0;
  } finally {
    delete process.env["FLOWPROOF_CHROME"];
    server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

process.exit(await main());
