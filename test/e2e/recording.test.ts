// Run recording through the real CLI and real Chromium: redacted keyframes (decoded and checked
// pixel by pixel), the canary that must never reach disk, the fail-closed path, detail levels,
// the GIF, schema conformance of the extended trace and result.json, and report.html opened in
// headless Chromium with no network access.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { decodePng, isUniform, type PixelRect } from "../../src/recording/image.ts";
import type { RunReport } from "../../src/report/schema.ts";
import { launchBrowser } from "../../plugins/web/launch.ts";
import { Connection } from "../../plugins/web/cdp/connection.ts";
import { readTrace } from "../support/trace.ts";

const CANARY = "CANARY-7f3a9-SSN-0042";
const PASSWORD = "pw-Zq81-secret";
const ENV = { CANARY, SECRET_PW: PASSWORD };
/** Where redaction.html puts its fields (frame pixels at device scale 1). */
const PASSWORD_RECT: PixelRect = { x: 200, y: 100, width: 400, height: 40 };
const SSN_RECT: PixelRect = { x: 200, y: 160, width: 400, height: 40 };
const BLACK = [0, 0, 0] as const;
const WHITE = [255, 255, 255] as const;
/** Inside the SSN field's border and padding: where typed text is drawn. */
const SSN_INSIDE: PixelRect = { x: 206, y: 166, width: 388, height: 28 };

let server: TestServer;
const projects: TmpProject[] = [];
beforeAll(async () => {
  requireChromium();
  server = await startServer();
});
afterAll(() => {
  server.stop();
  for (const p of projects) p.remove();
});

function flow(redact: string, ssn = "${CANARY}"): string {
  return [
    "name: Redaction",
    "app: web",
    `url: ${server.url}/redaction.html`,
    ...(redact ? ["redact:", redact] : []),
    "steps:",
    '  - rules: Type Ada into the "Your name" field',
    '  - rules: Type ${SECRET_PW} into the "Password" field',
    `  - rules: Type ${ssn} into the "SSN" field`,
    '  - rules: Press the "Save" button',
    "  - assert: page shows Saved for Ada",
    "",
  ].join("\n");
}
const SSN_RULE = '  - target: { css: "#ssn" }\n    mode: mask';

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
const pngsUnder = (dir: string) => walk(dir).filter((f) => f.endsWith(".png"));
const json = <T>(path: string) => JSON.parse(readFileSync(path, "utf8")) as T;
const runDirOf = (stdout: string, cwd: string) => join(cwd, /^result: (.*)$/m.exec(stdout)![1]!).replace(/\/result\.json$/, "");

