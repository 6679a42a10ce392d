// Web flows on a real Selenium Grid 4 (test/support/grid.ts: a hub and two nodes, one Chromium
// slot each): the real CLI with --grid, FLOWPROOF_GRID_URL and browser.grid; a suite spread over
// both nodes; uploads and downloads through the grid; SIGINT and a node that dies mid-flow;
// an unreachable grid; credentials in the grid URL and a typed secret, redacted everywhere.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { runCli, REPO_ROOT } from "../support/cli.ts";
import { requireChromium } from "../support/chromium.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { gridUnavailable, startGrid, type TestGrid } from "../support/grid.ts";

requireChromium();
const missing = gridUnavailable();
if (missing) throw new Error(`the grid tests need a Selenium Grid on this machine: ${missing}`);

let grid: TestGrid;
let server: TestServer;
let site: TmpProject;
const projects: TmpProject[] = [];

beforeAll(async () => {
  site = tmpProject();
  mkdirSync(join(site.dir, "files"), { recursive: true });
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Prices");
  ws.addRow(["Material", "Net Price", "Currency"]);
  ws.addRow(["100-100", 12.5, "EUR"]);
  await wb.xlsx.writeFile(join(site.dir, "files", "prices.xlsx"));
  site.write("export.html", '<!doctype html><html><body><h1>Exports</h1><a href="/files/prices.xlsx" download>Download prices</a></body></html>');
  site.write(
    "upload.html",
    `<!doctype html><html><body><label>Attachment <input type="file" id="attachment"></label><p id="chosen">no file chosen</p>
<script>document.getElementById("attachment").addEventListener("change", async (e) => { const f = e.target.files[0]; document.getElementById("chosen").textContent = f.name + " says " + (await f.text()).trim(); });</script></body></html>`,
  );
  site.write(
    "form.html",
    `<!doctype html><html><body><h1>Members</h1><label>User <input id="u"></label><label>Password <input id="p" type="password"></label>
<button id="go" onclick="document.getElementById('out').textContent = 'Welcome ' + document.getElementById('u').value">Sign in</button><p id="out"></p></body></html>`,
  );
  site.write(
    "stack.html",
    `<!doctype html><html><body><h1>Stack</h1><p id="rate">loading</p><p id="who"></p><button id="del">Delete</button><p id="out"></p>
<script>fetch("/api/rates").then((r) => r.json()).then((j) => { document.getElementById("rate").textContent = "rate " + j.rate; });
document.getElementById("who").textContent = "theme " + ((document.cookie.match(/theme=(\\w+)/) || [])[1] ?? "none");
document.getElementById("del").onclick = () => { if (confirm("Delete it?")) document.getElementById("out").textContent = "Deleted"; };</script></body></html>`,
  );
  // Shows "Done" only after `ms` (from the query): a flow that is still running when the test acts.
  site.write(
    "slow.html",
    `<!doctype html><html><body><h1>Slow</h1><p id="s"></p><script>setTimeout(() => { document.getElementById("s").textContent = "Done"; }, Number(new URLSearchParams(location.search).get("ms") ?? 0));</script></body></html>`,
  );
  server = await startServer(site.dir);
  grid = await startGrid({ nodes: 2, auth: { user: "ci", password: "gr1d-s3cret-key" } });
}, 240_000);

afterAll(async () => {
  await grid?.stop();
  server?.stop();
  site?.remove();
  for (const p of projects) p.remove();
});

function project(): TmpProject {
  const p = tmpProject();
  projects.push(p);
  return p;
}

const flow = (name: string, url: string, steps: string, extra = "") => `name: ${name}\napp: web\nurl: ${url}\n${extra}steps:\n${steps}`;

async function cli(p: TmpProject, args: string[], env: Record<string, string | undefined> = {}) {
  return runCli(args, { cwd: p.dir, env: { FLOWPROOF_GRID_URL: undefined, ...env } });
}

/** Every file under `dir`, as text (frames and binaries included, read as latin1 so any byte sequence can be searched). */
function allText(dir: string): string {
  let out = "";
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    out += readFileSync(join(e.parentPath, e.name), "latin1");
  }
  return out;
}

