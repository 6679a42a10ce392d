// Firefox through the real CLI (WebDriver BiDi): the bundled demo flows, recorded on Chromium,
// replay on Firefox the same three times over; a flow recorded on Chromium replays on Firefox and
// fails at the right step against a mutant page, also when that step's only effect is in the page
// (its own state, the DOM); a recording on Firefox observes every effect kind and names it in the header; a
// secret is masked in Firefox's frames; a missing Firefox is exit 2 with the install command; and
// no Firefox outlives flowproof, even one killed outright.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startDemoServer, type DemoServer } from "../../examples/demo/server.ts";
import { decodePng } from "../../src/recording/image.ts";
import type { RunReport } from "../../src/report/schema.ts";
import { REPO_ROOT, runCli } from "../support/cli.ts";
import { requireFirefox } from "../support/firefox.ts";
import { redPixels } from "../support/pixels.ts";
import { descendants, isAlive } from "../support/processes.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";

const FLOWS = join(import.meta.dir, "..", "..", "examples", "demo", "flows");
const GREETER = (button: string) => `<!doctype html><html><head><title>Greeter</title></head><body>
<label for="who">Your name</label> <input id="who">
<button id="go">${button}</button>
<p id="out">Waiting</p>
<script>document.getElementById("go").addEventListener("click", () => { document.getElementById("out").textContent = "Hello, " + document.getElementById("who").value + "!"; });</script>
</body></html>`;
const ECHO = `<!doctype html><html><head><title>Echo</title>
<style>body { margin: 0; font: bold 22px sans-serif; } .red { color: #f00; } input { font: inherit; }</style></head>
<body><input id="pw" type="password" aria-label="Password" class="red"> <button id="send">Send</button><div id="echo">Nothing sent</div>
<script>document.getElementById("send").addEventListener("click", () => {
  const p = document.getElementById("pw").value;
  document.getElementById("echo").innerHTML = '<div class="red">' + p + '</div><input class="red" readonly value="' + p + '"><div>Sent</div>';
});</script></body></html>`;
const PASSWORD = "Fx-Secret-5813";
/** A disclosure button: its click changes only the page (its own aria-expanded, a panel beside it); the mutant's click does nothing. */
const PANEL = (works: boolean) => `<!doctype html><html><head><title>Panel</title></head><body>
<section><button id="more" aria-expanded="false">Shipping details</button><div id="panel" hidden>Shipping is free</div></section>
<p>Ready</p>
<script>${
  works
    ? `document.getElementById("more").addEventListener("click", (e) => {
  const open = e.currentTarget.getAttribute("aria-expanded") !== "true";
  e.currentTarget.setAttribute("aria-expanded", String(open));
  document.getElementById("panel").hidden = !open;
});`
    : ""
}</script></body></html>`;
const panelFlow = (url: string, browser = "") =>
  [
    "name: Panel",
    "app: web",
    ...(browser ? [`browser: {name: ${browser}}`] : []),
    `url: ${url}`,
    "steps:",
    '  - rules: Click "Shipping details"',
    "  - assert: page shows Ready",
    "",
  ].join("\n");
/** The effect of each step of a trace (its header left out). */
const traceEffects = (p: TmpProject, name: string) =>
  p
    .read(name)
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => (JSON.parse(l) as { effect?: Record<string, unknown> }).effect);
/** A page that reads a mocked API, shows the seeded cookie and storage, takes a file, asks to confirm, and offers a download. */
const SHOP = `<!doctype html><html><head><title>Shop</title></head><body>
<p id="rate">loading</p><p id="seed"></p>
<label>Receipt <input id="file" type="file"></label><p id="picked">no file</p>
<button id="del">Delete</button><p id="deleted">kept</p>
<a href="/export.csv">Export</a>
<script>
  fetch("/api/rates").then((r) => r.json()).then((j) => (document.getElementById("rate").textContent = "Rate " + j.rate));
  document.getElementById("seed").textContent = "Cart " + localStorage.getItem("cart") + " " + (document.cookie.includes("sid=") ? "signed in" : "anonymous");
  document.getElementById("file").addEventListener("change", (e) => (document.getElementById("picked").textContent = "Picked " + e.target.files[0].name));
  document.getElementById("del").addEventListener("click", () => { if (confirm("Delete the order?")) document.getElementById("deleted").textContent = "Deleted"; });
</script></body></html>`;

