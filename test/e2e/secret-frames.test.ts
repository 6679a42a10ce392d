// A secret the page shows is masked in every frame, through the real CLI and real Chromium. The
// page echoes a typed `${VAR}` password after a click, drawn in pure red everywhere it shows it:
// split across elements, in capitals, as a field's value and a placeholder, through CSS `attr()`,
// inside an open shadow root and a slot, in a same-origin frame and as a dropdown's choice. Every
// kept frame (PNG) of the record and of a `--video` run, and every GIF palette, is decoded and
// must hold no red pixel, while the frames after the click are kept. A `redact:` text naming a
// `${VAR}` masks a value the page shows that no step typed, and its value reaches no text file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { decodePng } from "../../src/recording/image.ts";
import { gifRedColours, redPixels } from "../support/pixels.ts";
import type { RunReport } from "../../src/report/schema.ts";

const PASSWORD = "Pw-Secret-4471";
const ACCOUNT = "ACCT-99-1234-77";

const ECHO = `<!doctype html>
<html><head><title>Echo</title>
<style>
  body { margin: 0; font: bold 22px sans-serif; background: #fff; color: #000; }
  .red, .red::placeholder, .attr::after { color: #f00; }
  .attr::after { content: attr(data-shown); }
  input { font: inherit; }
  #fields { position: absolute; left: 10px; top: 10px; }
  #echo { position: absolute; left: 10px; top: 70px; width: 1000px; }
  #echo > * { display: block; margin: 4px 0; }
  iframe { width: 500px; height: 60px; border: 0; }
</style></head>
<body>
<div id="fields">
  <input id="note" aria-label="Note" autocomplete="off">
  <input id="pw" type="password" aria-label="Password" autocomplete="off">
  <button id="send">Send</button>
</div>
<div id="echo">Nothing sent</div>
<script>
  document.getElementById("send").addEventListener("click", () => {
    const n = document.getElementById("note").value;
    const p = document.getElementById("pw").value;
    const echo = document.getElementById("echo");
    const half = Math.floor(p.length / 2);
    echo.innerHTML =
      '<div id="line">Echo: ' + n + ' / <b class="red">' + p.slice(0, half) + '</b><i class="red">' + p.slice(half) + '</i></div>' +
      '<div class="red" style="text-transform: uppercase">' + p + '</div>' +
      '<input class="red" readonly value="' + p + '"><input class="red" placeholder="' + p + '">' +
      '<div class="attr" data-shown="' + p + '"></div>' +
      '<div id="host"></div><div id="slotted"><span>' + p + '</span></div>' +
      '<iframe id="frame"></iframe>' +
      '<select class="red"><option>' + p + '</option></select>' +
      '<div>Sent</div>';
    document.getElementById("host").attachShadow({ mode: "open" }).innerHTML = '<p class="x" style="color:#f00;margin:0">' + p + '</p>';
    document.getElementById("slotted").attachShadow({ mode: "open" }).innerHTML = '<b style="color:#f00"><slot></slot></b>';
    const doc = document.getElementById("frame").contentDocument;
    doc.body.style.margin = "0";
    doc.body.innerHTML = '<p style="color:#f00;font:bold 22px sans-serif;margin:0">' + p + '</p>';
  });
</script>
</body></html>`;

/** A statement page that shows an account number no step types: only a `redact:` rule names it. */
const STATEMENT = `<!doctype html>
<html><head><title>Statement</title>
<style>body { margin: 0; font: bold 22px sans-serif; } #acct { color: #f00; }</style></head>
<body><h1>Statement</h1><p>Account <span id="acct">${ACCOUNT}</span></p><button>Refresh</button></body></html>`;

let server: TestServer;
const projects: TmpProject[] = [];
beforeAll(async () => {
  requireChromium();
  server = await startServer();
  server.setRoute("/echo.html", () => new Response(ECHO, { headers: { "content-type": "text/html; charset=utf-8" } }));
  server.setRoute("/statement.html", () => new Response(STATEMENT, { headers: { "content-type": "text/html; charset=utf-8" } }));
});
afterAll(() => {
  server.stop();
  for (const p of projects) p.remove();
});

