// Browser shaping end to end through the real CLI in real Chromium: mock rules answered in the
// browser, the session seed seen by the page's first script, device emulation, a pinned clock and
// time zone, seeded Math.random, downloads_dir — identical at record and replay, applied from the
// trace header — and a secret session value that never reaches any file. The seed is not applied
// to another origin.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { runCli } from "../support/cli.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { installRandom } from "../../plugins/web/injected/init-scripts.ts";
import { readTrace } from "../support/trace.ts";

const SECRET = "s3cr3t-SESSION-4f9a2c71e8";
const TOKEN = "tok-7d1e99b2a6c4";

let server: TestServer;
let project: TmpProject;
let rateHits = 0;

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  // The app does not serve the mocked endpoint: only the mock can answer it.
  server.setRoute("/api/rates", () => {
    rateHits++;
    return new Response("the app has no rates", { status: 503 });
  });
  server.setRoute(
    "/report.csv",
    () => new Response("a,b\n1,2\n", { headers: { "content-type": "text/csv", "content-disposition": "attachment; filename=report.csv" } }),
  );
  project = tmpProject();
});
afterAll(() => {
  server.stop();
  project.remove();
});

/** The first `n` draws a page sees for `seed`, as the fixture page prints them. */
function drawsFor(seed: number): string {
  const real = Math.random;
  try {
    installRandom(seed);
    return [Math.random(), Math.random(), Math.random()].map((r) => Math.floor(r * 1000)).join(",");
  } finally {
    Object.defineProperty(Math, "random", { value: real, writable: true, configurable: true });
  }
}

const env = { SESSION_SECRET: SECRET, CART_TOKEN: TOKEN };

function shapedFlow(url: string, draws: string): string {
  return `name: Shaped browser
app: web
url: ${url}/shaping.html
mock:
  - url_contains: /api/rates
    method: GET
    body:
      rate: 1.23
      source: mocked
session:
  cookies:
    - { name: theme, value: dark }
    - { name: sid, value: "\${SESSION_SECRET}" }
  local_storage:
    cart: sku-1
    token: "\${CART_TOKEN}"
browser:
  viewport: { width: 390, height: 844, device_scale_factor: 3, mobile: true, touch: true }
  user_agent: flowproof-agent/1.0
  clock: { at: "2019-03-14T12:00:00Z", timezone: Europe/Berlin }
  random: { seed: 1234 }
  downloads_dir: downloads
steps:
  - assert: page shows rate 1.23 via mocked (200 application/json)
  - assert: page shows theme = dark
  - assert: page shows sid = sid has ${SECRET.length} chars
  - assert: page shows cart = sku-1
  - assert: page shows token = token has ${TOKEN.length} chars
  - assert: page shows width = 390
  - assert: page shows dpr = 3
  - assert: page shows ua = flowproof-agent/1.0
  - assert: page shows touch = 5
  - assert: page shows mobile = true
  - assert: page shows now = 2019-03-14T12:00:00.000Z
  - assert: page shows local = 14/03/2019, 13:00:00
  - assert: page shows tz = Europe/Berlin
  - assert: page shows draws = ${draws}
  - rules: Click "Add to cart"
  - assert: page shows cart now sku-1+added
  - rules: Go to ${url}/shaping.html
  - assert: page shows loads = 2
  - assert: page shows cart = sku-1+added
  - rules: Click "Download report"
  - rules: Wait until the download completes as report
  - rules: Go to ${url.replace("127.0.0.1", "localhost")}/shaping.html
  - assert: page shows cart = no cart
  - assert: page shows theme = none
`;
}

