// `app: vision` flows through the real CLI, on the vision test bed (the Tk form on a hidden Xvfb
// display, served by x11vnc, shown by TigerVNC's viewer on a second display: the Citrix/RDP
// stand-in). Record, replay (repeated), a regressed app failing, a typed secret masked in frames,
// an `apps:` flow handing values between a web page and the window, the scene tokens a model
// grounds on, and the load-time refusals. One bed for the file; the form restarts per test.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { PNG } from "pngjs";
import { runCli } from "../support/cli.ts";
import { isAlive } from "../support/processes.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { startScriptedModel, type ScriptedModel } from "../support/model-server.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { readTrace } from "../support/trace.ts";
import { BED_START_MS, DESKTOP_NAME, PAY_FLOW, startVisionBed, VIEWER_TITLE, type VisionBed } from "../support/vision-bed.ts";

const WINDOW = `window: {title: "${DESKTOP_NAME}", width: 700, height: 480, x: 0, y: 0}`;
const TOKEN = "tok-4711-Canary";

let bed: VisionBed;
let project: TmpProject;
let model: ScriptedModel;
let server: TestServer;
let pids: number[] = [];

beforeAll(async () => {
  bed = await startVisionBed();
  pids = bed.pids();
  project = tmpProject("flowproof-vision-flows-");
  model = await startScriptedModel();
  server = await startServer();
}, 4 * BED_START_MS);

afterAll(async () => {
  server?.stop();
  model?.stop();
  project?.remove();
  await bed?.stop();
  expect(pids.filter(isAlive)).toEqual([]);
}, 60_000);

const cli = (args: readonly string[], extra: Record<string, string> = {}) =>
  runCli(args, { cwd: project.dir, env: { DISPLAY: bed.viewDisplay, PAYMENT_TOKEN: TOKEN, ...extra } });

interface RunJson {
  report: {
    passed: boolean;
    steps: Array<{ id: string; status: string; detail?: string }>;
    recording?: { frames: Array<{ offset_ms: number; file: string }>; steps: Array<{ id: string; start_ms: number; end_ms: number }> };
  };
  report_path: string;
  run_dir: string;
}