/** Chromium and chromedriver processes of the grid's nodes still running (their command lines name the node's temporary profile). */
function chromedrivers(): number {
  const r = Bun.spawnSync(["sh", "-c", "ps -eo args | grep -c '^/usr/bin/chromedriver\\|^/usr/lib/chromium/chromedriver' || true"]);
  return Number(r.stdout.toString().trim());
}

async function untilNoSessions(timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let n = await grid.sessions();
  while (n !== 0 && Date.now() < deadline) {
    await Bun.sleep(200);
    n = await grid.sessions();
  }
  return n;
}

describe("a flow on the grid", () => {
  test("records with --grid and replays with FLOWPROOF_GRID_URL; the trace, result and junit name the node; credentials and a typed secret never reach the evidence", async () => {
    const p = project();
    p.write(
      "signin.flow.yaml",
      flow(
        "Sign in",
        `${server.url}/form.html`,
        `  - rules: Type "ada" into the "User" field
  - rules: Type "\${PASSWORD}" into the "Password" field
  - rules: Click "Sign in"
  - assert: page shows Welcome ada
`,
      ),
    );
    const env = { PASSWORD: "hunter2-typed-secret" };
    const recorded = await cli(p, ["record", "signin.flow.yaml", "--author", "rules", "--grid", grid.url, "--json"], env);
    expect(recorded.stderr).not.toContain("gr1d-s3cret-key");
    const rec = JSON.parse(recorded.stdout) as { ok: boolean; trace_path: string; error?: string };
    expect(rec.error).toBeUndefined();
    expect(recorded.code).toBe(0);
    const header = JSON.parse(readFileSync(rec.trace_path, "utf8").split("\n")[0]!) as { app: { ran_on?: { grid: string; node?: string } } };
    expect(header.app.ran_on?.grid).toBe(grid.base.replace("://", "://***@"));
    expect(grid.nodes.map((n) => n.uri)).toContain(header.app.ran_on?.node as string);

    const replay = await cli(p, ["run", "signin.flow.yaml", "--json"], { ...env, FLOWPROOF_GRID_URL: grid.url });
    const result = JSON.parse(replay.stdout) as {
      report: { passed: boolean; ran_on?: { node?: string; session: string } };
      run_dir: string;
      junit_path: string;
    };
    expect(result.report.passed).toBe(true);
    expect(grid.nodes.map((n) => n.uri)).toContain(result.report.ran_on?.node as string);
    expect(readFileSync(result.junit_path, "utf8")).toContain(`<property name="grid.node" value="${result.report.ran_on?.node}"/>`);
    for (const text of [allText(p.dir), recorded.stdout, recorded.stderr, replay.stdout, replay.stderr]) {
      expect(text).not.toContain("gr1d-s3cret-key");
      expect(text).not.toContain("hunter2-typed-secret");
    }
    expect(await untilNoSessions()).toBe(0);

    // The trace recorded on the grid replays locally: where it ran is a fact, not an input.
    const local = await cli(p, ["run", "signin.flow.yaml", "--json"], env);
    const localResult = JSON.parse(local.stdout) as { report: { passed: boolean; ran_on?: unknown } };
    expect(localResult.report.passed).toBe(true);
    expect(localResult.report.ran_on).toBeUndefined();
  }, 180_000);

  test("the CDP stack runs over se:cdp: mock:, session: cookies and a native dialog, recorded and replayed on the grid", async () => {
    const p = project();
    p.write(
      "stack.flow.yaml",
      flow(
        "Stack",
        `${server.url}/stack.html`,
        `  - assert: page shows rate 1.23
  - assert: page shows theme dark
  - rules: Click "Delete", accepting the dialog
  - assert: page shows Deleted
`,
        "mock:\n  - { url_contains: /api/rates, body: { rate: 1.23 } }\nsession:\n  cookies:\n    - { name: theme, value: dark }\n",
      ),
    );
    const recorded = await cli(p, ["record", "stack.flow.yaml", "--author", "rules", "--grid", grid.url, "--json"]);
    expect((JSON.parse(recorded.stdout) as { error?: string }).error).toBeUndefined();
    expect(recorded.code).toBe(0);
    const replay = await cli(p, ["run", "stack.flow.yaml", "--grid", grid.url, "--json"]);
    const result = JSON.parse(replay.stdout) as { report: { passed: boolean; steps: { status: string; detail?: string }[] } };
    expect(result.report.steps.filter((s) => s.status !== "passed")).toEqual([]);
    expect(result.report.passed).toBe(true);
  }, 180_000);

  test("uploads a file to the node and brings a download back: assert_spreadsheet reads it", async () => {
    const p = project();
    p.write("note.txt", "hello from the runner\n");
    p.write(
      "files.flow.yaml",
      flow(
        "Files",
        `${server.url}/upload.html`,
        `  - rules: Upload note.txt into the "Attachment" field
  - assert: page shows note.txt says hello from the runner
  - rules: Go to ${server.url}/export.html
  - rules: Click "Download prices"
  - rules: Wait until the download completes as prices within 20s
  - assert_spreadsheet:
      path: \${captured.prices}
      column: Net Price
      row_contains: "100-100"
      equals: 12.5
`,
        `browser: { grid: "\${GRID}" }\n`,
      ),
    );
    const recorded = await cli(p, ["record", "files.flow.yaml", "--author", "rules", "--json"], { GRID: grid.url });
    const rec = JSON.parse(recorded.stdout) as { ok: boolean; error?: string; step_results: { detail?: string }[] };
    expect(rec.error).toBeUndefined();
    expect(recorded.code).toBe(0);
    const replay = await cli(p, ["run", "files.flow.yaml", "--json"], { GRID: grid.url });
    const result = JSON.parse(replay.stdout) as { report: { passed: boolean; steps: { status: string; detail?: string }[] } };
    expect(result.report.steps.filter((s) => s.status !== "passed")).toEqual([]);
    expect(result.report.passed).toBe(true);
    // The trace keeps the reference, never the URL with its key.
    expect(allText(p.dir)).not.toContain("gr1d-s3cret-key");
  }, 180_000);
});