function project(): TmpProject {
  const p = tmpProject();
  projects.push(p);
  return p;
}

/** Every kept frame of the project's bundles (PNGs) with red pixels, how many were checked, and the GIFs' red palette colours. */
function redIn(p: TmpProject): { checked: number; showing: string[]; gifs: Record<string, number> } {
  const pngs = p.files().filter((f) => f.startsWith(".flowproof/") && f.endsWith(".png"));
  const showing = pngs.filter((f) => redPixels(decodePng(readFileSync(join(p.dir, f)))) > 0);
  const gifs = Object.fromEntries(
    p
      .files()
      .filter((f) => f.endsWith(".gif"))
      .map((f) => [f, gifRedColours(readFileSync(join(p.dir, f)))]),
  );
  return { checked: pngs.length, showing, gifs };
}

/** The run's result.json. */
function resultOf(p: TmpProject, stdout: string): RunReport {
  const out = JSON.parse(stdout) as { run_dir: string };
  return JSON.parse(readFileSync(join(out.run_dir.startsWith("/") ? out.run_dir : join(p.dir, out.run_dir), "result.json"), "utf8")) as RunReport;
}

describe("a secret the page echoes", () => {
  test("is masked in every frame of the record and a --video run, wherever and however the page shows it, and the frames after the click are kept", async () => {
    const p = project();
    const spec = p.write(
      "echo.flow.yaml",
      [
        "name: Echo",
        "app: web",
        `url: ${server.url}/echo.html`,
        "steps:",
        '  - rules: Type hello into the "Note" field',
        '  - rules: Type ${CANARY_PW} into the "Password" field',
        '  - rules: Click "Send"',
        "  - assert: page shows Sent",
        "  - assert: page shows Echo",
        "",
      ].join("\n"),
    );
    const env = { CANARY_PW: PASSWORD };
    const rec = await runCli(["record", spec, "--video"], { cwd: p.dir, env });
    expect({ code: rec.code, stderr: rec.code === 0 ? "" : rec.stderr }).toEqual({ code: 0, stderr: "" });
    const run = await runCli(["run", spec, "--video", "--json"], { cwd: p.dir, env });
    expect(run.code).toBe(0);
    const report = resultOf(p, run.stdout);
    // The click's after-frame and every later frame were kept, not dropped.
    expect(report.recording!.steps.map((s) => s.frames_dropped ?? "kept")).toEqual(["kept", "kept", "kept", "kept", "kept"]);
    const last = report.recording!.steps.at(-1)!;
    expect(report.recording!.frames.filter((f) => f.offset_ms >= last.start_ms).length).toBeGreaterThan(0);
    const red = redIn(p);
    expect(red.checked).toBeGreaterThan(8);
    expect(red.showing).toEqual([]);
    expect(Object.keys(red.gifs).length).toBe(2);
    expect(Object.values(red.gifs)).toEqual([0, 0]);
    // The rest of the echo (not a secret) still shows.
    for (const f of p.files().filter((f) => f.endsWith(".trace.jsonl") || f.endsWith(".json") || f.endsWith(".html"))) {
      expect({ f, leaked: readFileSync(join(p.dir, f), "utf8").toLowerCase().includes(PASSWORD.toLowerCase()) }).toEqual({ f, leaked: false });
    }
  });
});

