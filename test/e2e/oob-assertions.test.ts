// Out-of-band assertions end to end through the real CLI: `app: api` flows against a real local
// HTTP server (request counting proves writes are never re-sent by auto-wait), assert_sql against
// a real PostgreSQL server and a real SQLite file, assert_spreadsheet on xlsx written by exceljs and
// on one downloaded from a page in Chromium, assert_screenshot baselines, and the secret-leak scan.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import ExcelJS from "exceljs";
import { PNG } from "pngjs";
import postgres from "postgres";
import { runCli, type CliResult } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { buildSandbox } from "../support/executable.ts";
import { parseTrace } from "../support/trace.ts";
import { record as recordFlow } from "../../src/commands/record.ts";
import { run as runFlow } from "../../src/commands/run.ts";

const projects: TmpProject[] = [];
let api: ReturnType<typeof Bun.serve>;
let API = "";
const counts = new Map<string, number>();
const bump = (k: string) => {
  counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts.get(k)!;
};

beforeAll(() => {
  api = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const key = `${req.method} ${url.pathname}`;
      const n = bump(key);
      switch (url.pathname) {
        case "/users":
          return Response.json({
            results: [
              { balance: 150953, ref: "0953", name: "Ada" },
              { balance: 2, name: "Bob" },
            ],
            meta: { page: 1 },
          });
        case "/multi": {
          const h = new Headers({ "content-type": "text/plain" });
          h.append("x-tag", "a");
          h.append("x-tag", "b");
          return new Response("plain text, not json", { headers: h });
        }
        case "/echo":
          return Response.json({
            method: req.method,
            type: req.headers.get("content-type"),
            auth: req.headers.get("authorization") === `Bearer ${TOKEN}`,
            body: await req.text(),
          });
        case "/jobs":
          return new Response("failing", { status: 500 });
        case "/jobs-eventually":
          return n >= 3 ? new Response("accepted", { status: 202 }) : new Response("not yet", { status: 503 });
        case "/slow-ready":
          return n >= 3 ? Response.json({ state: "ready" }) : Response.json({ state: "pending" });
        case "/leaky":
          return Response.json({ note: `the password is ${SECRET}` });
        default:
          return new Response("not found", { status: 404 });
      }
    },
  });
  API = api.url.href.replace(/\/$/, "");
});
afterAll(() => {
  api?.stop(true);
  for (const p of projects) p.remove();
});

const TOKEN = "tok-8c1f2b7d";
const SECRET = "hunter2-very-secret";

function project(): TmpProject {
  const p = tmpProject("flowproof-oob-");
  projects.push(p);
  p.write("package.json", '{"name":"oob-project","private":true}\n');
  return p;
}

const apiFlow = (steps: string) => `name: API flow\napp: api\nsteps:\n${steps}`;

async function cli(p: TmpProject, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(args, { cwd: p.dir, env: { API, TOKEN, ...env } });
}

/** Frames off, for the web tests whose evidence is not frames: each frame costs CPU. */
const NO_FRAMES = ["--recording-detail", "off"];

async function record(
  p: TmpProject,
  flow: string,
  env: Record<string, string> = {},
  flags: readonly string[] = [],
): Promise<{ r: CliResult; json: { ok: boolean; error?: string; trace_path: string | null } }> {
  p.write("t.flow.yaml", flow);
  const r = await cli(p, ["record", "t.flow.yaml", "--author", "rules", "--json", ...flags], env);
  const json = JSON.parse(r.stdout) as { error?: string; trace_path: string | null };
  return { r, json: { ...json, ok: json.trace_path !== null } };
}

/**
 * Records and replays in this process, without a CLI of its own and without frames: for the tests
 * of what an assertion kind checks (the failure tables, screenshot baselines), where the CLI adds
 * nothing but its start-up; the CLI's own record/replay paths are the other tests' business.
 */
async function recordHere(p: TmpProject, flow: string, env: Record<string, string> = {}): Promise<{ ok: boolean; error?: string; trace_path: string | null }> {
  const spec = p.write("t.flow.yaml", flow);
  const r = await recordFlow({ spec, author: "rules", env: { ...process.env, API, TOKEN, ...env }, recordingDetail: "off" });
  return { ok: r.trace_path !== null, trace_path: r.trace_path, ...(r.error !== undefined ? { error: r.error } : {}) };
}

