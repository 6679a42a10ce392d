// SAP GUI flows for real, through the Windows executable under Wine: flowproof records and replays
// against the SAP GUI Scripting simulator (test/fixtures/sap/mocksap.c), reached cross-process
// through the Running Object Table exactly as SAP GUI is. flowproof opens connections of its own
// and logs on; the simulator logs every property write, so the test sees where each password went.
// One Wine bed, one flowproof.exe and one simulator (started once, as SAP Logon is) for the whole
// file; a SAP -> web -> API flow drives a Chromium on this machine through its DevTools endpoint.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { PNG } from "pngjs";
import { compileWin32, flowproofExecutable, startWineBed, winPath, type WineBed, type WineProcess, type WineRun } from "../support/wine.ts";
import { requireChromium } from "../support/chromium.ts";
import { launchBrowser, type LaunchedBrowser } from "../../plugins/web/launch.ts";

const MOCKSAP_C = resolve(import.meta.dir, "../fixtures/sap/mocksap.c");
const CLERK_PW = "Canary-Clerk-7f3a9";
const APPROVER_PW = "Canary-Appr-2b8c4";

let bed: WineBed;
let exe: string;
let project: string;
let writesLog: string;
let simulator: WineProcess | undefined;

/** The environment a flowproof run gets: SAP Logon is the simulator, started with these users. */
function sapEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    SAP_LOGON_EXE: winPath(sapLogon),
    MOCKSAP_LOG: winPath(writesLog),
    MOCKSAP_USERS: `CLERK=${CLERK_PW};APPROVER=${APPROVER_PW}`,
    CLERK_USER: "clerk",
    CLERK_PW,
    APPROVER_PW,
    FLOWPROOF_SAP_CONNECT_TIMEOUT_MS: "30000",
    ...extra,
  };
}
let sapLogon: string;

/**
 * flowproof.exe under Wine. Frames of the SAP window are captured only where a test looks at them
 * (`frames`: the recording detail); every other record and run passes `--recording-detail off`.
 */
async function flowproof(args: readonly string[], env: Record<string, string> = sapEnv(), frames: "off" | "low" = "off"): Promise<WineRun> {
  const detail = args[0] === "record" || args[0] === "run" ? ["--recording-detail", frames] : [];
  return bed.run(exe, [...args, ...detail], { env, timeoutMs: 240_000 });
}

function writeFlow(name: string, text: string): string {
  const path = join(project, `${name}.flow.yaml`);
  writeFileSync(path, text);
  return path;
}

/** Every file under `dir` (recursively). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const json = (r: WineRun): Record<string, unknown> => {
  try {
    return JSON.parse(r.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(`not JSON (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
};

const ORDER_FLOW = `name: Create and display an order
app: sap
connection: TS3
login:
  user: \${CLERK_USER}
  password: \${CLERK_PW}
  client: "100"
steps:
  - rules: Go to VA01
  - rules: Type ZOR into the "Order Type" field
  - rules: Press Enter
  - rules: Type 4711 into the "Sold-To Party" field
  - rules: Type P-100 into the "Material" field
  - rules: Press the "Save the order" button
  - assert: page shows has been saved
  - rules: Go to VA03
  - rules: Remember the "id:wnd[0]/usr/ctxtVBAK-VBELN" as order
  - rules: Press Enter
  - assert: the "Sold-To Party" field shows 4711
  - assert: page shows Display Standard Order \${captured.order}
  - assert: the "Material" column of the row containing "Pump" shows P-100
  - assert: the "Description" column of the row containing "M-02" shows Valve
  - rules: Go to SU3
  - rules: Type \${CLERK_PW} into the "Old Password" field
  - assert: page shows Maintain User Profile
`;

/** The PNG files under `dir` (recursively). */
const framesUnder = (dir: string): string[] => filesUnder(dir).filter((f) => f.endsWith(".png"));

/**
 * Solid black blocks of at least `w` x `h` pixels in a decoded frame (the redactor's mask), as
 * their top-left corners, one per block.
 */