describe("a password typed as written", () => {
  test("is masked wherever the page echoes it, as a `${VAR}` one is", async () => {
    const p = project();
    const spec = p.write(
      "literal.flow.yaml",
      [
        "name: Literal",
        "app: web",
        `url: ${server.url}/echo.html`,
        "steps:",
        '  - rules: Type hello into the "Note" field',
        '  - rules: Type Lit-Pass-9931 into the "Password" field',
        '  - rules: Click "Send"',
        "  - assert: page shows Sent",
        "",
      ].join("\n"),
    );
    const rec = await runCli(["record", spec], { cwd: p.dir });
    expect({ code: rec.code, stderr: rec.code === 0 ? "" : rec.stderr }).toEqual({ code: 0, stderr: "" });
    const run = await runCli(["run", spec, "--json"], { cwd: p.dir });
    expect(run.code).toBe(0);
    expect(resultOf(p, run.stdout).recording!.steps.every((s) => s.frames_dropped === undefined)).toBe(true);
    const red = redIn(p);
    expect(red.checked).toBeGreaterThan(5);
    expect(red.showing).toEqual([]);
  });
});

describe("a redact: text naming a ${VAR}", () => {
  test("masks the value the page shows, though no step typed it, and the value reaches no text file", async () => {
    const p = project();
    const spec = p.write(
      "statement.flow.yaml",
      [
        "name: Statement",
        "app: web",
        `url: ${server.url}/statement.html`,
        "redact:",
        '  - target: { text: "${ACCOUNT_NO}" }',
        "steps:",
        '  - rules: Click "Refresh"',
        "  - assert: page shows Statement",
        "",
      ].join("\n"),
    );
    const env = { ACCOUNT_NO: ACCOUNT };
    const rec = await runCli(["record", spec], { cwd: p.dir, env });
    expect({ code: rec.code, stderr: rec.code === 0 ? "" : rec.stderr }).toEqual({ code: 0, stderr: "" });
    const run = await runCli(["run", spec, "--video", "--json"], { cwd: p.dir, env });
    expect(run.code).toBe(0);
    const report = resultOf(p, run.stdout);
    expect(report.recording!.steps.every((s) => s.frames_dropped === undefined)).toBe(true);
    const red = redIn(p);
    expect(red.checked).toBeGreaterThan(2);
    expect(red.showing).toEqual([]);
    expect(Object.values(red.gifs)).toEqual([0]);
    const trace = readFileSync(join(p.dir, "statement.trace.jsonl"), "utf8");
    expect(trace).toContain('"text":"${ACCOUNT_NO}"');
    for (const f of p.files().filter((f) => !f.endsWith(".png") && !f.endsWith(".gif"))) {
      expect({ f, leaked: readFileSync(join(p.dir, f), "utf8").includes(ACCOUNT) }).toEqual({ f, leaked: false });
    }
  });

  test("whose variable is not set keeps no frame, and the result says why", async () => {
    const p = project();
    const spec = p.write(
      "statement.flow.yaml",
      [
        "name: Statement",
        "app: web",
        `url: ${server.url}/statement.html`,
        "redact:",
        '  - target: { text: "${ACCOUNT_NO}" }',
        "steps:",
        "  - assert: page shows Statement",
        "",
      ].join("\n"),
    );
    const rec = await runCli(["record", spec], { cwd: p.dir, env: { ACCOUNT_NO: ACCOUNT } });
    expect({ code: rec.code, stderr: rec.code === 0 ? "" : rec.stderr }).toEqual({ code: 0, stderr: "" });
    const run = await runCli(["run", spec, "--json"], { cwd: p.dir, env: { ACCOUNT_NO: undefined } });
    expect(run.code).toBe(0);
    const report = resultOf(p, run.stdout);
    expect(report.recording!.frames).toEqual([]);
    expect(report.recording!.steps[0]).toMatchObject({ frames_dropped: "redaction", frames_dropped_why: expect.stringContaining("${ACCOUNT_NO} is not set") });
    const runDir = (JSON.parse(run.stdout) as { run_dir: string }).run_dir;
    expect(readFileSync(join(runDir.startsWith("/") ? runDir : join(p.dir, runDir), "report.html"), "utf8")).toContain("${ACCOUNT_NO} is not set");
  });
});
