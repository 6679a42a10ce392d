// Multi-surface flows beyond two plain web surfaces, through the real CLI in real Chromium: an
// `api` surface checked by assert_api against a real local HTTP server with a value captured on
// the web surface, surface-qualified screenshot baselines, and per-surface `browser:` applied from
// the trace header at replay.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { readTrace } from "../support/trace.ts";

let shop: TestServer;
let api: ReturnType<typeof Bun.serve>;
let API = "";
const seen: string[] = [];
const projects: TmpProject[] = [];

beforeAll(async () => {
  requireChromium();
  shop = await startServer();
  api = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      seen.push(`${req.method} ${url.pathname}`);
      const order = /^\/orders\/(\d+)$/.exec(url.pathname);
      if (order) return Response.json({ id: order[1], state: "paid" });
      if (url.pathname === "/echo") return Response.json({ got: await req.text() });
      return new Response("not found", { status: 404 });
    },
  });
  API = api.url.href.replace(/\/$/, "");
});
afterAll(() => {
  shop.stop();
  api.stop(true);
  for (const p of projects) p.remove();
});

function project(): TmpProject {
  const p = tmpProject("flowproof-multi-kinds-");
  projects.push(p);
  return p;
}

const header = (path: string) => readTrace<Record<string, unknown>>(path).header;
const stepLines = (path: string) => readTrace<unknown, Record<string, unknown>>(path).steps;

const WEB_API = `name: Order on the page, checked on the API
apps:
  shop:    { app: web, url: "\${SHOP_URL}/counter.html" }
  backend: { app: api }
steps:
  - in: shop
    steps:
      - rules: Press the "Add" button
      - assert: the "id:count" shows 42
      - rules: Remember the "id:count" as items
  - in: backend
    steps:
      - assert_api:
          request: GET \${API}/orders/\${captured.items}
          status: 200
          body_json: id
          equals: "42"
      - assert_api:
          request: POST \${API}/echo
          body: { items: "\${captured.items}" }
          body_contains: 'items'
  - in: shop
    steps:
      - rules: Press the "Add" button
      - assert: the "id:count" shows 43
  - in: backend
    steps:
      - assert_api:
          request: GET \${API}/orders/\${captured.items}
          body_contains: paid
`;