/** Every file under `dir`, as text, for leak checks. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), "latin1"))
    .join("\n");
}

describe("app: vision through the CLI", () => {
  test("records the 7-step flow, then replays it three times with the same verdict; the trace keeps the window, its geometry as applied and each text's box", async () => {
    await bed.startForm();
    const spec = project.write("pay.flow.yaml", PAY_FLOW);
    const rec = await cli(["record", spec, "--author", "rules"]);
    expect(rec.code, rec.stderr).toBe(0);
    expect(rec.stdout).toContain("Recorded 'Pay a vendor through the remote desktop': 7 steps -> pay.trace.jsonl");
    const tracePath = join(project.dir, "pay.trace.jsonl");
    expectValidTrace(tracePath);
    const { header, steps } = readTrace<
      { app: Record<string, unknown> },
      { selectors: Array<{ tier: string; provenance: string; payload: Record<string, unknown> }> }
    >(tracePath);
    expect(header.app).toMatchObject({
      adapter: "vision",
      window: { title: DESKTOP_NAME, width: 700, height: 480, x: 0, y: 0 },
      window_title: VIEWER_TITLE,
      platform: "x11",
      geometry: { x: 0, y: 0, width: 700, height: 480 },
      geometry_pinned: true,
      ocr: { engine: "tesseract.js 7" },
    });
    const save = steps[2]!.selectors[0]!;
    expect(save).toMatchObject({ tier: "text_anchor", provenance: "recorder", payload: { text: "Save", window: { width: 700, height: 480 } } });
    expect(steps[0]!.selectors[0]!.payload).toMatchObject({ text: "Payee", field_box: { x: 140, y: 62, width: 264, height: 28 } });

    await bed.startForm();
    const run = await cli(["run", spec, "--repeat-each", "3", "--json"]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as RunJson & { report: { repeat: { outcomes: string[] } } };
    expectValidResult(out.report_path);
    expect(out.report.repeat.outcomes).toEqual(["passed", "passed", "passed"]);
    expect(out.report.steps.map((s) => s.status)).toEqual(Array(7).fill("passed"));
  }, 240_000);

  test("a regressed app fails the replay at the step whose text is gone, naming the text recorded there and the nearest texts seen", async () => {
    await bed.startForm("regressed");
    try {
      const run = await cli(["run", join(project.dir, "pay.flow.yaml"), "--json"]);
      expect(run.code, run.stderr).toBe(1);
      const out = JSON.parse(run.stdout) as RunJson;
      expectValidResult(out.report_path);
      expect(out.report.passed).toBe(false);
      expect(out.report.steps.map((s) => s.status)).toEqual(["passed", "passed", "failed", "skipped", "skipped", "skipped", "skipped"]);
      expect(out.report.steps[2]!.detail).toMatch(
        /no text "Save" in the window \(recorded at \d+,\d+, \d+×\d+; the window shows "Submit" there now\); nearest texts seen: "/,
      );
      // What OCR saw is kept beside the frames: the lines it read and the fields it found.
      const dom = readFileSync(join(dirname(out.report_path), "debug", "dom.html"), "utf8");
      expect(dom).toMatch(/<pre>window ".*" 700×480, read by OCR: \d+ lines in reading order\n/);
      expect(dom).toMatch(/line "Submit" at \d+,\d+ \d+×\d+ \(words: "Submit" \d+%\)/);
      expect(dom).toMatch(/"Payee" → box at 140,\d+ 264×28 \(right of the label\)/);
    } finally {
      await bed.startForm();
    }
  }, 120_000);

  test("`window:` may name the title alone: the window is attached as it is, and the trace keeps the form written", async () => {
    const spec = project.write(
      "title-only.flow.yaml",
      ["name: Title only", "app: vision", `window: "${DESKTOP_NAME}"`, "steps:", '  - rules: Click "Clear"', "  - assert: page shows Payee", ""].join("\n"),
    );
    const rec = await cli(["record", spec]);
    expect(rec.code, rec.stderr).toBe(0);
    const trace = readTrace(spec.replace(/\.flow\.yaml$/, ".trace.jsonl"));
    expect(JSON.stringify(trace.header)).toContain(JSON.stringify(DESKTOP_NAME));
    const run = await cli(["run", spec, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as RunJson).report.steps.map((st) => st.status)).toEqual(["passed", "passed"]);
  }, 120_000);

  test("a typed ${VAR} secret and a `redact:` text are masked in every frame kept; the secret reaches no file", async () => {
    await bed.startForm();
    const spec = project.write(
      "token.flow.yaml",
      [
        "name: Pay with a token",
        "app: vision",
        WINDOW,
        "redact:",
        "  - target: { text: Invoice 1001 }",
        "steps:",
        '  - rules: Type ACME Ltd into the "Payee" field',
        '  - rules: Type ${PAYMENT_TOKEN} into the "Token" field',
        '  - rules: Click "Save"',
        "  - assert: page shows Saved ACME Ltd",
        "",
      ].join("\n"),
    );
    const rec = await cli(["record", spec, "--author", "rules"]);
    expect(rec.code, rec.stderr).toBe(0);
    await bed.startForm();
    const run = await cli(["run", spec, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as RunJson;
    const recording = out.report.recording!;
    const frames = recording.frames.map((f) => ({ ...f, png: PNG.sync.read(Buffer.from(readFileSync(join(out.run_dir, f.file)))) }));
    expect(frames.length).toBeGreaterThan(2);
    const pixel = (png: PNG, x: number, y: number) => [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3)];
    // "Invoice 1001" (its label at 24,350) is black in every frame.
    for (const f of frames) expect(pixel(f.png, 40, 358), f.file).toEqual([0, 0, 0]);
    // From the token step on, the Token field (140,142 264×28) is black; before it, it is white.
    const tokenStep = recording.steps.find((s) => s.id === "s0002")!;
    const after = frames.filter((f) => f.offset_ms >= tokenStep.end_ms);
    expect(after.length).toBeGreaterThan(0);
    for (const f of after) expect(pixel(f.png, 200, 156), f.file).toEqual([0, 0, 0]);
    expect(pixel(frames[0]!.png, 200, 156)).toEqual([255, 255, 255]);
    // The rest of the window is not masked: the Payee field shows white around its text.
    expect(pixel(after.at(-1)!.png, 390, 66)).toEqual([255, 255, 255]);
    expect(allText(project.dir).includes(TOKEN)).toBe(false);
  }, 180_000);

  test("an `apps:` flow hands values from a web page to the window and back: one capture namespace, one trace, one verdict", async () => {
    await bed.startForm();
    server.setRoute(
      "/portal.html",
      () =>
        new Response(
          [
            "<!doctype html><title>Vendor portal</title>",
            '<p>Vendor: <span id="vendor">ACME Ltd</span></p><p>Amount due: <span id="amount">42.50</span></p>',
            "<label>Receipt <input id=\"receipt\"></label><button onclick=\"document.getElementById('out').textContent = 'Confirmed: ' + document.getElementById('receipt').value\">Confirm</button>",
            '<p id="out"></p>',
          ].join(""),
          { headers: { "content-type": "text/html; charset=utf-8" } },
        ),
    );
    const spec = project.write(
      "handoff.flow.yaml",
      [
        "name: Pay what the portal lists, confirm it there",
        "apps:",
        '  portal: {app: web, url: "${PORTAL_URL}/portal.html"}',
        `  desk: {app: vision, ${WINDOW}}`,
        "steps:",
        "  - in: portal",
        "    steps:",
        '      - rules: Remember the "id:vendor" as vendor',
        '      - rules: Remember the "id:amount" as amount',
        "  - in: desk",
        "    steps:",
        '      - rules: Type ${captured.vendor} into the "Payee" field',
        '      - rules: Type ${captured.amount} into the "Amount" field',
        '      - rules: Click "Save"',
        "      - assert: page shows Saved ACME Ltd, 42.50",
        '      - rules: Remember the "Saved" as receipt',
        "  - in: portal",
        "    steps:",
        '      - rules: Type ${captured.receipt} into the "Receipt" field',
        '      - rules: Press the "Confirm" button',
        "      - assert: 'page shows Confirmed: Saved ACME Ltd, 42.50'",
        "  - in: desk",
        "    steps:",
        '      - rules: Click "Clear"',
        "      - assert: page shows Nothing saved yet",
        "",
      ].join("\n"),
    );
    const env = { PORTAL_URL: server.url };
    const rec = await cli(["record", spec, "--author", "rules"], env);
    expect(rec.code, rec.stdout + rec.stderr).toBe(0);
    const tracePath = join(project.dir, "handoff.trace.jsonl");
    expectValidTrace(tracePath);
    const { header, steps } = readTrace<{ apps: Record<string, Record<string, unknown>> }, { surface?: string }>(tracePath);
    expect(header.apps["desk"]).toMatchObject({ adapter: "vision", window: { title: DESKTOP_NAME }, geometry: { width: 700, height: 480 } });
    expect(header.apps["portal"]).toMatchObject({ adapter: "web", url: "${PORTAL_URL}/portal.html" });
    expect(steps.map((s) => s.surface)).toEqual(["portal", "portal", "desk", "desk", "desk", "desk", "desk", "portal", "portal", "portal", "desk", "desk"]);
    await bed.startForm();
    const run = await cli(["run", spec, "--json"], env);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as RunJson;
    expectValidResult(out.report_path);
    expect(out.report.steps.map((s) => s.status)).toEqual(Array(12).fill("passed"));
  }, 240_000);

  test("a plain step is grounded by the model on the window's scene tokens (fields with their values, texts in reading order), never seeing a typed secret; replay asks no model", async () => {
    await bed.startForm();
    const FILL = "Enter the amount due, 42.50";
    const SAVE = "Save the payment";
    model.script(FILL, JSON.stringify({ action: "type_text", target: "text:Amount", text: "42.50" }));
    model.script(SAVE, JSON.stringify({ action: "click", target: "text:Save" }));
    const spec = project.write(
      "author.flow.yaml",
      [
        "name: Pay by intent",
        "app: vision",
        WINDOW,
        "steps:",
        '  - rules: Type ACME Ltd into the "Payee" field',
        '  - rules: Type ${PAYMENT_TOKEN} into the "Token" field',
        `  - ${FILL}`,
        `  - ${SAVE}`,
        "  - assert: page shows Saved ACME Ltd, 42.50",
        '  - rules: Click "Clear"',
        "",
      ].join("\n"),
    );
    const rec = await cli(["record", spec], model.env());
    expect(rec.code, rec.stdout + rec.stderr).toBe(0);
    const request = model.requests.find((r) => r.step === FILL)!;
    const prompt = request.body.messages.map((m) => m.content).join("\n");
    const lines = prompt.split("\n");
    const scene = lines
      .slice(lines.indexOf("SCENE:") + 1)
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(scene.slice(0, 4)).toEqual([
      { target: "text:Payee", tag: "field", type: "text", actionable: true, label: "Payee", value: "ACME Ltd" },
      { target: "text:Amount", tag: "field", type: "text", actionable: true, label: "Amount", value: "" },
      { target: "text:Token", tag: "field", type: "text", actionable: true, label: "Token" },
      { target: "text:Notes", tag: "field", type: "text", actionable: true, label: "Notes", value: "" },
    ]);
    const texts = scene.slice(4).map((e) => e["target"]);
    expect(texts.slice(0, 4)).toEqual(["text:Vendor payment", "text:Save", "text:Clear", "text:Nothing saved yet"]);
    expect(scene.find((e) => e["target"] === "text:Pay")).toMatchObject({ count: 3 });
    expect(model.requests.some((r) => r.raw.includes(TOKEN))).toBe(false);
    const { steps } = readTrace<unknown, { action: { type: string }; selectors: Array<{ payload: Record<string, unknown> }> }>(
      join(project.dir, "author.trace.jsonl"),
    );
    expect(steps[2]!.action.type).toBe("type_text");
    expect(steps[2]!.selectors.at(-1)!.payload).toMatchObject({ text: "Amount" });
    const before = model.requests.length;
    await bed.startForm();
    const run = await cli(["run", spec]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(model.requests.length).toBe(before);
  }, 240_000);
});

describe("what a vision flow cannot say is refused when it loads", () => {
  test("the Windows spellings, css targets and steps a window's pixels cannot do, each naming what to write", async () => {
    const spec = project.write(
      "bad.flow.yaml",
      [
        "name: Bad",
        "app: vision",
        "window_title: Payments",
        "steps:",
        '  - rules: Click "css:#save"',
        '  - rules: Select Gold from the "Plan" dropdown',
        "  - assert: page url contains /pay",
        "",
      ].join("\n"),
    );
    const r = await cli(["validate", spec]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("bad.flow.yaml:3:1: error[unknown-key] a vision app names its window with `window.title`, not `window_title`");
    expect(r.stderr).toContain('hint: window: {title: "Payments", width: 700, height: 480}');
    expect(r.stderr).toContain(
      "bad.flow.yaml:5:18: error[unsupported-step] A `css:` selector cannot be used on a window seen only as pixels: it has no CSS selectors (grammar form `css`).",
    );
    expect(r.stderr).toContain(
      '`Select Gold from the "Plan" dropdown` needs the select capability, which a window seen only as pixels (`app: vision`) does not have',
    );
    expect(r.stderr).toContain(
      "bad.flow.yaml:7:13: error[unsupported-step] `page url` cannot be checked on a window seen only as pixels: it has no page address (grammar form `page_url`).",
    );
    const windows = project.write(
      "win.flow.yaml",
      "name: W\napp: {command: app.exe, window_title: Payments}\nwindow: {title: Payments, width: 700, height: 480}\nsteps:\n  - rules: Press Enter\n",
    );
    const w = await cli(["validate", windows]);
    expect(w.code).toBe(2);
    expect(w.stderr).toContain("win.flow.yaml:3:10: error[");
    expect(w.stderr).toContain("`window.title` is for vision apps; a Windows app's window is found by `app.window_title`");
  });

  test("a missing OCR model stops the run before any step (no-ocr-model), naming where it looked", async () => {
    const nowhere = join(project.dir, "no-model", "eng.traineddata.gz");
    const spec = join(project.dir, "pay.flow.yaml");
    const message = `no OCR model found; looked in: FLOWPROOF_OCR_MODEL (${nowhere}: not there)`;
    const rec = await cli(["record", spec, "--author", "rules", "--json"], { FLOWPROOF_OCR_MODEL: nowhere });
    expect(rec.code).toBe(2);
    const error = (JSON.parse(rec.stdout) as { error: { code: string; message: string; diagnostics: { hint: string }[] } }).error;
    expect(error).toMatchObject({ code: "no-ocr-model", message });
    expect(error.diagnostics[0]!.hint).toContain("set FLOWPROOF_OCR_MODEL to the model file");
    const run = await cli(["run", spec, "--json"], { FLOWPROOF_OCR_MODEL: nowhere });
    expect(run.code).toBe(2);
    const out = JSON.parse(run.stdout) as { report: { outcome: string; error: string }; hint: string };
    expect(out.report).toMatchObject({ outcome: "errored", error: message });
    expect(out.hint).toContain("@tesseract.js-data/eng");
  }, 60_000);
});
