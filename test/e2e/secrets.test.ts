// Secrets through the real CLI and real Chromium, with a canary holding `& < > " + / =`: no file
// a record or a failed replay writes under .flowproof/ (nor the trace, nor stdout/stderr) holds
// it raw, HTML-escaped, URL-encoded, base64-encoded, in another letter case or cut short by a
// truncated message; a plain text field it was typed into is masked in every frame (decoded
// pixel by pixel); and a `redact:` element that moves while a frame is taken is never seen.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { decodePng } from "../../src/recording/image.ts";
import { gifRedColours, redPixels } from "../support/pixels.ts";
import { resealed } from "../support/trace.ts";

const CANARY = `Zq7Can&ry+S3c/"<b>"=9k`;
const ENV = { CANARY, FLOWPROOF_STEP_TIMEOUT_MS: "1000" };

/** The forms a text artifact could hold the canary in. */
function canaryForms(): Array<[string, string]> {
  const html = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  const b64 = Buffer.from(CANARY).toString("base64");
  return [
    ["a prefix (any case)", "zq7can"],
    ["HTML-escaped", html(CANARY)],
    ["HTML-escaped text node", CANARY.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")],
    ["URL-encoded", encodeURIComponent(CANARY)],
    ["form-encoded", new URLSearchParams({ q: CANARY }).toString().slice(2)],
    ["JSON-escaped", JSON.stringify(CANARY).slice(1, -1)],
    ["base64", b64.replace(/=+$/, "")],
    ["URL-safe base64", b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")],
    // The middle of the canary's encoding at each byte alignment (as inside a longer base64 text).
    ...[0, 1, 2].map((skip): [string, string] => [`base64 at alignment ${skip}`, Buffer.from(CANARY.slice(skip, skip + 15)).toString("base64")]),
  ];
}

/** Every form of the canary found in `text`, by name. */
function leaksIn(text: string): string[] {
  const lower = text.toLowerCase();
  return canaryForms()
    .filter(([, form]) => lower.includes(form.toLowerCase()))
    .map(([name]) => name);
}

/** Fails naming each file (and form) that holds the canary. */
function expectNoCanary(project: TmpProject, extra: Record<string, string>): void {
  const files = project.files().filter((f) => f.startsWith(".flowproof/") || f.endsWith(".trace.jsonl"));
  expect(files.some((f) => f.endsWith("debug/dom.html"))).toBe(true);
  const found: Record<string, string[]> = {};
  for (const file of files.filter((f) => !f.endsWith(".png") && !f.endsWith(".gif"))) {
    const leaks = leaksIn(readFileSync(join(project.dir, file), "utf8"));
    if (leaks.length > 0) found[file] = leaks;
  }
  for (const [name, text] of Object.entries(extra)) {
    const leaks = leaksIn(text);
    if (leaks.length > 0) found[name] = leaks;
  }
  expect(found).toEqual({});
}

/** Frames (PNGs) under `.flowproof/` with red pixels, and how many frames were checked. */
function framesShowingRed(project: TmpProject): { checked: number; showing: string[] } {
  const pngs = project.files().filter((f) => f.startsWith(".flowproof/") && f.endsWith(".png"));
  const showing = pngs.filter((f) => redPixels(decodePng(readFileSync(join(project.dir, f)))) > 0);
  return { checked: pngs.length, showing };
}

// The note field draws its text in pure red, so any frame that shows what was typed into it shows
// red pixels. The app echoes the value into the page (masked by `redact: #out`), its title, links
// (URL- and form-encoded), a base64 data attribute and the console: places no file may keep it.
const VAULT = `<!doctype html>
<html><head><title>Vault</title>
<style>
  body { margin: 0; font: 16px sans-serif; background: #fff; color: #000; }
  #note { position: absolute; left: 20px; top: 20px; width: 360px; height: 30px; font-size: 20px; color: #f00; caret-color: transparent; border: 1px solid #000; background: #fff; }
  #save { position: absolute; left: 400px; top: 20px; }
  #out { position: absolute; left: 20px; top: 80px; width: 700px; color: #000; }
</style></head>
<body>
<div id="out">Nothing saved yet</div>
<label for="note" style="position:absolute;left:20px;top:2px">Note</label>
<input id="note" type="text" autocomplete="off">
<button id="save">Save</button>
<script>
  document.getElementById("save").addEventListener("click", () => {
    const v = document.getElementById("note").value;
    document.title = "Vault " + v;
    const out = document.getElementById("out");
    out.textContent = "Saved: " + "x".repeat(100) + " " + v + " end of note";
    out.setAttribute("data-b64", btoa(v));
    out.setAttribute("data-upper", v.toUpperCase());
    const a = document.createElement("a");
    a.href = "/next?q=" + encodeURIComponent(v) + "&" + new URLSearchParams({ f: v });
    a.textContent = "next";
    out.appendChild(a);
    console.log("saved", v, encodeURIComponent(v), btoa(v));
  });
</script>
</body></html>`;

// A narrow red badge masked by `redact:` that races across the page for the first 400 ms of every
// second and then rests. Each lap writes "Lap k" as its race starts and "Rest k" as it ends, so a
// flow can wait for either: a frame taken right after "Lap k" shows is taken while the badge races
// (between the rectangle read before the capture and the one read after it, the badge crosses
// pixels neither rectangle covers), one taken after "Rest k" while it is still.
const MOVING = `<!doctype html>
<html><head><title>Moving</title>
<style>
  body { margin: 0; font: 16px sans-serif; background: #fff; }
  #badge { position: absolute; top: 200px; left: 0; width: 12px; height: 40px; background: #f00; }
</style></head>
<body>
<p>Moving badge</p>
<div id="log"></div>
<div id="badge"></div>
<script>
  const badge = document.getElementById("badge");
  const log = document.getElementById("log");
  const LAP = 1000, RACE = 400;
  const started = performance.now();
  let noted = 0;
  const note = (text) => { const line = document.createElement("div"); line.textContent = text; log.appendChild(line); };
  const move = () => {
    const t = performance.now() - started;
    const lap = Math.floor(t / LAP), into = t % LAP;
    if (lap >= 1 && noted < lap * 2 - 1) { note("Lap " + lap); noted = lap * 2 - 1; }
    if (lap >= 1 && into >= RACE && noted < lap * 2) { note("Rest " + lap); noted = lap * 2; }
    badge.style.left = (((lap * RACE + Math.min(into, RACE)) * 2) % 700) + "px";
    requestAnimationFrame(move);
  };
  requestAnimationFrame(move);
</script>
</body></html>`;

let server: TestServer;
const projects: TmpProject[] = [];
beforeAll(async () => {
  requireChromium();
  server = await startServer();
  server.setRoute("/vault.html", () => new Response(VAULT, { headers: { "content-type": "text/html; charset=utf-8" } }));
  server.setRoute("/moving.html", () => new Response(MOVING, { headers: { "content-type": "text/html; charset=utf-8" } }));
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

/** A record of the vault flow, then a replay that fails on the page text: once per file. */
let vault: Promise<{ p: TmpProject; rec: { stdout: string; stderr: string }; run: { code: number; stdout: string; stderr: string } }> | undefined;
function recordAndFailVault() {
  vault ??= (async () => {
    const p = project();
    const spec = p.write(
      "vault.flow.yaml",
      [
        "name: Vault",
        "app: web",
        `url: ${server.url}/vault.html`,
        "redact:",
        '  - target: { css: "#out" }',
        "    mode: mask",
        "steps:",
        '  - rules: Type ${CANARY} into the "Note" field',
        '  - rules: Click "Save"',
        "  - assert: page shows Saved",
        "",
      ].join("\n"),
    );
    const rec = await runCli(["record", spec, "--video"], { cwd: p.dir, env: ENV });
    if (rec.code !== 0) throw new Error(`record failed: ${rec.stderr}`);
    // The app changed its wording: the replay fails on the page text, which holds the canary
    // right where a 120-character cut would fall.
    const tracePath = join(p.dir, "vault.trace.jsonl");
    const trace = readFileSync(tracePath, "utf8");
    if (!trace.includes('"Saved"')) throw new Error("the trace does not hold the assertion text");
    writeFileSync(tracePath, resealed(trace.replace('"Saved"', '"Stored"')));
    const run = await runCli(["run", spec, "--video"], { cwd: p.dir, env: ENV });
    return { p, rec, run };
  })();
  return vault;
}

describe("a canary secret", () => {
  test("reaches no text file of a record and a failed replay (debug files included), in any form, nor a prefix cut by a shortened message", async () => {
    const { p, rec, run } = await recordAndFailVault();
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain("the page shows");
    expect(run.stdout + run.stderr).toContain("${CANARY}");
    expectNoCanary(p, { "record stdout": rec.stdout, "record stderr": rec.stderr, "run stdout": run.stdout, "run stderr": run.stderr });
  });

  test("typed into a plain text field, is masked in every frame of the record and the replay", async () => {
    const { p } = await recordAndFailVault();
    const frames = framesShowingRed(p);
    expect(frames.checked).toBeGreaterThan(4);
    expect(frames.showing).toEqual([]);
    // The GIFs are joined from the same masked images: no frame of either holds a red colour.
    const gifs = p.files().filter((f) => f.endsWith("recording.gif"));
    expect(gifs.length).toBe(2);
    for (const gif of gifs) expect({ gif, red: gifRedColours(readFileSync(join(p.dir, gif))) }).toEqual({ gif, red: 0 });
  });
});

describe("a redact: rule on a moving element", () => {
  test("is masked in every frame kept; a frame taken while it moved is dropped", async () => {
    const p = project();
    // Per lap: a frame taken as the badge starts racing, then three taken while it rests.
    const steps = [1, 2, 3, 4, 5].flatMap((lap) => [
      `  - rules: Wait until page shows Lap ${lap}`,
      `  - rules: Wait until page shows Rest ${lap}`,
      ...Array.from({ length: 3 }, () => "  - assert: page shows Moving badge"),
    ]);
    const spec = p.write(
      "moving.flow.yaml",
      ["name: Moving", "app: web", `url: ${server.url}/moving.html`, "redact:", '  - target: { css: "#badge" }', "    mode: mask", "steps:", ...steps, ""].join(
        "\n",
      ),
    );
    expect((await runCli(["record", spec], { cwd: p.dir, env: ENV })).code).toBe(0);
    // Each replay takes five frames as a race starts: at least one of them is dropped even when a
    // loaded machine starts some capture only after its race ended.
    const dropped: number[] = [];
    for (let i = 0; i < 2; i++) {
      const run = await runCli(["run", spec, "--json"], { cwd: p.dir, env: ENV });
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout) as { report: { recording: { steps: Array<{ frames_dropped?: string }> } } };
      dropped.push(report.report.recording.steps.filter((s) => s.frames_dropped === "redaction").length);
    }
    const frames = framesShowingRed(p);
    expect(frames.checked).toBeGreaterThan(20);
    expect(frames.showing).toEqual([]);
    expect(dropped.every((n) => n > 0)).toBe(true);
  });
});