describe("a node running the headless shell", () => {
  test("a download it cancels fails the wait, naming the shell and what to run on the node instead", async () => {
    const shellGrid = await startGrid({ nodes: 1, browser: "/usr/lib/chromium/chromium-headless-shell" });
    try {
      const p = project();
      p.write(
        "shell.flow.yaml",
        flow("Shell", `${server.url}/export.html`, '  - rules: Click "Download prices"\n  - rules: Wait until the download completes as prices within 20s\n'),
      );
      const recorded = await cli(p, ["record", "shell.flow.yaml", "--author", "rules", "--json", "--grid", shellGrid.url]);
      const rec = JSON.parse(recorded.stdout) as { step_results: { status: string; detail?: string }[] };
      const failed = rec.step_results.find((s) => s.status !== "passed");
      expect(failed?.detail).toContain("the download of prices.xlsx (the grid node's browser cancelled it: a node running Chromium's headless shell");
      expect(failed?.detail).toContain("run Chrome or Chromium on the node");
    } finally {
      await shellGrid.stop();
    }
  }, 240_000);
});

describe("a suite on the grid", () => {
  test("--workers 2 holds two sessions at once, one on each node; the suite report names them", async () => {
    const p = project();
    for (const n of [1, 2]) p.write(`f${n}.flow.yaml`, flow(`Slow ${n}`, `${server.url}/slow.html?ms=4000`, "  - assert: page shows Done\n"));
    for (const n of [1, 2]) expect((await cli(p, ["record", `f${n}.flow.yaml`, "--author", "rules", "--json"])).code).toBe(0);
    const suite = await cli(p, ["run", ".", "--workers", "2", "--grid", grid.url, "--json"]);
    const out = JSON.parse(suite.stdout) as { passed: number; flows: { report: { ran_on?: { node?: string }; duration_ms: number } }[]; run_dir: string };
    expect(out.passed).toBe(2);
    const nodes = out.flows.map((f) => f.report.ran_on?.node);
    expect(new Set(nodes).size).toBe(2);
    expect([...new Set(nodes)].sort()).toEqual(grid.nodes.map((n) => n.uri).sort());
    const html = readFileSync(join(out.run_dir, "report.html"), "utf8");
    for (const node of nodes) expect(html).toContain(`on ${node}`);
    expect(await untilNoSessions()).toBe(0);
  }, 180_000);
});