describe("mock:, session: and browser: in real Chromium", () => {
  test("shape the page identically at record and replay, from the trace header, without writing the secret anywhere", async () => {
    const draws = drawsFor(1234);
    expect(draws).not.toBe(drawsFor(1235));
    const spec = project.write("shaped.flow.yaml", shapedFlow(server.url, draws));

    // `low` keeps the evidence (frames, report) while sparing the machine full-size frames at 3x.
    const recorded = await runCli(["record", spec, "--author", "rules", "--recording-detail", "low"], { cwd: project.dir, env });
    if (recorded.code !== 0) throw new Error(`record failed:\n${recorded.stdout}\n${recorded.stderr}`);
    const tracePath = join(project.dir, "shaped.trace.jsonl");
    expectValidTrace(tracePath);
    const header = readTrace<Record<string, unknown>>(tracePath).header;
    expect(header["mock"]).toEqual([{ url_contains: "/api/rates", method: "GET", body: { rate: 1.23, source: "mocked" } }]);
    expect(header["session"]).toEqual({
      cookies: [
        { name: "theme", value: "dark" },
        { name: "sid", value: "${SESSION_SECRET}" },
      ],
      local_storage: { cart: "sku-1", token: "${CART_TOKEN}" },
    });
    expect(header["browser"]).toEqual({
      viewport: { width: 390, height: 844, device_scale_factor: 3, mobile: true, touch: true },
      user_agent: "flowproof-agent/1.0",
      clock: { at: "2019-03-14T12:00:00Z", timezone: "Europe/Berlin" },
      random: { seed: 1234 },
      downloads_dir: "downloads",
    });
    expect(readFileSync(join(project.dir, "downloads", "report.csv"), "utf8")).toBe("a,b\n1,2\n");
    rmSync(join(project.dir, "downloads"), { recursive: true, force: true });

    // Replay shapes the browser from the header alone: a spec stripped of its blocks changes nothing
    // (the edited spec makes the run stale, exit 2, but every recorded step replays as shaped).
    writeFileSync(spec, `name: Shaped browser\napp: web\nurl: ${server.url}/shaping.html\nsteps:\n  - assert: page shows Shaping\n`);
    const replayed = await runCli(["run", spec, "--trace", tracePath, "--recording-detail", "low"], { cwd: project.dir, env });
    if (replayed.code !== 2 || !/^STALE: /m.test(replayed.stdout)) throw new Error(`run did not replay as stale:\n${replayed.stdout}\n${replayed.stderr}`);
    const resultPath = project.files().find((f) => f.endsWith("result.json"));
    expect(resultPath).toBeDefined();
    expectValidResult(join(project.dir, resultPath!));
    expect(
      (JSON.parse(readFileSync(join(project.dir, resultPath!), "utf8")) as { steps: Array<{ status: string }> }).steps.every((st) => st.status === "passed"),
    ).toBe(true);
    expect(existsSync(join(project.dir, "downloads", "report.csv"))).toBe(true);
    expect(rateHits).toBe(0);

    for (const file of project.files()) {
      const bytes = readFileSync(join(project.dir, file));
      expect({ file, secret: bytes.includes(SECRET), token: bytes.includes(TOKEN) }).toEqual({ file, secret: false, token: false });
    }
    for (const out of [recorded.stdout, recorded.stderr, replayed.stdout, replayed.stderr]) {
      expect(out.includes(SECRET) || out.includes(TOKEN)).toBe(false);
    }
  });
});

/** A Chromium someone else started, with a DevTools port: what `browser.endpoint` connects to. */
async function startForeignChromium(): Promise<{ wsUrl: string; httpUrl: string; proc: ReturnType<typeof Bun.spawn>; stop(): Promise<void> }> {
  const userDataDir = mkdtempSync(join(tmpdir(), "flowproof-foreign-chrome-"));
  const proc = Bun.spawn(
    [
      requireChromium(),
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--remote-debugging-port=0",
      `--user-data-dir=${userDataDir}`,
      "--user-agent=foreign-browser/1.0",
      "about:blank",
    ],
    { stdout: "ignore", stderr: "pipe" },
  );
  const reader = proc.stderr.getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the foreign Chromium exited before announcing its DevTools port:\n${text}`);
    text += new TextDecoder().decode(value);
    const m = /DevTools listening on (ws:\/\/127\.0\.0\.1:(\d+)\/\S+)/.exec(text);
    if (m) {
      reader.releaseLock();
      void proc.stderr.pipeTo(new WritableStream()).catch(() => undefined);
      return {
        wsUrl: m[1]!,
        httpUrl: `http://127.0.0.1:${m[2]!}`,
        proc,
        async stop() {
          proc.kill();
          await proc.exited;
          rmSync(userDataDir, { recursive: true, force: true });
        },
      };
    }
  }
}