function blackBlocks(png: PNG, w: number, h: number): { x: number; y: number }[] {
  const { width, height, data } = png;
  const black = (x: number, y: number): number => {
    const i = (y * width + x) * 4;
    return data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 0 ? 1 : 0;
  };
  // Summed-area table of black pixels: a w x h window is a block when it sums to w * h.
  const sum = new Int32Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += black(x, y);
      sum[(y + 1) * (width + 1) + x + 1] = sum[y * (width + 1) + x + 1]! + row;
    }
  }
  const area = (x: number, y: number): number =>
    sum[(y + h) * (width + 1) + x + w]! - sum[y * (width + 1) + x + w]! - sum[(y + h) * (width + 1) + x]! + sum[y * (width + 1) + x]!;
  const found: { x: number; y: number }[] = [];
  for (let y = 0; y + h <= height; y++) {
    for (let x = 0; x + w <= width; x++) {
      if (area(x, y) !== w * h) continue;
      // One corner per block: skip windows inside a block already found.
      if (found.some((b) => Math.abs(b.x - x) < w && Math.abs(b.y - y) < h)) continue;
      found.push({ x, y });
    }
  }
  return found;
}

beforeAll(async () => {
  const [flowproofExe, mocksap, started] = await Promise.all([
    flowproofExecutable(),
    compileWin32(MOCKSAP_C, ["-lole32", "-loleaut32", "-luuid", "-lgdi32"]),
    startWineBed(),
  ]);
  exe = flowproofExe;
  sapLogon = mocksap;
  bed = started;
  project = join(bed.dir, "project");
  mkdirSync(project, { recursive: true });
  writesLog = join(bed.dir, "sap-writes.log");
  // SAP Logon is started once, as on a desk: every flow of the file opens its own connection in it
  // (SAP_LOGON_EXE stays set, so a flow would start it again if it were gone).
  const ready = join(bed.dir, "sap-ready.txt");
  simulator = bed.start(sapLogon, [
    "--log",
    winPath(writesLog),
    "--user",
    `CLERK=${CLERK_PW}`,
    "--user",
    `APPROVER=${APPROVER_PW}`,
    "--ready",
    winPath(ready),
    "--exit-after",
    "1800",
  ]);
  const deadline = Date.now() + 60_000;
  while (!existsSync(ready) && Date.now() < deadline) await Bun.sleep(100);
  if (!existsSync(ready)) throw new Error("the SAP GUI simulator did not register SAPGUI within 60 s");
}, 600_000);

afterAll(async () => {
  simulator?.kill();
  await bed?.stop();
});

/** The clerk surface's block of a multi-surface flow: creates an order for `soldTo` in VA01 and remembers its number as `order`. */
const clerkSavesOrder = (soldTo: string): string => `  - in: clerk
    steps:
      - rules: Go to VA01
      - rules: Type OR into the "Order Type" field
      - rules: Press Enter
      - rules: Type ${soldTo} into the "Sold-To Party" field
      - rules: Press the "Save the order" button
      - rules: Go to VA03
      - rules: Remember the "Order" field as order`;