let demo: DemoServer;
let server: TestServer;
let greeter = GREETER("Greet");
let panel = PANEL(true);
const projects: TmpProject[] = [];
beforeAll(async () => {
  requireFirefox();
  demo = await startDemoServer(0);
  server = await startServer();
  server.setRoute("/greeter.html", () => new Response(greeter, { headers: { "content-type": "text/html; charset=utf-8" } }));
  server.setRoute("/shop.html", () => new Response(SHOP, { headers: { "content-type": "text/html; charset=utf-8" } }));
  server.setRoute(
    "/export.csv",
    () => new Response("id,total\n1,9.50\n", { headers: { "content-type": "text/csv", "content-disposition": "attachment; filename=export.csv" } }),
  );
  server.setRoute("/panel.html", () => new Response(panel, { headers: { "content-type": "text/html; charset=utf-8" } }));
  server.setRoute("/echo.html", () => new Response(ECHO, { headers: { "content-type": "text/html; charset=utf-8" } }));
});
afterAll(() => {
  demo?.stop();
  server?.stop();
  for (const p of projects) p.remove();
});

function project(): TmpProject {
  const p = tmpProject();
  projects.push(p);
  return p;
}

const resultOf = (p: TmpProject, stdout: string): RunReport => {
  const out = JSON.parse(stdout) as { run_dir: string };
  return JSON.parse(readFileSync(join(out.run_dir.startsWith("/") ? out.run_dir : join(p.dir, out.run_dir), "result.json"), "utf8")) as RunReport;
};

const greetFlow = (url: string) =>
  [
    "name: Greet",
    "app: web",
    `url: ${url}`,
    "steps:",
    '  - rules: Type Ada into the "Your name" field',
    '  - rules: Click "Greet"',
    "  - assert: page shows Hello, Ada!",
    "",
  ].join("\n");