describe("recording redaction (real browser)", () => {
  let project: TmpProject;
  let runDir = "";

  test("masks the password field and the css region in every frame of record and run; the canary never reaches disk", async () => {
    project = tmpProject();
    projects.push(project);
    const spec = project.write("redaction.flow.yaml", flow(SSN_RULE));
    const rec = await runCli(["record", spec, "--video", "--highlight-cursor"], { cwd: project.dir, env: ENV });
    expect(rec.stderr).not.toContain("FAILED");
    expect(rec.code).toBe(0);
    const tracePath = join(project.dir, "redaction.trace.jsonl");
    expectValidTrace(tracePath);
    const { header, steps } = readTrace<Record<string, any>, Record<string, any>>(tracePath);
    expect(header!["redaction"]).toEqual([{ mode: "mask", target: { css: "#ssn" } }]);
    expect(header!["recording"]).toMatchObject({ format: "filmstrip/1", dir: `.flowproof/recordings/${header!["trace_id"]}` });
    const ranges = steps.map((s) => s["artifacts"]["recording"] as { start_ms: number; end_ms: number });
    for (const [i, r] of ranges.entries()) {
      expect(r.end_ms).toBeGreaterThanOrEqual(r.start_ms);
      if (i > 0) expect(r.start_ms).toBeGreaterThanOrEqual(ranges[i - 1]!.end_ms);
    }
    const authoring = join(project.dir, header!["recording"].dir);
    expect(existsSync(join(authoring, "recording.gif"))).toBe(true);

    // Replays mask with the rules recorded into the trace, even once the spec no longer has them
    // (the edited flow makes the trace stale, exit 2, but the replay runs and its frames are kept).
    project.write("redaction.flow.yaml", flow(""));
    const res = await runCli(["run", spec, "--video", "--highlight-cursor"], { cwd: project.dir, env: ENV });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("the trace is stale");
    expect(pngsUnder(join(runDirOf(res.stdout, project.dir), "recording")).length).toBeGreaterThanOrEqual(10);
    // The flow as recorded again: this replay and later ones are current.
    project.write("redaction.flow.yaml", flow(SSN_RULE));
    const current = await runCli(["run", spec, "--video", "--highlight-cursor"], { cwd: project.dir, env: ENV });
    expect(current.code).toBe(0);
    runDir = runDirOf(current.stdout, project.dir);
    expectValidResult(join(runDir, "result.json"));
    const report = json<RunReport>(join(runDir, "result.json"));
    const rec2 = report.recording!;
    expect(rec2.format).toBe("filmstrip/1");
    expect(rec2.gif).toBe("recording.gif");
    // full: before and after each step; the click also has its pointer checkpoint.
    const inRange = (r: { start_ms: number; end_ms: number }) => rec2.frames.filter((f) => f.offset_ms >= r.start_ms && f.offset_ms <= r.end_ms);
    expect(rec2.steps.map((s) => inRange(s).length)).toEqual([2, 2, 2, 3, 2]);
    expect(rec2.frames.length).toBe(11);
    for (const f of rec2.frames) expect(existsSync(join(runDir, f.file))).toBe(true);
    expect(report.steps.map((s) => s.started_ms)).toEqual(rec2.steps.map((s) => s.start_ms));

    const pngs = pngsUnder(join(project.dir, ".flowproof"));
    expect(pngs.length).toBeGreaterThanOrEqual(33);
    for (const file of pngs) {
      const image = decodePng(readFileSync(file));
      expect([file, isUniform(image, PASSWORD_RECT, BLACK)]).toEqual([file, true]);
      expect([file, isUniform(image, SSN_RECT, BLACK)]).toEqual([file, true]);
    }
    for (const file of walk(project.dir)) {
      const bytes = readFileSync(file, "latin1");
      expect([file, bytes.includes(CANARY), bytes.includes(PASSWORD)]).toEqual([file, false, false]);
    }
  });

  /** The SSN field's frames around its typing step in a fresh recording of `flow("", ssn)`: before and after. */
  async function ssnFramesWithoutRule(ssn: string) {
    const bare = tmpProject();
    projects.push(bare);
    const spec = bare.write("redaction.flow.yaml", flow("", ssn));
    const rec = await runCli(["record", spec], { cwd: bare.dir, env: ENV });
    expect(rec.code).toBe(0);
    const pngs = pngsUnder(join(bare.dir, ".flowproof"));
    expect(pngs.length).toBe(10);
    const images = pngs.map((f) => decodePng(readFileSync(f)));
    // Password fields stay masked without any rule.
    expect(images.every((img) => isUniform(img, PASSWORD_RECT, BLACK))).toBe(true);
    const steps = readTrace<unknown, Record<string, any>>(join(bare.dir, "redaction.trace.jsonl")).steps;
    const typing = steps[2]!["artifacts"]["recording"] as { start_ms: number; end_ms: number };
    const offsetOf = (f: string) => Number(/frame-(\d+)-/.exec(f)![1]);
    const own = pngs.filter((f) => offsetOf(f) >= typing.start_ms && offsetOf(f) <= typing.end_ms).sort((a, b) => offsetOf(a) - offsetOf(b));
    expect(own.length).toBe(2);
    const [before, after] = own.map((f) => decodePng(readFileSync(f)));
    return { before: before!, after: after! };
  }

  test("the same check catches an unmasked field: without a rule, a literal typed value shows in the pixels", async () => {
    const { before, after } = await ssnFramesWithoutRule("123-45-6789");
    // The SSN field's inside is blank before the value is typed and carries its pixels after…
    expect(isUniform(before, SSN_INSIDE, WHITE)).toBe(true);
    expect(isUniform(after, SSN_INSIDE, WHITE)).toBe(false);
    // …which is exactly what the redaction check looks at: it would have failed here.
    expect(isUniform(after, SSN_RECT, BLACK)).toBe(false);
  });

  test("without a rule, a field a ${VAR} is typed into is masked from the moment it is typed", async () => {
    const { before, after } = await ssnFramesWithoutRule("${CANARY}");
    expect(isUniform(before, SSN_INSIDE, WHITE)).toBe(true);
    expect(isUniform(before, SSN_RECT, BLACK)).toBe(false);
    expect(isUniform(after, SSN_RECT, BLACK)).toBe(true);
  });

  test("fails closed: a rule the page cannot resolve drops every frame and marks the steps, verdict unchanged", async () => {
    const broken = tmpProject();
    projects.push(broken);
    const spec = broken.write("redaction.flow.yaml", flow('  - target: { css: "#ssn[" }\n    mode: mask'));
    const rec = await runCli(["record", spec], { cwd: broken.dir, env: ENV });
    expect(rec.code).toBe(0);
    const res = await runCli(["run", spec, "--video"], { cwd: broken.dir, env: ENV });
    expect(res.code).toBe(0);
    const dir = runDirOf(res.stdout, broken.dir);
    expectValidResult(join(dir, "result.json"));
    const report = json<RunReport>(join(dir, "result.json"));
    expect(report.passed).toBe(true);
    expect(report.recording!.frames).toEqual([]);
    expect(report.recording!.gif).toBeUndefined();
    expect(report.recording!.steps.map((s) => s.frames_dropped)).toEqual(Array(5).fill("redaction"));
    expect(pngsUnder(join(broken.dir, ".flowproof"))).toEqual([]);
    const steps = readTrace<unknown, Record<string, any>>(join(broken.dir, "redaction.trace.jsonl")).steps;
    expect(steps.map((s) => s["artifacts"]["recording"]["frames_dropped"])).toEqual(Array(5).fill("redaction"));
  });

  test("low detail keeps the initial, every 5th and final frames; off keeps none; the verdict is the same", async () => {
    const spec = join(project.dir, "redaction.flow.yaml");
    const low = await runCli(["run", spec, "--recording-detail", "low", "--video"], { cwd: project.dir, env: ENV });
    expect(low.code).toBe(0);
    const lowReport = json<RunReport>(join(runDirOf(low.stdout, project.dir), "result.json"));
    // initial + after the 5th step (which is also the final state)
    expect(lowReport.recording!.frames.length).toBe(2);
    expect(lowReport.recording!.gif).toBe("recording.gif");
    const off = await runCli(["run", spec, "--recording-detail", "off", "--video"], { cwd: project.dir, env: ENV });
    expect(off.code).toBe(0);
    const offDir = runDirOf(off.stdout, project.dir);
    const offReport = json<RunReport>(join(offDir, "result.json"));
    expect(offReport.passed).toBe(true);
    expect(offReport.recording).toBeUndefined();
    expect(existsSync(join(offDir, "recording"))).toBe(false);
    expect(existsSync(join(offDir, "recording.gif"))).toBe(false);
  });

  test("--highlight-cursor on a drag marks both ends on the pre-action checkpoint, and shares boundary captures", async () => {
    const drag = tmpProject();
    projects.push(drag);
    const spec = drag.write(
      "drag.flow.yaml",
      [
        "name: Drag marked",
        "app: web",
        `url: ${server.url}/drag.html`,
        "steps:",
        '  - rules: Drag "Card" onto "Bin"',
        "  - assert: page shows dropped card-1",
        "",
      ].join("\n"),
    );
    const rec = await runCli(["record", spec], { cwd: drag.dir, env: {} });
    expect(rec.code).toBe(0);
    const run = await runCli(["run", spec, "--highlight-cursor"], { cwd: drag.dir, env: {} });
    expect(run.code).toBe(0);
    const dir = runDirOf(run.stdout, drag.dir);
    const report = json<RunReport>(join(dir, "result.json"));
    const [dragRange, assertRange] = report.recording!.steps;
    const own = (r: { start_ms: number; end_ms: number }) => report.recording!.frames.filter((f) => f.offset_ms >= r.start_ms && f.offset_ms <= r.end_ms);
    // before, pointer checkpoint, after
    const frames = own(dragRange!);
    expect(frames.length).toBe(3);
    const haloRows = (file: string) => {
      const img = decodePng(readFileSync(join(dir, file)));
      const rows = new Set<number>();
      for (let y = 0; y < img.height; y++) {
        for (let x = 0; x < img.width; x++) {
          const i = (y * img.width + x) * 4;
          if (img.data[i] === 255 && img.data[i + 1] === 0 && img.data[i + 2] === 200) rows.add(y);
        }
      }
      return [...rows].sort((a, b) => a - b);
    };
    expect(haloRows(frames[0]!.file)).toEqual([]);
    const rows = haloRows(frames[1]!.file);
    // Two rings, one on the card and one on the bin: their rows form two separate bands.
    const gaps = rows.slice(1).filter((y, i) => y - rows[i]! > 1);
    expect(rows.length).toBeGreaterThan(80);
    expect(gaps.length).toBe(1);
    // The drag's after-frame is the assertion's before-frame: one capture, the same picture.
    const afterDrag = frames[2]!;
    const beforeAssert = own(assertRange!)[0]!;
    expect(afterDrag.offset_ms).toBeLessThan(beforeAssert.offset_ms);
    expect(readFileSync(join(dir, afterDrag.file)).equals(readFileSync(join(dir, beforeAssert.file)))).toBe(true);
  });

  test("a frame never shows a later step's input: each action's before-frame has the old colour, its after-frame the new", async () => {
    // Each assertion ends at once, so its after-frame is still being read back when the next
    // action starts; the action must wait for it (the driver holds input until it is in).
    const paint = tmpProject();
    projects.push(paint);
    const steps: string[] = [];
    for (let n = 1; n <= 4; n++) steps.push(`  - assert: page shows Painted ${n - 1}`, `  - rules: Click "Paint ${n}"`);
    steps.push("  - assert: page shows Painted 4", '  - rules: Type a into the "Shade" field', "  - assert: page shows Painted 5");
    const spec = paint.write("paint.flow.yaml", ["name: Paint", "app: web", `url: ${server.url}/paint.html`, "steps:", ...steps, ""].join("\n"));
    expect((await runCli(["record", spec], { cwd: paint.dir, env: {} })).code).toBe(0);
    const run = await runCli(["run", spec], { cwd: paint.dir, env: {} });
    expect(run.code).toBe(0);
    const dir = runDirOf(run.stdout, paint.dir);
    const report = json<RunReport>(join(dir, "result.json"));
    const colours: Array<readonly [number, number, number]> = [
      [0, 0, 0],
      [200, 0, 0],
      [0, 200, 0],
      [0, 0, 200],
      [200, 200, 0],
      [0, 200, 200],
    ];
    const corner = { x: 2, y: 2, width: 20, height: 20 };
    const ranges = report.recording!.steps;
    let actions = 0;
    for (const [i, range] of ranges.entries()) {
      const own = report.recording!.frames.filter((f) => f.offset_ms >= range.start_ms && f.offset_ms <= range.end_ms);
      expect(own.length).toBe(2);
      const intent = report.steps[i]!.intent;
      const m = /Paint (\d)|Shade/.exec(intent);
      if (!m) continue;
      actions++;
      const n = m[1] ? Number(m[1]) : 5;
      const [before, after] = own.map((f) => decodePng(readFileSync(join(dir, f.file))));
      expect({ intent, before: isUniform(before!, corner, colours[n - 1]!) }).toEqual({ intent, before: true });
      expect({ intent, after: isUniform(after!, corner, colours[n]!) }).toEqual({ intent, after: true });
    }
    expect(actions).toBe(5);
  });

  test("frames of an emulated mobile page (DPR 3) leave the page as emulated: the click after them lands", async () => {
    // Chromium swaps the emulation for each capture; overlapping captures would leave it wrong.
    const mobile = tmpProject();
    projects.push(mobile);
    const spec = mobile.write(
      "mobile.flow.yaml",
      [
        "name: Mobile",
        "app: web",
        `url: ${server.url}/shaping.html`,
        "browser:",
        "  viewport: { width: 390, height: 844, device_scale_factor: 3, mobile: true, touch: true }",
        "steps:",
        "  - assert: page shows width = 390",
        "  - assert: page shows dpr = 3",
        '  - rules: Click "Add to cart"',
        "  - assert: page shows cart now",
        "  - assert: page shows width = 390",
        "",
      ].join("\n"),
    );
    const rec = await runCli(["record", spec], { cwd: mobile.dir, env: {} });
    expect(rec.stderr).not.toContain("FAILED");
    expect(rec.code).toBe(0);
    const run = await runCli(["run", spec], { cwd: mobile.dir, env: {} });
    expect(run.code).toBe(0);
    const report = json<RunReport>(join(runDirOf(run.stdout, mobile.dir), "result.json"));
    const first = decodePng(readFileSync(join(runDirOf(run.stdout, mobile.dir), report.recording!.frames[0]!.file)));
    expect([first.width, first.height]).toEqual([1170, 2532]);
  });

  test("report.html opened in headless Chromium loads nothing from the network, and clicking a step shows its frames", async () => {
    expect(runDir).not.toBe("");
    const report = json<RunReport>(join(runDir, "result.json"));
    const browser = await launchBrowser(requireChromium());
    const connection = await Connection.connect(browser.wsUrl);
    try {
      const { targetId } = await connection.send("Target.createTarget", { url: "about:blank" });
      const { sessionId } = await connection.send("Target.attachToTarget", { targetId, flatten: true });
      const s = connection.session(sessionId);
      const requested: string[] = [];
      s.on("Network.requestWillBeSent", (p) => requested.push(p.request.url));
      // Every request is intercepted: file: URLs continue, anything else is refused and recorded.
      s.on("Fetch.requestPaused", (p) => {
        const local = p.request.url.startsWith("file:");
        void (
          local
            ? s.send("Fetch.continueRequest", { requestId: p.requestId })
            : s.send("Fetch.failRequest", { requestId: p.requestId, errorReason: "BlockedByClient" })
        ).catch(() => undefined);
      });
      await Promise.all([
        s.send("Network.enable"),
        s.send("Page.enable"),
        s.send("Runtime.enable"),
        s.send("Fetch.enable", { patterns: [{ urlPattern: "*" }] }),
      ]);
      await s.send("Emulation.setDeviceMetricsOverride", { width: 1400, height: 900, deviceScaleFactor: 1, mobile: false });
      const loaded = s.waitFor("Page.loadEventFired", 20_000);
      await s.send("Page.navigate", { url: `file://${join(runDir, "report.html")}` });
      await loaded;
      const evaluate = async <T>(expression: string): Promise<T> =>
        (await s.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true })).result.value as T;

      expect(await evaluate<string>("document.querySelector('h1').textContent")).toBe("PASSRedaction");
      // Click the 4th step's row with a real mouse event.
      const box = await evaluate<{ x: number; y: number }>(
        "(() => { const r = document.querySelector('tr[data-step=s0004]'); r.scrollIntoView(); const b = r.getBoundingClientRect(); return { x: b.left + b.width / 2, y: b.top + b.height / 2 }; })()",
      );
      await s.send("Input.dispatchMouseEvent", { type: "mousePressed", x: box.x, y: box.y, button: "left", clickCount: 1 });
      await s.send("Input.dispatchMouseEvent", { type: "mouseReleased", x: box.x, y: box.y, button: "left", clickCount: 1 });
      const shown = await evaluate<{ visible: string[]; images: Array<{ src: string; w: number; cls: string }> }>(`(async () => {
        const visible = Array.from(document.querySelectorAll("section.step-frames")).filter((p) => !p.hidden).map((p) => p.dataset.step);
        const imgs = Array.from(document.querySelectorAll("section.step-frames:not([hidden]) img"));
        await Promise.all(imgs.map((i) => i.decode().catch(() => undefined)));
        return { visible, images: imgs.map((i) => ({ src: i.getAttribute("src"), w: i.naturalWidth, cls: i.parentElement.className })) };
      })()`);
      const range = report.recording!.steps[3]!;
      const expected = report.recording!.frames.filter((f) => f.offset_ms >= range.start_ms && f.offset_ms <= range.end_ms).map((f) => f.file);
      expect(shown.visible).toEqual(["s0004"]);
      expect(shown.images.map((i) => i.src)).toEqual(expected);
      expect(shown.images.map((i) => i.cls)).toEqual(["frame before", "frame pointer", "frame after"]);
      expect(shown.images.every((i) => i.w === 1280)).toBe(true);
      const gifWidth = await evaluate<number>(
        "(async () => { const g = document.querySelector('details.gif img'); document.querySelector('details.gif').open = true; await g.decode(); return g.naturalWidth; })()",
      );
      expect(gifWidth).toBe(880);
      expect(requested.length).toBeGreaterThan(0);
      expect(requested.filter((u) => !u.startsWith("file:"))).toEqual([]);
    } finally {
      await connection.close().catch(() => undefined);
      await browser.close();
    }
  });
});