describe("browser.endpoint and browser.args", () => {
  test("connects to a running Chromium over http:// and ws:// endpoints, one context per flow, and leaves that browser running", async () => {
    const foreign = await startForeignChromium();
    try {
      const spec = project.write(
        "endpoint.flow.yaml",
        `name: Remote browser
app: web
url: ${server.url}/shaping.html
browser:
  endpoint: \${BROWSER_ENDPOINT}
  clock: { at: "2019-03-14T12:00:00Z" }
steps:
  - assert: page shows ua = foreign-browser/1.0
  - assert: page shows now = 2019-03-14T12:00:00.000Z
`,
      );
      const recorded = await runCli(["record", spec, "--author", "rules"], { cwd: project.dir, env: { BROWSER_ENDPOINT: foreign.httpUrl } });
      if (recorded.code !== 0) throw new Error(`record failed:\n${recorded.stdout}\n${recorded.stderr}`);
      const header = readTrace<{ browser: unknown }>(join(project.dir, "endpoint.trace.jsonl")).header;
      expect(header.browser).toEqual({ endpoint: "${BROWSER_ENDPOINT}", clock: { at: "2019-03-14T12:00:00Z" } });
      const replayed = await runCli(["run", spec], { cwd: project.dir, env: { BROWSER_ENDPOINT: foreign.wsUrl } });
      if (replayed.code !== 0) throw new Error(`run failed:\n${replayed.stdout}\n${replayed.stderr}`);

      // Still running, and the flows' contexts are gone: only the browser's own start page is left.
      expect(foreign.proc.exitCode).toBeNull();
      const pages = (await (await fetch(`${foreign.httpUrl}/json/list`)).json()) as Array<{ type: string; url: string }>;
      expect(pages.filter((p) => p.type === "page").map((p) => p.url)).toEqual(["about:blank"]);
    } finally {
      await foreign.stop();
    }
  });

  test("gives a flow with args a private browser started with those flags", async () => {
    const spec = project.write(
      "args.flow.yaml",
      `name: Private browser
app: web
url: ${server.url}/shaping.html
browser:
  args: ["--user-agent=private-args/2.0"]
steps:
  - assert: page shows ua = private-args/2.0
`,
    );
    const recorded = await runCli(["record", spec, "--author", "rules"], { cwd: project.dir });
    if (recorded.code !== 0) throw new Error(`record failed:\n${recorded.stdout}\n${recorded.stderr}`);
    const replayed = await runCli(["run", spec], { cwd: project.dir });
    if (replayed.code !== 0) throw new Error(`run failed:\n${replayed.stdout}\n${replayed.stderr}`);
  });
});

describe("mock: across origins, and bad shaping input", () => {
  test("answers a cross-origin JSON POST and its CORS preflight in the browser", async () => {
    let crossHits = 0;
    server.setRoute("/api/cross", () => {
      crossHits++;
      return new Response("the app has no cross endpoint", { status: 500 });
    });
    const spec = project.write(
      "cors.flow.yaml",
      `name: Cross-origin mock
app: web
url: ${server.url}/mock-cors.html
mock:
  - { url_contains: /api/cross, method: POST, status: 201, body: created }
steps:
  - assert: page shows answer 201 created
`,
    );
    const recorded = await runCli(["record", spec, "--author", "rules", "--recording-detail", "off"], { cwd: project.dir });
    if (recorded.code !== 0) throw new Error(`record failed:\n${recorded.stdout}\n${recorded.stderr}`);
    const replayed = await runCli(["run", spec, "--recording-detail", "off"], { cwd: project.dir });
    if (replayed.code !== 0) throw new Error(`run failed:\n${replayed.stdout}\n${replayed.stderr}`);
    expect(crossHits).toBe(0);
  });

  test("reports every bad key of the blocks with its position before any browser starts", async () => {
    const spec = project.write(
      "bad.flow.yaml",
      `name: Bad shaping
app: web
url: ${server.url}/shaping.html
browser:
  viewport: { width: 390, hieght: 844 }
  random: { seed: -3 }
mock:
  - { url_contain: /api }
steps:
  - assert: page shows Shaping
`,
    );
    const r = await runCli(["validate", spec], { cwd: project.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("bad.flow.yaml:5:27: error[unknown-key] unknown key `hieght` in `viewport`");
    expect(r.stderr).toContain("did you mean `height`?");
    expect(r.stderr).toContain("bad.flow.yaml:6:19: error[bad-value] `seed` must be a whole number from 0 to 4294967295");
    expect(r.stderr).toContain("bad.flow.yaml:8:7: error[unknown-key] unknown key `url_contain` in a mock rule");
  });

  test("fails closed, naming the variable, when a session reference is unset", async () => {
    const spec = project.write(
      "unset.flow.yaml",
      `name: Unset secret
app: web
url: ${server.url}/shaping.html
session:
  cookies:
    - { name: sid, value: "\${UNSET_SESSION_SECRET}" }
steps:
  - assert: page shows Shaping
`,
    );
    const r = await runCli(["record", spec, "--author", "rules"], { cwd: project.dir, env: { UNSET_SESSION_SECRET: undefined } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("${UNSET_SESSION_SECRET} is not set");
  });
});

describe("session: on a local file", () => {
  test("seeds localStorage for a flow whose url is a file next to it", async () => {
    project.write(
      "local/page.html",
      "<!doctype html><title>Local</title><p id=v></p><script>document.getElementById('v').textContent = 'seeded ' + localStorage.getItem('greeting');</script>",
    );
    const spec = project.write(
      "local/local.flow.yaml",
      "name: Local file\napp: web\nurl: page.html\nsession:\n  local_storage: { greeting: hello }\nsteps:\n  - assert: page shows seeded hello\n",
    );
    const recorded = await runCli(["record", spec, "--author", "rules", "--recording-detail", "off"], { cwd: project.dir });
    if (recorded.code !== 0) throw new Error(`record failed:\n${recorded.stdout}\n${recorded.stderr}`);
  });
});