describe("Firefox", () => {
  test("replays the bundled demo flows, recorded on Chromium, to the same verdict three times over (--repeat-each 3)", async () => {
    const specs = readdirSync(FLOWS)
      .filter((f) => f.endsWith(".flow.yaml"))
      .sort();
    const r = await runCli(["run", FLOWS, "--browser", "firefox", "--repeat-each", "3", "--recording-detail", "off", "--json"], {
      cwd: FLOWS,
      env: { DEMO_URL: demo.url },
    });
    const out = JSON.parse(r.stdout) as { flows: { spec: string; outcome: string; report: { repeat?: { outcomes: string[] } } }[]; flaky: number };
    expect(out.flows.map((f) => [f.spec, f.outcome, f.report.repeat?.outcomes])).toEqual(specs.map((s) => [s, "passed", ["passed", "passed", "passed"]]));
    expect(out.flaky).toBe(0);
    expect(r.code).toBe(0);
  }, 300_000);

  test("a flow recorded on Chromium replays on Firefox, and fails there at the step a mutant page breaks", async () => {
    const p = project();
    const spec = p.write("greet.flow.yaml", greetFlow(`${server.url}/greeter.html`));
    greeter = GREETER("Greet");
    const rec = await runCli(["record", spec], { cwd: p.dir });
    expect({ code: rec.code, stderr: rec.code === 0 ? "" : rec.stderr }).toEqual({ code: 0, stderr: "" });
    const header = JSON.parse(p.read("greet.trace.jsonl").split("\n")[0]!) as { app: Record<string, unknown> };
    expect(header.app["engine"]).toBeUndefined();
    const ok = await runCli(["run", spec, "--json"], { cwd: p.dir, env: { FLOWPROOF_BROWSER: "firefox" } });
    expect({ code: ok.code, stderr: ok.code === 0 ? "" : ok.stderr }).toEqual({ code: 0, stderr: "" });
    expect(resultOf(p, ok.stdout).steps.map((s) => s.status)).toEqual(["passed", "passed", "passed"]);
    // The mutant: the button is renamed, so the click (step 2) cannot find it.
    greeter = GREETER("Salute");
    try {
      const bad = await runCli(["run", spec, "--browser", "firefox", "--json"], { cwd: p.dir, env: { FLOWPROOF_STEP_TIMEOUT_MS: "3000" } });
      expect(bad.code).toBe(1);
      expect(resultOf(p, bad.stdout).steps.map((s) => s.status)).toEqual(["passed", "failed", "skipped"]);
    } finally {
      greeter = GREETER("Greet");
    }
  }, 180_000);

  test("a Chromium-recorded step whose only effect is in the page (its own state, the DOM) fails on Firefox when a mutant page's click does nothing", async () => {
    const p = project();
    const spec = p.write("panel.flow.yaml", panelFlow(`${server.url}/panel.html`));
    panel = PANEL(true);
    try {
      const rec = await runCli(["record", spec], { cwd: p.dir });
      expect({ code: rec.code, stderr: rec.code === 0 ? "" : rec.stderr }).toEqual({ code: 0, stderr: "" });
      expect(traceEffects(p, "panel.trace.jsonl")[0]).toMatchObject({ target: ["expanded"], dom: "near" });
      const ok = await runCli(["run", spec, "--browser", "firefox", "--json"], { cwd: p.dir });
      expect({ code: ok.code, stderr: ok.code === 0 ? "" : ok.stderr }).toEqual({ code: 0, stderr: "" });
      const passed = resultOf(p, ok.stdout).steps[0]!;
      expect([passed.status, passed.effect?.check, passed.effect?.warning]).toEqual(["passed", "on", undefined]);
      expect(passed.effect?.seen).toMatchObject({ target: ["expanded"], dom: "near" });
      panel = PANEL(false);
      const bad = await runCli(["run", spec, "--browser", "firefox", "--json"], { cwd: p.dir, env: { FLOWPROOF_STEP_TIMEOUT_MS: "3000" } });
      expect(bad.code).toBe(1);
      const steps = resultOf(p, bad.stdout).steps;
      expect(steps.map((s) => s.status)).toEqual(["failed", "skipped"]);
      expect(steps[0]!.detail).toContain("expanded");
    } finally {
      panel = PANEL(true);
    }
  }, 180_000);

  test("a recording in Firefox observes every effect kind, the page's own ones included, and Chromium judges them on replay", async () => {
    const p = project();
    const spec = p.write("panel.flow.yaml", panelFlow(`${server.url}/panel.html`, "firefox"));
    panel = PANEL(true);
    try {
      const rec = await runCli(["record", spec], { cwd: p.dir });
      expect({ code: rec.code, stderr: rec.code === 0 ? "" : rec.stderr }).toEqual({ code: 0, stderr: "" });
      const effect = traceEffects(p, "panel.trace.jsonl")[0]!;
      expect(effect).toMatchObject({ target: ["expanded"], dom: "near" });
      expect([...(effect["observes"] as string[])].sort()).toEqual(["dialog", "dom", "download", "focus", "navigation", "request", "target"]);
      panel = PANEL(false);
      const bad = await runCli(["run", spec, "--browser", "chromium", "--json"], { cwd: p.dir, env: { FLOWPROOF_STEP_TIMEOUT_MS: "3000" } });
      expect(bad.code).toBe(1);
      expect(resultOf(p, bad.stdout).steps.map((s) => s.status)).toEqual(["failed", "skipped"]);
    } finally {
      panel = PANEL(true);
    }
  }, 180_000);

  test("a recording in Firefox names it in the trace header, and replays on Chromium", async () => {
    const p = project();
    const spec = p.write("greet.flow.yaml", greetFlow(`${server.url}/greeter.html`).replace("app: web\n", "app: web\nbrowser: {name: firefox}\n"));
    const rec = await runCli(["record", spec], { cwd: p.dir });
    expect({ code: rec.code, stderr: rec.code === 0 ? "" : rec.stderr }).toEqual({ code: 0, stderr: "" });
    const header = JSON.parse(p.read("greet.trace.jsonl").split("\n")[0]!) as { app: Record<string, unknown>; browser?: Record<string, unknown> };
    expect(header.app["engine"]).toBe("firefox");
    const run = await runCli(["run", spec, "--browser", "chromium", "--json"], { cwd: p.dir });
    expect({ code: run.code, stderr: run.code === 0 ? "" : run.stderr }).toEqual({ code: 0, stderr: "" });
  }, 180_000);

  test("a suite.yaml's `browser: {name: firefox}` is its flows' default, and --browser overrides it", async () => {
    const p = project();
    p.write("suite.yaml", "browser: { name: firefox }\n");
    const spec = p.write("greet.flow.yaml", greetFlow(`${server.url}/greeter.html`));
    const engine = () => (JSON.parse(p.read("greet.trace.jsonl").split("\n")[0]!) as { app: Record<string, unknown> }).app["engine"];
    const rec = await runCli(["record", spec], { cwd: p.dir });
    expect({ code: rec.code, stderr: rec.code === 0 ? "" : rec.stderr }).toEqual({ code: 0, stderr: "" });
    expect(engine()).toBe("firefox");
    const again = await runCli(["record", spec, "--browser", "chromium"], { cwd: p.dir });
    expect({ code: again.code, stderr: again.code === 0 ? "" : again.stderr }).toEqual({ code: 0, stderr: "" });
    expect(engine()).toBeUndefined();
  }, 180_000);

  test("masks a typed secret the page echoes in every frame of a Firefox record and run", async () => {
    const p = project();
    const spec = p.write(
      "echo.flow.yaml",
      [
        "name: Echo",
        "app: web",
        "browser: {name: firefox}",
        `url: ${server.url}/echo.html`,
        "steps:",
        '  - rules: Type ${CANARY_PW} into the "Password" field',
        '  - rules: Click "Send"',
        "  - assert: page shows Sent",
        "",
      ].join("\n"),
    );
    const env = { CANARY_PW: PASSWORD };
    const rec = await runCli(["record", spec], { cwd: p.dir, env });
    expect({ code: rec.code, stderr: rec.code === 0 ? "" : rec.stderr }).toEqual({ code: 0, stderr: "" });
    const run = await runCli(["run", spec, "--json"], { cwd: p.dir, env });
    expect({ code: run.code, stderr: run.code === 0 ? "" : run.stderr }).toEqual({ code: 0, stderr: "" });
    expect(resultOf(p, run.stdout).recording!.steps.every((s) => s.frames_dropped === undefined)).toBe(true);
    const pngs = p.files().filter((f) => f.startsWith(".flowproof/") && f.endsWith(".png"));
    expect(pngs.length).toBeGreaterThan(3);
    expect(pngs.filter((f) => redPixels(decodePng(readFileSync(join(p.dir, f)))) > 0)).toEqual([]);
    for (const f of p.files().filter((f) => f.endsWith(".jsonl") || f.endsWith(".json") || f.endsWith(".html")))
      expect({ f, leaked: readFileSync(join(p.dir, f), "utf8").includes(PASSWORD) }).toEqual({ f, leaked: false });
  }, 180_000);

  test("mock:, session:, an upload, a dialog, a download and cookie facts: recorded in Chromium, replayed in Firefox twice over", async () => {
    const p = project();
    p.write("receipt.txt", "paid\n");
    const spec = p.write(
      "shop.flow.yaml",
      [
        "name: Shop",
        "app: web",
        `url: ${server.url}/shop.html`,
        "mock:",
        "  - { url_contains: /api/rates, body: { rate: 1.23 } }",
        "session:",
        '  cookies: [{ name: sid, value: "${SID}" }]',
        "  local_storage: { cart: sku-1 }",
        "steps:",
        "  - assert: page shows Rate 1.23",
        "  - assert: page shows Cart sku-1 signed in",
        '  - assert: cookie "sid" exists',
        '  - rules: Upload receipt.txt into the "Receipt" field',
        "  - assert: page shows Picked receipt.txt",
        '  - rules: Click "Delete", accepting the "Delete the order?" dialog',
        "  - assert: page shows Deleted",
        '  - rules: Click "Export"',
        "  - rules: Wait until the download completes as export",
        '  - rules: Set cookie "theme" to dark',
        "  - assert: 2 cookies are set",
        "",
      ].join("\n"),
    );
    const env = { SID: "sid-value-7731" };
    const rec = await runCli(["record", spec], { cwd: p.dir, env });
    expect({ code: rec.code, stderr: rec.code === 0 ? "" : rec.stderr }).toEqual({ code: 0, stderr: "" });
    const run = await runCli(["run", spec, "--browser", "firefox", "--repeat-each", "2", "--json"], { cwd: p.dir, env });
    expect({ code: run.code, stderr: run.code === 0 ? "" : run.stderr.slice(-2000) }).toEqual({ code: 0, stderr: "" });
  }, 180_000);

  test("a missing Firefox is exit 2 naming the install command", async () => {
    const p = project();
    const spec = p.write("greet.flow.yaml", greetFlow(`${server.url}/greeter.html`));
    const r = await runCli(["record", spec, "--browser", "firefox"], { cwd: p.dir, env: { FLOWPROOF_FIREFOX: "/nonexistent/firefox" } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("FLOWPROOF_FIREFOX=/nonexistent/firefox");
    expect(r.stderr).toContain("apt-get install firefox-esr");
  }, 60_000);

  test("no Firefox outlives flowproof, even one killed outright", async () => {
    const p = project();
    // A flow that waits long on its last step: flowproof is killed while Firefox runs.
    const spec = p.write(
      "wait.flow.yaml",
      [
        "name: Wait",
        "app: web",
        "browser: {name: firefox}",
        `url: ${server.url}/greeter.html`,
        "steps:",
        '  - rules: Click "Greet"',
        '  - assert: page shows "Never shown"',
        "",
      ].join("\n"),
    );
    const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), "record", spec], {
      cwd: p.dir,
      env: { ...process.env, NO_COLOR: "1", FLOWPROOF_STEP_TIMEOUT_MS: "60000" },
      stdout: "ignore",
      stderr: "ignore",
    });
    const firefoxes = () => descendants(proc.pid).filter((pid) => /firefox/.test(safeCmdline(pid)));
    const until = Date.now() + 60_000;
    let seen: number[] = [];
    while (Date.now() < until && (seen = firefoxes()).length === 0) await Bun.sleep(100);
    expect(seen.length).toBeGreaterThan(0);
    proc.kill("SIGKILL");
    await proc.exited;
    const gone = Date.now() + 10_000;
    while (Date.now() < gone && seen.some(isAlive)) await Bun.sleep(100);
    expect(seen.filter(isAlive)).toEqual([]);
  }, 120_000);
});

function safeCmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}