describe("sap flows through the Windows executable", () => {
  test("records and replays an order: own connection, login, Go to, fields, Enter, Save, Remember, table cells", async () => {
    const flow = writeFlow("order", ORDER_FLOW);
    // Frames at low detail: the first, every fifth step's and the last (SU3 with its password fields).
    const rec = await flowproof(["record", winPath(flow), "--json"], sapEnv(), "low");
    expect(rec.code, `${rec.stdout}\n${rec.stderr}`).toBe(0);
    expect(json(rec)).toMatchObject({ steps: 17, trace_path: expect.stringContaining("order.trace.jsonl") });
    const trace = readFileSync(join(project, "order.trace.jsonl"), "utf8");
    const header = JSON.parse(trace.split("\n")[0]!) as { app: Record<string, unknown> };
    expect(header.app).toMatchObject({ adapter: "sap", connection: "TS3", login_user: "${CLERK_USER}" });
    expect(trace).toContain('"id":"wnd[0]/usr/ctxtVBAK-VBELN"');
    // The table assertions are structural cell rungs (column title + row text), read through GuiTableControl.
    expect(trace).toContain('"kind":"cell","column_text":"Material","row_anchor":"Pump"');

    const run = await flowproof(["run", winPath(flow), "--json"], sapEnv(), "low");
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const report = json(run) as { report: { outcome: string; steps: { status: string }[] } };
    expect(report.report.outcome).toBe("passed");
    // The simulator took a password only where it must go: the login screen's password field and
    // the password field the flow typed it into (SU3), once on record and once on replay.
    const writes = readFileSync(writesLog, "utf8")
      .split("\n")
      .filter((l) => l.includes(CLERK_PW));
    expect(writes.length).toBe(4);
    for (const w of writes) expect(w).toMatch(/^(?:\uFEFF)?SET \/app\/con\[\d+\]\/ses\[0\]\/wnd\[0\]\/usr\/pwdRSYST-BCODE Text=/);
  }, 600_000);

  test("frames of the SAP window are captured under Wine, with both password fields masked", () => {
    // Record and replay of the order above: the recording's filmstrip and the run bundle's frames.
    const recording = framesUnder(join(project, ".flowproof", "recordings"));
    const run = framesUnder(join(project, ".flowproof", "runs"));
    expect(recording.length, "recording frames").toBeGreaterThan(2);
    expect(run.length, "run frames").toBeGreaterThan(2);
    const masked = { recording: 0, run: 0 };
    for (const file of [...recording, ...run]) {
      const png = PNG.sync.read(readFileSync(file));
      expect(png.width).toBeGreaterThan(300);
      expect(png.height).toBeGreaterThan(200);
      // Not blank: the simulator's window is white with its controls written in black.
      let white = 0;
      let dark = 0;
      for (let i = 0; i < png.data.length; i += 4) {
        const v = png.data[i]! + png.data[i + 1]! + png.data[i + 2]!;
        if (v === 765) white++;
        else if (v < 200) dark++;
      }
      const pixels = png.width * png.height;
      expect(white / pixels, `${file} is mostly the white window`).toBeGreaterThan(0.5);
      expect(dark, `${file} shows text`).toBeGreaterThan(50);
      // SU3's two password fields (200 x 12 px each) are solid black, whatever they hold.
      if (blackBlocks(png, 200, 12).length >= 2) masked[recording.includes(file) ? "recording" : "run"]++;
    }
    // The last frame of each shows SU3 after the password was typed.
    expect(masked.recording, "recorded frames of SU3 with both password fields masked").toBeGreaterThan(0);
    expect(masked.run, "replayed frames of SU3 with both password fields masked").toBeGreaterThan(0);
  });

  test("a status-bar error fails the step with SAP's message", async () => {
    const flow = writeFlow("bad-type", ORDER_FLOW.replace("Type ZOR into", "Type XX into"));
    const rec = await flowproof(["record", winPath(flow), "--json"]);
    expect(rec.code).toBe(1);
    expect(rec.stdout).toContain("SAP error message: Enter a valid sales document type");
  }, 300_000);

  test("two surfaces of one system log on with their own users in one flow", async () => {
    const flow = writeFlow(
      "approval",
      `name: Order approval
apps:
  clerk: { app: sap, connection: TS3, login: { user: clerk, password: "\${CLERK_PW}" } }
  approver: { app: sap, connection: TS3, login: { user: approver, password: "\${APPROVER_PW}" } }
steps:
${clerkSavesOrder("815")}
  - in: approver
    steps:
      - assert: page shows Welcome APPROVER
      - rules: Go to VA03
      - rules: Type \${captured.order} into the "Order" field
      - rules: Press Enter
      - assert: the "Sold-To Party" field shows 815
  - in: clerk
    steps:
      - assert: page shows Display Sales Documents
`,
    );
    const rec = await flowproof(["record", winPath(flow), "--json"]);
    expect(rec.code, `${rec.stdout}\n${rec.stderr}`).toBe(0);
    const header = JSON.parse(readFileSync(join(project, "approval.trace.jsonl"), "utf8").split("\n")[0]!) as { apps: Record<string, Record<string, unknown>> };
    expect(header.apps["clerk"]).toMatchObject({ adapter: "sap", connection: "TS3", login_user: "clerk" });
    expect(header.apps["approver"]).toMatchObject({ adapter: "sap", login_user: "approver" });
    const run = await flowproof(["run", winPath(flow), "--json"]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const approverWrites = readFileSync(writesLog, "utf8")
      .split("\n")
      .filter((l) => l.includes(APPROVER_PW));
    expect(approverWrites.length).toBe(2);
    for (const w of approverWrites) expect(w).toContain("/usr/pwdRSYST-BCODE Text=");
  }, 500_000);

  test("bad setups are clear errors: an unknown connection lists SAP Logon's entries, a refused login names the user reference", async () => {
    const unknown = writeFlow("unknown", ORDER_FLOW.replace("connection: TS3", "connection: PRD"));
    const r1 = await flowproof(["record", winPath(unknown), "--json"]);
    expect(r1.code).toBe(2);
    expect(r1.stdout).toContain('SAP Logon has no connection \\"PRD\\"');

    const refused = writeFlow("refused", ORDER_FLOW);
    const r2 = await flowproof(["record", winPath(refused), "--json"], sapEnv({ CLERK_PW: "Canary-Wrong-5e1d" }));
    expect(r2.code).toBe(2);
    expect(r2.stdout).toContain("SAP refused the login of ${CLERK_USER}");
    expect(r2.stdout + r2.stderr).not.toContain("Canary-Wrong-5e1d");

    const missing = writeFlow("missing-id", ORDER_FLOW.replace('"Order Type" field', '"id:wnd[0]/usr/ctxtVBAK-AUARX" field'));
    const r3 = await flowproof(["record", winPath(missing), "--json"], sapEnv({ FLOWPROOF_STEP_TIMEOUT_MS: "1500" }));
    expect(r3.code).toBe(1);
    expect(r3.stdout).toContain('did you mean \\"wnd[0]/usr/ctxtVBAK-AUART\\"?');
  }, 300_000);

  test("flowproof config sap keeps fallback credentials in the credential store, and a flow without login uses them", async () => {
    const store = await bed.run("cmd", ["/c", `echo ${APPROVER_PW}| ${winPath(exe)} config sap --user approver --client 200 --json`], {
      env: sapEnv(),
      timeoutMs: 120_000,
    });
    expect(store.code, `${store.stdout}\n${store.stderr}`).toBe(0);
    expect(store.stdout).toContain('"user": "approver"');
    expect(store.stdout).not.toContain(APPROVER_PW);
    const flow = writeFlow(
      "fallback",
      `name: Fallback login
app: sap
connection: TS3
steps:
  - assert: page shows Welcome APPROVER
`,
    );
    const rec = await flowproof(["record", winPath(flow), "--json"]);
    expect(rec.code, `${rec.stdout}\n${rec.stderr}`).toBe(0);
    const removed = await flowproof(["config", "sap", "--delete", "--json"]);
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ stored: false });
  }, 300_000);

  test("SAP -> web -> API in one flow: the order saved in SAP is found on a local portal and returned by its API", async () => {
    // The portal and its API know the orders the simulator saved (its log's SAVED lines), as a
    // backend fed by SAP would.
    const orders = (): Map<string, string> => new Map([...readFileSync(writesLog, "utf8").matchAll(/SAVED (\d+) (\S+)/g)].map((m) => [m[1]!, m[2]!]));
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        const url = new URL(req.url);
        if (url.pathname === "/portal") {
          return new Response(
            `<!doctype html><title>Order portal</title>
<label for="q">Search</label> <input id="q"> <button id="find">Find</button>
<ul id="results"></ul>
<script>
document.getElementById("find").onclick = async () => {
  const q = document.getElementById("q").value;
  const found = await (await fetch("/api/orders?q=" + encodeURIComponent(q))).json();
  document.getElementById("results").innerHTML = found.length === 0 ? "<li>No orders found</li>"
    : found.map((o) => "<li>Order " + o.number + " for customer " + o.customer + "</li>").join("");
};
</script>`,
            { headers: { "content-type": "text/html; charset=utf-8" } },
          );
        }
        if (url.pathname === "/api/orders") {
          const q = url.searchParams.get("q") ?? "";
          return Response.json([...orders()].filter(([n]) => q !== "" && n.includes(q)).map(([number, customer]) => ({ number, customer })));
        }
        const one = /^\/api\/orders\/(\d+)$/.exec(url.pathname);
        if (one) {
          const customer = orders().get(one[1]!);
          return customer === undefined ? Response.json({ error: "no such order" }, { status: 404 }) : Response.json({ number: one[1], customer });
        }
        return new Response("not found", { status: 404 });
      },
    });
    // Chromium is a Linux program: it runs here, and flowproof.exe under Wine (which shares this
    // machine's network) drives it through its DevTools endpoint (`browser.endpoint`).
    let browser: LaunchedBrowser | undefined;
    try {
      browser = await launchBrowser(requireChromium(), { extraArgs: ["--remote-allow-origins=*"] });
      const flow = writeFlow(
        "sap-web-api",
        `name: Order in SAP, on the portal, from the API
apps:
  clerk: { app: sap, connection: TS3, login: { user: clerk, password: "\${CLERK_PW}" } }
  portal: { app: web, url: "\${PORTAL_URL}/portal", browser: { endpoint: "\${BROWSER_ENDPOINT}" } }
  backend: { app: api }
steps:
${clerkSavesOrder("90210")}
  - in: portal
    steps:
      - rules: Type \${captured.order} into the "Search" field
      - rules: Click "Find"
      - assert: page shows Order \${captured.order} for customer 90210
  - in: backend
    steps:
      - assert_api:
          request: GET \${PORTAL_URL}/api/orders/\${captured.order}
          body_json: customer
          equals: "90210"
`,
      );
      const env = sapEnv({ PORTAL_URL: server.url.origin, BROWSER_ENDPOINT: browser.wsUrl });
      const rec = await flowproof(["record", winPath(flow), "--json"], env);
      expect(rec.code, `${rec.stdout}\n${rec.stderr}`).toBe(0);
      const saved = [...orders().keys()];
      const header = JSON.parse(readFileSync(join(project, "sap-web-api.trace.jsonl"), "utf8").split("\n")[0]!) as {
        apps: Record<string, Record<string, unknown>>;
      };
      expect(header.apps["clerk"]).toMatchObject({ adapter: "sap", connection: "TS3", login_user: "clerk" });
      expect(header.apps["portal"]).toMatchObject({ adapter: "web", browser: { endpoint: "${BROWSER_ENDPOINT}" } });

      const run = await flowproof(["run", winPath(flow), "--json"], env);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect((json(run) as { report: { outcome: string } }).report.outcome).toBe("passed");
      // The replay saved a new order in SAP and found that one: the number is captured afresh.
      const after = [...orders().keys()].filter((n) => !saved.includes(n));
      expect(after.length).toBe(1);
      expect(readFileSync(writesLog, "utf8")).toContain(`SAVED ${after[0]} 90210`);
    } finally {
      await browser?.close();
      server.stop(true);
    }
  }, 600_000);

  test("no password reaches any trace, report, frame or log line", () => {
    for (const file of filesUnder(project)) {
      const bytes = readFileSync(file);
      for (const canary of [CLERK_PW, APPROVER_PW, "Canary-Wrong-5e1d"]) {
        expect(bytes.includes(Buffer.from(canary)) || bytes.includes(Buffer.from(canary, "utf16le")), `${canary} in ${file}`).toBe(false);
      }
    }
  });
});