async function replayHere(p: TmpProject): Promise<RunJson> {
  const r = await runFlow({ spec: join(p.dir, "t.flow.yaml"), env: { ...process.env, API, TOKEN }, recordingDetail: "off" });
  expectValidResult(r.report_path);
  return r as unknown as RunJson;
}

interface RunJson {
  report: { passed: boolean; error?: string; steps: Array<{ status: string; detail?: string }> };
  report_path: string;
  run_dir: string;
}
async function replay(p: TmpProject, env: Record<string, string> = {}, flags: readonly string[] = []): Promise<RunJson> {
  const r = await cli(p, ["run", "t.flow.yaml", "--json", ...flags], env);
  const out = JSON.parse(r.stdout) as RunJson;
  expectValidResult(out.report_path);
  return out;
}

describe("app: api flows with assert_api", () => {
  test("records and replays without a browser; the trace keeps only references", async () => {
    const p = project();
    const { r, json } = await record(
      p,
      apiFlow(`  - assert_api:
      request: GET \${API}/users
      status: 200
      body_contains: Ada
      body_json: results.0.balance
      equals: 150953
  - assert_api:
      request: get \${API}/users
      body_json: results
      count: 2
  - assert_api:
      request: GET \${API}/users
      body_json: results
      count_at_least: 1
      header: Content-Type
      header_contains: json
  - assert_api:
      request: GET \${API}/multi
      header: X-TAG
      header_equals: a, b
  - assert_api:
      request: POST \${API}/echo
      headers:
        Authorization: Bearer \${TOKEN}
      body:
        provider: postgres
        token: \${TOKEN}
      body_contains: '"auth":true'
  - assert_api:
      request: GET \${API}/users
      body_json: results.1.name
`),
    );
    expect(r.stderr).not.toContain("error");
    expect(json.ok).toBe(true);
    const trace = readFileSync(json.trace_path!, "utf8");
    expectValidTrace(json.trace_path!);
    expect(trace).toContain("Bearer ${TOKEN}");
    expect(trace).not.toContain(TOKEN);
    expect(trace).not.toContain('150953"}'); // the live value is never stored (only the expectation)
    expect(parseTrace(trace).header["app"]).toEqual({ name: "api", adapter: "api" });
    const run = await replay(p);
    expect(run.report.passed).toBe(true);
    expect(run.report.steps.map((s) => s.status)).toEqual(Array(6).fill("passed"));
    expect(readFileSync(run.report_path, "utf8")).not.toContain(TOKEN);
  });

  test("sends JSON with content-type application/json unless the flow sets its own", async () => {
    const p = project();
    const json = await recordHere(
      p,
      apiFlow(`  - assert_api:
      request: PUT \${API}/echo
      body: [1, 2]
      body_json: type
      equals: application/json
  - assert_api:
      request: PATCH \${API}/echo
      headers: { Content-Type: text/plain }
      body: hello
      body_json: body
      equals: hello
`),
    );
    expect(json.error).toBeUndefined();
    expect(json.ok).toBe(true);
  });

  test.each([
    ["a status mismatch", "request: GET ${API}/users\n      status: 201", "assert_api: response status was 200"],
    ["a missing body text", "request: GET ${API}/users\n      body_contains: Zed", 'response body does not contain "Zed" (status 200)'],
    ["a non-JSON body", "request: GET ${API}/multi\n      body_json: a", "response body is not valid JSON"],
    ["a path that runs off the document", "request: GET ${API}/users\n      body_json: results.0.balance.x", "path 'results.0.balance.x' stops at segment 'x'"],
    ["an index past the end", "request: GET ${API}/users\n      body_json: results.5.balance", "path 'results.5.balance' stops at segment '5'"],
    ["a path to an object", "request: GET ${API}/users\n      body_json: meta", "path resolves to a non-scalar; assert a leaf value"],
    [
      "a string leaf against a number",
      "request: GET ${API}/users\n      body_json: results.0.ref\n      equals: 953",
      "path 'results.0.ref' is 0953, expected 953",
    ],
    ["a count on an object", "request: GET ${API}/users\n      body_json: meta\n      count: 1", "path 'meta' is an object, count requires an array"],
    ["a wrong count", "request: GET ${API}/users\n      body_json: results\n      count: 5", "path 'results' has 2 elements, expected exactly 5"],
    [
      "a count below the minimum",
      "request: GET ${API}/users\n      body_json: results\n      count_at_least: 3",
      "path 'results' has 2 elements, expected at least 3",
    ],
    ["an absent header", "request: GET ${API}/users\n      header: X-Missing", "response has no 'X-Missing' header (status 200)"],
    [
      "a header value mismatch",
      "request: GET ${API}/users\n      header: Content-Type\n      header_equals: text/html",
      "header 'Content-Type' is 'application/json;charset=utf-8', expected equals 'text/html' (status 200)",
    ],
    [
      "a header substring mismatch",
      "request: GET ${API}/multi\n      header: x-tag\n      header_contains: c",
      "header 'x-tag' is 'a, b', expected contains 'c' (status 200)",
    ],
  ])("fails on %s with the documented message", async (_, args, message) => {
    const p = project();
    const json = await recordHere(p, apiFlow(`  - assert_api:\n      ${args}\n      timeout_seconds: 0\n`));
    expect(json.ok).toBe(false);
    expect(json.trace_path).toBeNull();
    expect(json.error).toContain(message);
  });

  test("auto-waits a read until it holds", async () => {
    const p = project();
    counts.delete("GET /slow-ready");
    const { json } = await record(p, apiFlow("  - assert_api:\n      request: GET ${API}/slow-ready\n      body_json: state\n      equals: ready\n"));
    expect(json.ok).toBe(true);
    expect(counts.get("GET /slow-ready")).toBe(3);
  });

  test("never re-sends a POST while waiting, unless retry: true", async () => {
    const p = project();
    counts.delete("POST /jobs");
    const once = await record(p, apiFlow("  - assert_api:\n      request: POST ${API}/jobs\n      body: {a: 1}\n      status: 202\n"));
    expect(once.r.code).toBe(1);
    expect(once.json.ok).toBe(false);
    expect(once.json.trace_path).toBeNull();
    expect(once.json.error).toContain("response status was 500");
    expect(counts.get("POST /jobs")).toBe(1);

    counts.delete("POST /jobs-eventually");
    const polled = await record(p, apiFlow("  - assert_api:\n      request: POST ${API}/jobs-eventually\n      status: 202\n      retry: true\n"));
    expect(polled.json.ok).toBe(true);
    expect(counts.get("POST /jobs-eventually")).toBe(3);

    counts.delete("GET /slow-ready");
    const readOnce = await record(
      p,
      apiFlow("  - assert_api:\n      request: GET ${API}/slow-ready\n      body_json: state\n      equals: ready\n      retry: false\n"),
    );
    expect(readOnce.json.ok).toBe(false);
    expect(counts.get("GET /slow-ready")).toBe(1);
  });

  test("refuses malformed steps at load with file:line:col, did-you-mean and the documented rules", async () => {
    const p = project();
    p.write(
      "t.flow.yaml",
      apiFlow(`  - assert_api:
      request: GET \${API}/users
      stauts: 200
  - assert_api:
      request: GET \${API}/users
      body: {a: 1}
      equals: 3
      header_contains: x
  - assert_api:
      request: FETCH \${API}
      count: 1
      count_at_least: 1
      body_json: results
  - rules: Click "Save"
  - assert_sql:
      connection: main
  - assert_screenshot:
      name: home
`),
    );
    const r = await cli(p, ["validate", "t.flow.yaml"]);
    expect(r.code).toBe(2);
    const err = r.stderr;
    expect(err).toContain("t.flow.yaml:6:7: error[unknown-key] unknown key `stauts` in `assert_api`");
    expect(err).toContain("did you mean `status`?");
    expect(err).toContain("t.flow.yaml:9:7: error[bad-value] a GET request cannot carry a `body`");
    expect(err).toContain("t.flow.yaml:10:7: error[bad-value] `equals` needs `body_json`");
    expect(err).toContain("t.flow.yaml:11:7: error[bad-value] `header_contains` needs `header`");
    expect(err).toContain("t.flow.yaml:13:7: error[bad-value] `request` must be `METHOD url`");
    expect(err).toContain("t.flow.yaml:15:7: error[bad-value] `count` and `count_at_least` are mutually exclusive");
    expect(err).toContain("t.flow.yaml:17:12: error[unsupported-step] an `app: api` flow has no UI");
    expect(err).toContain("t.flow.yaml:18:5: error[missing-key] `assert_sql` needs `query`");
    expect(err).toContain(
      "t.flow.yaml:20:5: error[unsupported-step] `assert_screenshot` needs a surface with the screenshot capability, which an `app: api` flow does not have",
    );
  });
});