describe("an api surface in apps:", () => {
  test("records and replays web + api blocks with one capture namespace", async () => {
    const p = project();
    p.write("order.flow.yaml", WEB_API);
    const env = { SHOP_URL: shop.url, API };
    seen.length = 0;
    const rec = await runCli(["record", "order.flow.yaml", "--author", "rules"], { cwd: p.dir, env });
    expect(rec.stderr).not.toContain("FAILED");
    expect(rec.code).toBe(0);
    expect(seen).toEqual(["GET /orders/42", "POST /echo", "GET /orders/42"]);
    const tracePath = join(p.dir, "order.trace.jsonl");
    expectValidTrace(tracePath);
    expect(header(tracePath)["apps"]).toEqual({
      shop: { name: "shop", adapter: "web", url: "${SHOP_URL}/counter.html" },
      backend: { name: "backend", adapter: "api" },
    });
    const steps = stepLines(tracePath);
    expect(steps.map((s) => s["surface"])).toEqual(["shop", "shop", "shop", "backend", "backend", "shop", "shop", "backend"]);
    // The header's env describes the browser surface even though the flow ends on the api surface.
    expect((header(tracePath)["env"] as { resolution: number[] }).resolution[0]).toBeGreaterThan(0);
    const text = readFileSync(tracePath, "utf8");
    expect(text).toContain("${captured.items}");
    expect(text).not.toContain(API);

    seen.length = 0;
    const res = await runCli(["run", "order.flow.yaml", "--json"], { cwd: p.dir, env });
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout) as { report: { passed: boolean; steps: Array<{ status: string }> }; report_path: string };
    expect(out.report.passed).toBe(true);
    expect(out.report.steps.length).toBe(8);
    expect(seen).toEqual(["GET /orders/42", "POST /echo", "GET /orders/42"]);
    expectValidResult(out.report_path);
  });

  test.each([
    [
      "a text step in an api block",
      '      - rules: Press the "Add" button\n',
      "order.flow.yaml:8:16: error[unsupported-step] surface `backend` is `app: api`: it has no UI",
    ],
    [
      "assert_screenshot in an api block",
      "      - assert_screenshot: { name: x }\n",
      "order.flow.yaml:8:9: error[unsupported-step] `assert_screenshot` needs a surface with the screenshot capability, which the `app: api` surface `backend` does not have",
    ],
    ["a url on an api surface", null, "api surface `backend` has no start page"],
  ])("refuses %s at load", async (_, step, message) => {
    const p = project();
    const apps = step === null ? "  backend: { app: api, url: http://127.0.0.1:1/ }\n" : "  backend: { app: api }\n";
    p.write(
      "order.flow.yaml",
      `name: Bad\napps:\n  shop: { app: web, url: http://127.0.0.1:1/ }\n${apps}steps:\n  - in: backend\n    steps:\n${step ?? "      - assert_api: { request: GET http://127.0.0.1:1/ }\n"}`,
    );
    const res = await runCli(["validate", "order.flow.yaml"], { cwd: p.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(message);
  });
});

describe("assert_screenshot in a multi-surface flow", () => {
  test("names each baseline <name>@<surface>.png and compares each surface with its own", async () => {
    const p = project();
    p.write(
      "shots.flow.yaml",
      `name: Two surfaces, one screenshot name
apps:
  shop:  { app: web, url: "\${SHOP_URL}/counter.html" }
  admin: { app: web, url: "\${SHOP_URL}/greeter.html" }
steps:
  - in: shop
    steps:
      - assert: page shows Counter
      - assert_screenshot: { name: home }
  - in: admin
    steps:
      - assert_screenshot: { name: home }
`,
    );
    const env = { SHOP_URL: shop.url };
    const rec = await runCli(["record", "shots.flow.yaml", "--author", "rules"], { cwd: p.dir, env });
    expect(rec.code).toBe(0);
    const dir = join(p.dir, "shots.baselines");
    expect(existsSync(join(dir, "home@shop.png"))).toBe(true);
    expect(existsSync(join(dir, "home@admin.png"))).toBe(true);
    expect(existsSync(join(dir, "home.png"))).toBe(false);
    expect(readFileSync(join(dir, "home@shop.png")).equals(readFileSync(join(dir, "home@admin.png")))).toBe(false);

    const res = await runCli(["run", "shots.flow.yaml", "--json"], { cwd: p.dir, env });
    expect(res.code).toBe(0);
    expect((JSON.parse(res.stdout) as { report: { passed: boolean } }).report.passed).toBe(true);

    // The admin frame is judged against the admin baseline only: give it the shop's, and it fails.
    writeFileSync(join(dir, "home@admin.png"), readFileSync(join(dir, "home@shop.png")));
    const bad = await runCli(["run", "shots.flow.yaml", "--json"], { cwd: p.dir, env });
    expect(bad.code).toBe(1);
    const report = (JSON.parse(bad.stdout) as { report: { steps: Array<{ status: string; detail?: string }> } }).report;
    expect(report.steps.map((s) => s.status)).toEqual(["passed", "passed", "failed"]);
    expect(report.steps[2]!.detail).toContain("screenshot 'home@admin' differs from its baseline");
  });
});

describe("per-surface browser:", () => {
  test("each web surface gets its own viewport, carried in the header and applied at replay", async () => {
    const p = project();
    p.write(
      "sizes.flow.yaml",
      `name: Phone and desktop
apps:
  phone:   { app: web, url: "\${SHOP_URL}/shaping.html", browser: { viewport: { width: 390, height: 700 }, user_agent: phone-agent } }
  desktop: { app: web, url: "\${SHOP_URL}/shaping.html", browser: { viewport: { width: 1100, height: 700 } } }
steps:
  - in: phone
    steps:
      - assert: the "id:fact-width" shows width = 390
      - assert: the "id:fact-ua" shows ua = phone-agent
  - in: desktop
    steps:
      - assert: the "id:fact-width" shows width = 1100
  - in: phone
    steps:
      - assert: the "id:fact-width" shows width = 390
`,
    );
    const env = { SHOP_URL: shop.url };
    const rec = await runCli(["record", "sizes.flow.yaml", "--author", "rules"], { cwd: p.dir, env });
    expect(rec.stderr).not.toContain("FAILED");
    expect(rec.code).toBe(0);
    const tracePath = join(p.dir, "sizes.trace.jsonl");
    expectValidTrace(tracePath);
    expect(header(tracePath)["apps"]).toEqual({
      phone: { name: "phone", adapter: "web", url: "${SHOP_URL}/shaping.html", browser: { viewport: { width: 390, height: 700 }, user_agent: "phone-agent" } },
      desktop: { name: "desktop", adapter: "web", url: "${SHOP_URL}/shaping.html", browser: { viewport: { width: 1100, height: 700 } } },
    });

    // Replay shapes each surface from the header alone: an edited spec does not change it (the
    // replay is stale, exit 2, but every recorded step still holds).
    p.write("sizes.flow.yaml", readFileSync(join(p.dir, "sizes.flow.yaml"), "utf8").replace("width: 390, height", "width: 500, height"));
    const res = await runCli(["run", "sizes.flow.yaml", "--json"], { cwd: p.dir, env });
    expect(res.code).toBe(2);
    const out = JSON.parse(res.stdout) as { report: { passed: boolean; stale?: unknown; steps: Array<{ status: string }> }; report_path: string };
    expect(out.report.stale).toBeDefined();
    expect(out.report.steps.every((s) => s.status === "passed")).toBe(true);
    expectValidResult(out.report_path);
  });
});