async function nodesHolding(): Promise<string[]> {
  const r = await fetch(`${grid.base}/status`, { headers: { Authorization: `Basic ${Buffer.from("ci:gr1d-s3cret-key").toString("base64")}` } });
  const s = (await r.json()) as { value: { nodes: { uri: string; slots: { session: unknown }[] }[] } };
  return s.value.nodes.filter((n) => n.slots.some((slot) => slot.session)).map((n) => n.uri);
}

describe("stopping and failing to start", () => {
  test("SIGINT during a flow deletes its session: the grid holds none and no chromedriver is left", async () => {
    const p = project();
    // The page's delay is a variable: short at record, far longer at replay (the sealed trace is not edited).
    p.write("wait.flow.yaml", flow("Wait", `${server.url}/slow.html?ms=\${WAIT_MS}`, "  - assert: page shows Done\n"));
    expect((await cli(p, ["record", "wait.flow.yaml", "--author", "rules", "--json"], { WAIT_MS: "100" })).code).toBe(0);
    const before = chromedrivers();
    const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), "run", "wait.flow.yaml", "--grid", grid.url], {
      cwd: p.dir,
      env: { ...process.env, NO_COLOR: "1", FLOWPROOF_GRID_URL: undefined, WAIT_MS: "600000" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const deadline = Date.now() + 60_000;
    while ((await grid.sessions()) < 1 && Date.now() < deadline) await Bun.sleep(200);
    expect(await grid.sessions()).toBe(1);
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(130);
    expect(await untilNoSessions(5000)).toBe(0);
    const end = Date.now() + 15_000;
    while (chromedrivers() > before && Date.now() < end) await Bun.sleep(200);
    expect(chromedrivers()).toBe(before);
  }, 120_000);

  test("SIGINT while the session request waits in the grid's queue gives it up, and the session the grid starts from it is deleted", async () => {
    const p = project();
    p.write("x.flow.yaml", flow("X", `${server.url}/form.html`, "  - assert: page shows Members\n"));
    expect((await cli(p, ["record", "x.flow.yaml", "--author", "rules", "--json"])).code).toBe(0);
    // Both nodes busy with sessions of someone else: flowproof's request waits in the queue.
    const auth = { Authorization: `Basic ${Buffer.from("ci:gr1d-s3cret-key").toString("base64")}` };
    const occupy = async (): Promise<string> => {
      const r = await fetch(`${grid.base}/session`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json; charset=utf-8" },
        body: JSON.stringify({ capabilities: { alwaysMatch: { browserName: "chrome" } } }),
      });
      return ((await r.json()) as { value: { sessionId: string } }).value.sessionId;
    };
    const held = [await occupy(), await occupy()];
    const queued = async () =>
      ((await (await fetch(`${grid.base}/se/grid/newsessionqueue/queue`, { headers: auth })).json()) as { value: unknown[] }).value.length;
    const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src", "cli", "main.ts"), "run", "x.flow.yaml", "--grid", grid.url], {
      cwd: p.dir,
      env: { ...process.env, NO_COLOR: "1", FLOWPROOF_GRID_URL: undefined },
      stdout: "pipe",
      stderr: "pipe",
    });
    const deadline = Date.now() + 60_000;
    while ((await queued()) < 1 && Date.now() < deadline) await Bun.sleep(200);
    expect(await queued()).toBe(1);
    const stoppedAt = Date.now();
    proc.kill("SIGINT");
    // A slot frees as the run stops: the grid starts the abandoned request there.
    await fetch(`${grid.base}/session/${held[0]}`, { method: "DELETE", headers: auth });
    expect(await proc.exited).toBe(130);
    expect(Date.now() - stoppedAt).toBeLessThan(30_000);
    expect(await new Response(proc.stderr).text()).toContain("the run was stopped while its session request waited at the Selenium Grid");
    // Nothing is left but the session still held by the other user.
    const settled = Date.now() + 15_000;
    while (((await queued()) > 0 || (await grid.sessions()) > 1) && Date.now() < settled) await Bun.sleep(250);
    expect(await queued()).toBe(0);
    expect(await grid.sessions()).toBe(1);
    await fetch(`${grid.base}/session/${held[1]}`, { method: "DELETE", headers: auth });
    expect(await untilNoSessions()).toBe(0);
  }, 180_000);

  test("an unreachable grid is exit 2 naming the URL (without its key) and what to change", async () => {
    const p = project();
    p.write("x.flow.yaml", flow("X", `${server.url}/form.html`, "  - assert: page shows Members\n"));
    const r = await cli(p, ["record", "x.flow.yaml", "--author", "rules", "--grid", "http://ci:nope-key@127.0.0.1:9"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no Selenium Grid answered at http://***@127.0.0.1:9");
    expect(r.stderr).toContain("FLOWPROOF_GRID_URL");
    expect(r.stderr + r.stdout).not.toContain("nope-key");
    expect(existsSync(join(p.dir, "x.trace.jsonl"))).toBe(false);
  }, 60_000);

  test("capabilities no node has are refused at once: exit 2 naming the grid's reason", async () => {
    const p = project();
    p.write("x.flow.yaml", flow("X", `${server.url}/form.html`, "  - assert: page shows Members\n", "browser: { capabilities: { platformName: windows } }\n"));
    const r = await cli(p, ["record", "x.flow.yaml", "--author", "rules", "--grid", grid.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("No nodes support the capabilities in the request");
    expect(r.stderr).toContain("browser.capabilities");
  }, 60_000);
});

// Last: it kills one of the two nodes, which the grid keeps listing (with its session) for a while.
describe("a node that dies", () => {
  test("a node that dies mid-flow errors that flow, naming the node; the other flow passes", async () => {
    const p = project();
    p.write(
      "long.flow.yaml",
      flow(
        "Long",
        `${server.url}/slow.html?ms=100`,
        "  - assert: page shows Done\n  - rules: Go to " + `${server.url}/slow.html?ms=\${LONG_MS}` + "\n  - assert: page shows Done within 90s\n",
      ),
    );
    p.write("short.flow.yaml", flow("Short", `${server.url}/slow.html?ms=3000`, "  - assert: page shows Done\n"));
    // Recorded locally: the grid replays a local trace.
    expect((await cli(p, ["record", "long.flow.yaml", "--author", "rules", "--json"], { LONG_MS: "100" })).code).toBe(0);
    expect((await cli(p, ["record", "short.flow.yaml", "--author", "rules", "--json"])).code).toBe(0);
    // The replay finds the page slower than at record (the variable says so): the long flow waits on its last step.
    const suite = runCli(["run", ".", "--workers", "2", "--grid", grid.url, "--json"], {
      cwd: p.dir,
      env: { FLOWPROOF_GRID_URL: undefined, LONG_MS: "60000" },
    });
    // Once the short flow's session is gone, the one left is the long flow's: its node dies.
    let victim: string | undefined;
    const deadline = Date.now() + 120_000;
    let seenTwo = false;
    while (!victim && Date.now() < deadline) {
      const holding = await nodesHolding();
      if (holding.length === 2) seenTwo = true;
      if (seenTwo && holding.length === 1) victim = holding[0];
      await Bun.sleep(200);
    }
    expect(victim).toBeDefined();
    grid.nodes.find((n) => n.uri === victim)!.kill();
    const done = await suite;
    const out = JSON.parse(done.stdout) as {
      flows: { spec: string; outcome: string; report: { error?: string; steps: { status: string; detail?: string }[] } }[];
    };
    const long = out.flows.find((f) => f.spec === "long.flow.yaml")!;
    const short = out.flows.find((f) => f.spec === "short.flow.yaml")!;
    expect(short.outcome).toBe("passed");
    expect(long.outcome).toBe("errored");
    expect(JSON.stringify(long.report)).toContain(`the grid node ${victim} stopped answering`);
  }, 240_000);
});