describe("assert_sql", () => {
  const pgUrl = process.env["FLOWPROOF_TEST_PG_URL"];
  const table = `orders_${process.pid}`;

  test("reads a real PostgreSQL server (FLOWPROOF_TEST_PG_URL, started by .ci/run)", async () => {
    if (!pgUrl) {
      throw new Error(
        "FLOWPROOF_TEST_PG_URL is not set: the SQL tests need a PostgreSQL server. Run .ci/run, or start one and export FLOWPROOF_TEST_PG_URL=postgres://user:pass@127.0.0.1:5432/db",
      );
    }
    const sql = postgres(pgUrl, { max: 1, connect_timeout: 5, onnotice: () => undefined });
    try {
      await sql.unsafe(
        `DROP TABLE IF EXISTS ${table}; CREATE TABLE ${table} (ref text, total numeric); INSERT INTO ${table} VALUES ('4711', 12.50), ('4712', 3)`,
      );
    } catch (e) {
      throw new Error(
        `the PostgreSQL server at FLOWPROOF_TEST_PG_URL is not reachable (${e instanceof Error ? e.message : String(e)}); run .ci/run to install and start it`,
      );
    }
    try {
      const p = project();
      const env = { FLOWPROOF_SQL_REPORTING: pgUrl };
      const { json } = await record(
        p,
        apiFlow(`  - assert_sql:
      connection: reporting
      query: SELECT count(*) FROM ${table} WHERE ref = '4711'
      equals: "1"
  - assert_sql:
      connection: reporting
      query: SELECT total FROM ${table} WHERE ref = '4711'
      equals: "12.50"
  - assert_sql:
      connection: reporting
      query: SELECT 1 FROM ${table} WHERE ref = '4712'
`),
        env,
      );
      expect(json.error).toBeUndefined();
      expect(readFileSync(json.trace_path!, "utf8")).not.toContain(pgUrl);
      expect((await replay(p, env)).report.passed).toBe(true);
      // Red paths: a value mismatch and no rows.
      const bad = await record(
        p,
        apiFlow(`  - assert_sql:\n      connection: reporting\n      query: SELECT count(*) FROM ${table}\n      equals: 3\n      timeout_seconds: 0\n`),
        env,
      );
      expect(bad.json.error).toContain("assert_sql: query returned '2', expected '3'");
      const none = await record(
        p,
        apiFlow(`  - assert_sql:\n      connection: reporting\n      query: SELECT 1 FROM ${table} WHERE ref = 'nope'\n      timeout_seconds: 0\n`),
        env,
      );
      expect(none.json.error).toContain("query returned no rows");
    } finally {
      await sql.unsafe(`DROP TABLE IF EXISTS ${table}`);
      await sql.end();
    }
  });

  test("reads a real SQLite file through a sqlite: URL, relative to the flow", async () => {
    const p = project();
    const db = new Database(join(p.dir, "app.db"));
    db.run("CREATE TABLE orders (ref TEXT, status TEXT)");
    db.run("INSERT INTO orders VALUES ('4711', 'confirmed')");
    db.close();
    const env = { FLOWPROOF_SQL_APP_DB: "sqlite:app.db" };
    const { json } = await record(
      p,
      apiFlow("  - assert_sql:\n      connection: app-db\n      query: SELECT status FROM orders WHERE ref = '4711'\n      equals: confirmed\n"),
      env,
    );
    expect(json.error).toBeUndefined();
    expect((await replay(p, env)).report.passed).toBe(true);
    const bad = await record(p, apiFlow("  - assert_sql:\n      connection: app-db\n      query: SELECT nope FROM orders\n      timeout_seconds: 0\n"), env);
    expect(bad.json.error).toContain("query on 'app-db' failed: no such column: nope");
  });

  test("an unconfigured connection fails at once, naming the variable", async () => {
    const p = project();
    const started = Date.now();
    const { json } = await record(p, apiFlow("  - assert_sql:\n      connection: reporting\n      query: SELECT 1\n"), {});
    expect(json.ok).toBe(false);
    expect(json.error).toContain("connection 'reporting' is not configured: FLOWPROOF_SQL_REPORTING is not set");
    expect(Date.now() - started).toBeLessThan(8_000); // no 10 s auto-wait
  });
});

