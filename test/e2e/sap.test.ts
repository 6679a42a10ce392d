// SAP GUI flows for real, through the Windows executable under Wine: flowproof records and replays
// against the SAP GUI Scripting simulator (test/fixtures/sap/mocksap.c), reached cross-process
// through the Running Object Table exactly as SAP GUI is. flowproof starts the simulator itself as
// SAP Logon (SAP_LOGON_EXE), opens connections of its own and logs on; the simulator logs every
// property write, so the test sees where each password went. One Wine bed for the whole file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { compileWin32, flowproofExecutable, startWineBed, winPath, type WineBed, type WineRun } from "../support/wine.ts";

const MOCKSAP_C = resolve(import.meta.dir, "../fixtures/sap/mocksap.c");
const CLERK_PW = "Canary-Clerk-7f3a9";
const APPROVER_PW = "Canary-Appr-2b8c4";

let bed: WineBed;
let exe: string;
let project: string;
let writesLog: string;

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

async function flowproof(args: readonly string[], env: Record<string, string> = sapEnv()): Promise<WineRun> {
  return bed.run(exe, args, { env, timeoutMs: 120_000 });
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
  - rules: Press the "Save the order" button
  - assert: page shows has been saved
  - rules: Go to VA03
  - rules: Remember the "id:wnd[0]/usr/ctxtVBAK-VBELN" as order
  - rules: Press Enter
  - assert: the "Sold-To Party" field shows 4711
  - assert: page shows Display Standard Order \${captured.order}
`;

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
}, 600_000);

afterAll(async () => {
  await bed?.stop();
});

describe("sap flows through the Windows executable", () => {
  test("records and replays an order: own connection, login, Go to, fields, Enter, Save, Remember", async () => {
    const flow = writeFlow("order", ORDER_FLOW);
    const rec = await flowproof(["record", winPath(flow), "--json"]);
    expect(rec.code, `${rec.stdout}\n${rec.stderr}`).toBe(0);
    expect(json(rec)).toMatchObject({ steps: 11, trace_path: expect.stringContaining("order.trace.jsonl") });
    const trace = readFileSync(join(project, "order.trace.jsonl"), "utf8");
    const header = JSON.parse(trace.split("\n")[0]!) as { app: Record<string, unknown> };
    expect(header.app).toMatchObject({ adapter: "sap", connection: "TS3", login_user: "${CLERK_USER}" });
    expect(trace).toContain('"id":"wnd[0]/usr/ctxtVBAK-VBELN"');

    const run = await flowproof(["run", winPath(flow), "--json"]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const report = json(run) as { report: { outcome: string; steps: { status: string }[] } };
    expect(report.report.outcome).toBe("passed");
    // The simulator took a password only where it must go: the login screen's password field.
    const writes = readFileSync(writesLog, "utf8").split("\n").filter((l) => l.includes(CLERK_PW));
    expect(writes.length).toBe(2);
    for (const w of writes) expect(w).toMatch(/^(?:\uFEFF)?SET \/app\/con\[\d+\]\/ses\[0\]\/wnd\[0\]\/usr\/pwdRSYST-BCODE Text=/);
  }, 300_000);

  test("a status-bar error fails the step with SAP's message", async () => {
    const flow = writeFlow("bad-type", ORDER_FLOW.replace("Type ZOR into", "Type XX into"));
    const rec = await flowproof(["record", winPath(flow), "--json"]);
    expect(rec.code).toBe(1);
    expect(rec.stdout).toContain("SAP error message: Enter a valid sales document type");
  }, 120_000);

  test("two surfaces of one system log on with their own users in one flow", async () => {
    const flow = writeFlow("approval", `name: Order approval
apps:
  clerk: { app: sap, connection: TS3, login: { user: clerk, password: "\${CLERK_PW}" } }
  approver: { app: sap, connection: TS3, login: { user: approver, password: "\${APPROVER_PW}" } }
steps:
  - in: clerk
    steps:
      - rules: Go to VA01
      - rules: Type OR into the "Order Type" field
      - rules: Press Enter
      - rules: Type 815 into the "Sold-To Party" field
      - rules: Press the "Save the order" button
      - rules: Go to VA03
      - rules: Remember the "Order" field as order
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
`);
    const rec = await flowproof(["record", winPath(flow), "--json"]);
    expect(rec.code, `${rec.stdout}\n${rec.stderr}`).toBe(0);
    const header = JSON.parse(readFileSync(join(project, "approval.trace.jsonl"), "utf8").split("\n")[0]!) as { apps: Record<string, Record<string, unknown>> };
    expect(header.apps["clerk"]).toMatchObject({ adapter: "sap", connection: "TS3", login_user: "clerk" });
    expect(header.apps["approver"]).toMatchObject({ adapter: "sap", login_user: "approver" });
    const run = await flowproof(["run", winPath(flow), "--json"]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const approverWrites = readFileSync(writesLog, "utf8").split("\n").filter((l) => l.includes(APPROVER_PW));
    expect(approverWrites.length).toBe(2);
    for (const w of approverWrites) expect(w).toContain("/usr/pwdRSYST-BCODE Text=");
  }, 300_000);

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
    const store = await bed.run("cmd", ["/c", `echo ${APPROVER_PW}| ${winPath(exe)} config sap --user approver --client 200 --json`], { env: sapEnv(), timeoutMs: 120_000 });
    expect(store.code, `${store.stdout}\n${store.stderr}`).toBe(0);
    expect(store.stdout).toContain('"user": "approver"');
    expect(store.stdout).not.toContain(APPROVER_PW);
    const flow = writeFlow("fallback", `name: Fallback login
app: sap
connection: TS3
steps:
  - assert: page shows Welcome APPROVER
`);
    const rec = await flowproof(["record", winPath(flow), "--json"]);
    expect(rec.code, `${rec.stdout}\n${rec.stderr}`).toBe(0);
    const removed = await flowproof(["config", "sap", "--delete", "--json"]);
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ stored: false });
  }, 300_000);

  test("no password reaches any trace, report, frame or log line", () => {
    for (const file of filesUnder(project)) {
      const bytes = readFileSync(file);
      for (const canary of [CLERK_PW, APPROVER_PW, "Canary-Wrong-5e1d"]) {
        expect(bytes.includes(Buffer.from(canary)) || bytes.includes(Buffer.from(canary, "utf16le")), `${canary} in ${file}`).toBe(false);
      }
    }
  });
});