async function writeWorkbook(path: string): Promise<void> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Prices");
  ws.addRow(["Material", "Net Price ", "Currency"]);
  ws.addRow(["100-100", 12.5, "EUR"]);
  ws.addRow(["100-200", 7, "EUR"]);
  wb.addWorksheet("Other").addRow(["x"]);
  await wb.xlsx.writeFile(path);
}

describe("assert_spreadsheet", () => {
  test("reads xlsx written by exceljs and csv: at, column + row_contains, equals, contains", async () => {
    const p = project();
    await writeWorkbook(join(p.dir, "prices.xlsx"));
    p.write("prices.csv", 'Material,Net Price,Note\n100-100,12.50,"said ""hi"", twice"\n100-200,7,\n');
    const { json } = await record(
      p,
      apiFlow(`  - assert_spreadsheet:
      path: prices.xlsx
      at: B2
      equals: "12.50"
  - assert_spreadsheet:
      path: \${DATA}/prices.xlsx
      sheet: Prices
      column: Net Price
      row_contains: "100-200"
      equals: 7
  - assert_spreadsheet:
      path: prices.csv
      column: Note
      row_contains: "100-100"
      contains: hi", twice
  - assert_spreadsheet:
      path: prices.csv
      at: A3
`),
      { DATA: p.dir },
    );
    expect(json.error).toBeUndefined();
    expect((await replay(p, { DATA: p.dir })).report.passed).toBe(true);
  });

  test.each([
    ["a value mismatch", "path: prices.xlsx\n      at: B3\n      equals: 8", "cell B3 is '7', expected equals '8'"],
    ["an empty cell", "path: prices.xlsx\n      at: F9", "cell F9 is empty"],
    ["an unknown sheet", "path: prices.xlsx\n      sheet: Nope\n      at: A1", "the workbook has no sheet 'Nope' (sheets: Prices, Other)"],
    ["an unknown column", "path: prices.xlsx\n      column: Gross\n      row_contains: 100-100", "no column 'Gross' in the first row"],
    ["an ambiguous row", "path: prices.xlsx\n      column: Currency\n      row_contains: EUR", "2 data rows contain 'EUR'"],
    ["a missing file", "path: nope.xlsx\n      at: A1", "no file at"],
    ["an unsupported format", "path: prices.ods\n      at: A1", "this version reads .xlsx, .xlsm, .csv"],
  ])("fails on %s", async (_, args, message) => {
    const p = project();
    await writeWorkbook(join(p.dir, "prices.xlsx"));
    const json = await recordHere(p, apiFlow(`  - assert_spreadsheet:\n      ${args}\n      timeout_seconds: 0\n`));
    expect(json.ok).toBe(false);
    expect(json.error).toContain(message);
  });

  test("refuses at and column together, and equals with contains, at load", async () => {
    const p = project();
    p.write(
      "t.flow.yaml",
      apiFlow(
        "  - assert_spreadsheet:\n      path: a.xlsx\n      at: B2\n      column: Net\n      row_contains: x\n  - assert_spreadsheet:\n      path: a.xlsx\n      at: B2\n      equals: 1\n      contains: '1'\n",
      ),
    );
    const r = await cli(p, ["validate", "t.flow.yaml"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("t.flow.yaml:7:7: error[bad-value] `at` and `column` + `row_contains` are two ways to name the cell");
    expect(r.stderr).toContain("t.flow.yaml:13:7: error[bad-value] `equals` and `contains` are mutually exclusive");
  });
});

describe("web flows: a downloaded xlsx, screenshots and the secret-leak scan", () => {
  let server: TestServer;
  let site: TmpProject;
  beforeAll(async () => {
    requireChromium();
    site = project();
    mkdirSync(join(site.dir, "files"), { recursive: true });
    await writeWorkbook(join(site.dir, "files", "prices.xlsx"));
    site.write("export.html", '<!doctype html><html><body><h1>Exports</h1><a href="/files/prices.xlsx" download>Download prices</a></body></html>');
    site.write(
      "dash.html",
      `<!doctype html><html><head><style>body{margin:0;font:16px sans-serif} .clock{position:absolute;left:10px;top:60px;width:200px;height:30px;background:#0a0}</style></head>
<body><h1 id="title">Dashboard</h1><div class="clock" id="clock"></div><p id="secret"></p>
<script>const q=new URLSearchParams(location.search); if(q.get("clock")) document.getElementById("clock").style.background=q.get("clock"); if(q.get("title")) document.getElementById("title").textContent=q.get("title"); if(q.get("leak")) document.getElementById("secret").textContent="token "+q.get("leak");</script></body></html>`,
    );
    server = await startServer(site.dir);
  });
  afterAll(() => server?.stop());

  const webFlow = (url: string, steps: string) => `name: Web flow\napp: web\nurl: ${url}\nsteps:\n${steps}`;

  test("checks a real download's xlsx through ${captured.x}", async () => {
    const p = project();
    const { json } = await record(
      p,
      webFlow(
        `${server.url}/export.html`,
        `  - rules: Click "Download prices"
  - rules: Wait until the download completes as prices within 10s
  - assert_spreadsheet:
      path: \${captured.prices}
      column: Net Price
      row_contains: "100-100"
      equals: 12.5
`,
      ),
      {},
      NO_FRAMES,
    );
    expect(json.error).toBeUndefined();
    expectValidTrace(json.trace_path!);
    expect(readFileSync(json.trace_path!, "utf8")).toContain("${captured.prices}");
    expect((await replay(p, {}, NO_FRAMES)).report.passed).toBe(true);
  }, 60_000);

  /** A page of its own per test, rewritten between record and replay to change what it shows. */
  const dashPage = (name: string, clock: string) =>
    site.write(
      `${name}.html`,
      `<!doctype html><html><head><style>body{margin:0;font:16px sans-serif} .clock{position:absolute;left:10px;top:60px;width:200px;height:30px;background:${clock}}</style></head>
<body><h1 id="title">Dashboard</h1><div class="clock" id="clock"></div><p style="position:absolute;top:120px;left:10px;margin:0;color:${clock}">Synced</p></body></html>`,
    );

  test("mints a baseline at record, matches it, and reports a mismatch with actual and diff images", async () => {
    const p = project();
    dashPage("shot1", "#0a0");
    const flow = (extra = "") =>
      webFlow(
        `${server.url}/shot1.html`,
        `  - assert: page shows Dashboard\n  - assert_screenshot:\n      name: dashboard\n      timeout_seconds: 1${extra}\n`,
      );
    const json = await recordHere(p, flow());
    expect(json.error).toBeUndefined();
    expectValidTrace(json.trace_path!);
    const baseline = join(p.dir, "t.baselines", "dashboard.png");
    expect(existsSync(baseline)).toBe(true);
    expect((await replayHere(p)).report.passed).toBe(true);

    // The page changes: the clock box turns red. The run fails, leaving actual + diff images.
    dashPage("shot1", "red");
    const bad = await replayHere(p);
    expect(bad.report.passed).toBe(false);
    const detail = bad.report.steps[1]!.detail!;
    expect(detail).toMatch(
      /screenshot 'dashboard' differs from its baseline in \d+\.\d+% of pixels \(\d+ of \d+\), threshold 0\.00%; see visual\/dashboard\.diff\.png/,
    );
    expect(readdirSync(join(bad.run_dir, "visual")).sort()).toEqual(["dashboard.actual.png", "dashboard.diff.png"]);
    expect((bad.report.steps[1] as { evidence?: string[] }).evidence).toEqual(["visual/dashboard.actual.png", "visual/dashboard.diff.png"]);
    expect(readFileSync(join(bad.run_dir, "report.html"), "utf8")).toContain('<img src="visual/dashboard.diff.png"');
    const diff = PNG.sync.read(readFileSync(join(bad.run_dir, "visual", "dashboard.diff.png")));
    expect([diff.data[(70 * diff.width + 50) * 4], diff.data[(70 * diff.width + 50) * 4 + 1]]).toEqual([255, 0]); // a red diff pixel inside the clock box

    // A threshold above the differing fraction accepts the change.
    dashPage("shot1", "#0a0");
    expect((await recordHere(p, flow("\n      threshold: 0.5"))).error).toBeUndefined();
    dashPage("shot1", "red");
    expect((await replayHere(p)).report.passed).toBe(true);
  }, 90_000);

  test("masks are blanked at record and replay; an unresolved mask fails; a size change explains itself", async () => {
    const p = project();
    dashPage("shot2", "#0a0");
    const flow = (mask: string) =>
      webFlow(
        `${server.url}/shot2.html`,
        `  - assert: page shows Dashboard\n  - assert_screenshot:\n      name: masked\n      mask: [${mask}]\n      timeout_seconds: 1\n`,
      );
    expect((await recordHere(p, flow('"css:.clock", Synced'))).error).toBeUndefined();
    const png = PNG.sync.read(readFileSync(join(p.dir, "t.baselines", "masked.png")));
    expect([...png.data.subarray((70 * png.width + 50) * 4, (70 * png.width + 50) * 4 + 3)]).toEqual([0, 0, 0]);
    dashPage("shot2", "red");
    expect((await replayHere(p)).report.passed).toBe(true);

    // Without the text mask, the recoloured "Synced" differs.
    dashPage("shot2", "#0a0");
    expect((await recordHere(p, flow('"css:.clock"'))).error).toBeUndefined();
    dashPage("shot2", "red");
    expect((await replayHere(p)).report.passed).toBe(false);

    // A baseline of another size: the failure names both sizes and the likely cause.
    writeFileSync(join(p.dir, "t.baselines", "masked.png"), PNG.sync.write(new PNG({ width: 10, height: 10 })));
    const sized = await replayHere(p);
    expect(sized.report.steps[1]!.detail).toMatch(/screenshot 'masked' is \d+x\d+ but its baseline is 10x10; the viewport \(or device scale\) changed/);

    const unresolved = await recordHere(p, flow('"id:nowhere"'));
    expect(unresolved.error).toContain('mask "id:nowhere" does not resolve to any element');
  }, 90_000);

  test("assert_no_secret_leak fails naming the variable and where, never the value (web and api)", async () => {
    const p = project();
    const env = { DB_PASSWORD: SECRET, SHORT: "abc" };
    const clean = await record(p, webFlow(`${server.url}/dash.html`, "  - assert: page shows Dashboard\n  - assert_no_secret_leak: ${DB_PASSWORD}\n"), env);
    expect(clean.json.error).toBeUndefined();
    expect((await replay(p, env)).report.passed).toBe(true);

    const leakyPage = await record(
      p,
      webFlow(`${server.url}/dash.html?leak=\${DB_PASSWORD}`, "  - assert: page shows Dashboard\n  - assert_no_secret_leak:\n      - ${DB_PASSWORD}\n"),
      env,
    );
    expect(leakyPage.json.ok).toBe(false);
    expect(leakyPage.json.error).toContain("secret leak: ${DB_PASSWORD} surfaced in surface text after step s0001");
    expect(leakyPage.r.stdout + leakyPage.r.stderr).not.toContain(SECRET);

    const leakyApi = await record(p, apiFlow("  - assert_api:\n      request: GET ${API}/leaky\n  - assert_no_secret_leak: ${DB_PASSWORD}\n"), env);
    expect(leakyApi.json.error).toContain("secret leak: ${DB_PASSWORD} surfaced in assert_api response body of step s0001");
    expect(leakyApi.r.stdout + leakyApi.r.stderr).not.toContain(SECRET);

    // Whole-run scope: a leak after the scan step still fails the recording.
    const late = await record(p, apiFlow("  - assert_no_secret_leak: ${DB_PASSWORD}\n  - assert_api:\n      request: GET ${API}/leaky\n"), env);
    expect(late.json.ok).toBe(false);
    expect(late.json.error).toContain("surfaced in assert_api response body of step s0002");

    const short = await record(p, apiFlow("  - assert_no_secret_leak: ${SHORT}\n"), env);
    expect(short.json.error).toContain("${SHORT} is too short to scan for: a secret must be at least 4 characters");
  }, 90_000);
});

describe("a project's own assertion kind", () => {
  test("a plugin in the project's plugins/ adds assert_stock, validated and auto-waited like the built-ins", async () => {
    const p = project();
    p.write(
      "plugins/stock.ts",
      `import { defineAssertion } from "flowproof";
export const plugin = defineAssertion({
  key: "assert_stock",
  schema: { type: "object", required: ["sku", "at_least"], additionalProperties: false, properties: { sku: { type: "string" }, at_least: { type: "integer" }, timeout_seconds: { type: "number" } } },
  async run(args, ctx) {
    const res = await fetch(ctx.env.API + "/slow-ready");
    const body = await res.json();
    return body.state === "ready" ? { pass: true } : { pass: false, expected: "ready", actual: "stock for " + args.sku + " is " + body.state };
  },
});
`,
    );
    counts.delete("GET /slow-ready");
    const { json } = await record(p, apiFlow("  - assert_stock:\n      sku: B2\n      at_least: 1\n"));
    expect(json.error).toBeUndefined();
    expect(counts.get("GET /slow-ready")).toBe(3);
    p.write("t.flow.yaml", apiFlow("  - assert_stock:\n      sku: 7\n"));
    const r = await cli(p, ["validate", "t.flow.yaml"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("t.flow.yaml:5:12: error[bad-value] `sku` must be a string");
    expect(r.stderr).toContain("t.flow.yaml:4:5: error[missing-key] `assert_stock` needs `at_least`");
  });
});

describe("through the compiled executable", () => {
  test("an api flow with assert_api, assert_sql (SQLite) and assert_spreadsheet records and replays with no bun or node on PATH", async () => {
    const sandbox = await buildSandbox();
    try {
      const p = project();
      const db = new Database(join(p.dir, "app.db"));
      db.run("CREATE TABLE t (v TEXT)");
      db.run("INSERT INTO t VALUES ('ok')");
      db.close();
      await writeWorkbook(join(p.dir, "prices.xlsx"));
      p.write(
        "t.flow.yaml",
        apiFlow(`  - assert_api:
      request: GET \${API}/users
      body_json: results.0.name
      equals: Ada
  - assert_sql:
      connection: app
      query: SELECT v FROM t
      equals: ok
  - assert_spreadsheet:
      path: prices.xlsx
      at: B2
      equals: 12.5
`),
      );
      const env = { API, FLOWPROOF_SQL_APP: "sqlite:app.db", PATH: sandbox.path };
      const rec = await sandbox.run(["record", "t.flow.yaml", "--author", "rules"], { cwd: p.dir, env });
      expect(rec.stderr).not.toContain("error");
      expect(rec.code).toBe(0);
      const run = await sandbox.run(["run", "t.flow.yaml", "--json"], { cwd: p.dir, env });
      expect(run.code).toBe(0);
      expect((JSON.parse(run.stdout) as RunJson).report.passed).toBe(true);
    } finally {
      sandbox.remove();
    }
  }, 180_000);
});
