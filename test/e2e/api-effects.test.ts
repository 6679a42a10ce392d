// Step effects of an api surface, through the real CLI against a real local HTTP server: an
// `assert_api` write is recorded as method and normalised path; a replay whose request goes to
// another path (a captured value in it now resolves differently) or is no longer a write fails
// naming both sides, although the step's own checks pass; a redirect to another endpoint (an extra
// request) passes; a canary secret in the body, a header and the query never reaches the trace,
// result.json or report.html.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { readTrace } from "../support/trace.ts";
import { resealed } from "../support/trace.ts";

const CANARY = "zq-canary-secret-9185";
const TOKEN = "tok-canary-query-6402";

let server: TestServer;
const projects: TmpProject[] = [];
/** Requests the api received: `METHOD /path`. */
const seen: string[] = [];
/** What the order page shows as the next action on the order. */
let action = "approve";
/** Whether the api now moves approvals to its v2 endpoint (307, same method and body). */
let redirecting = false;

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  server.setRoute(
    "/order.html",
    () =>
      new Response(`<!doctype html><title>Order 4711</title><p>Next: <span id="action">${action}</span></p><p>Ticket <span id="token">${TOKEN}</span></p>`, {
        headers: { "content-type": "text/html; charset=utf-8" },
      }),
  );
  const answer = (req: Request) => {
    const url = new URL(req.url);
    seen.push(`${req.method} ${url.pathname}`);
    if (redirecting && url.pathname === "/api/orders/4711/approve")
      return new Response(null, { status: 307, headers: { location: "/api/v2/orders/4711/approve" } });
    return Response.json({ ok: true });
  };
  for (const path of ["/api/orders/4711/approve", "/api/orders/4711/archive", "/api/v2/orders/4711/approve", "/api/jobs"]) server.setRoute(path, answer);
});
afterAll(() => {
  server.stop();
  for (const p of projects) p.remove();
});

function project(): TmpProject {
  const p = tmpProject("flowproof-api-effects-");
  projects.push(p);
  return p;
}

const ORDER = `name: Approve order 4711 through the API
apps:
  shop:    { app: web, url: "\${SHOP_URL}/order.html" }
  backend: { app: api }
steps:
  - in: shop
    steps:
      - rules: Remember the "id:action" as action
      - rules: Remember the "id:token" as token
  - in: backend
    steps:
      - assert_api:
          request: POST \${SHOP_URL}/api/orders/4711/\${captured.action}?token=\${captured.token}&card=\${CANARY}
          headers: { Authorization: "Bearer \${CANARY}" }
          body: { card: "\${CANARY}", ticket: "\${captured.token}" }
          status: 200
          body_json: ok
          equals: true
`;

interface RunOut {
  readonly report: {
    outcome: string;
    steps: Array<{ id: string; status: string; detail?: string; effect?: { check: string; recorded?: unknown; seen?: unknown } }>;
  };
  readonly report_path: string;
}

async function replay(p: TmpProject, env: Record<string, string>, flow: string): Promise<{ code: number; out: RunOut; files: string }> {
  seen.length = 0;
  const res = await runCli(["run", flow, "--json"], { cwd: p.dir, env });
  const out = JSON.parse(res.stdout) as RunOut;
  expectValidResult(out.report_path);
  const bundle = join(out.report_path, "..");
  return { code: res.code, out, files: readFileSync(out.report_path, "utf8") + readFileSync(join(bundle, "report.html"), "utf8") + res.stdout + res.stderr };
}

describe("an api surface observes the writes its own steps send", () => {
  test("recorded as method and path; another path at replay fails naming both sides; a redirect does not; no secret in any file", async () => {
    const p = project();
    p.write("order.flow.yaml", ORDER);
    const env = { SHOP_URL: server.url, CANARY };
    action = "approve";
    redirecting = false;
    seen.length = 0;
    const rec = await runCli(["record", "order.flow.yaml", "--author", "rules"], { cwd: p.dir, env });
    expect(rec.stderr).not.toContain("FAILED");
    expect(rec.code).toBe(0);
    expect(seen).toEqual(["POST /api/orders/4711/approve"]);
    const tracePath = join(p.dir, "order.trace.jsonl");
    expectValidTrace(tracePath);
    const steps = readTrace<unknown, Record<string, unknown>>(tracePath).steps;
    expect(steps.map((s) => s["surface"])).toEqual(["shop", "shop", "backend"]);
    expect(steps[2]!["effect"]).toEqual({ observes: ["request"], requests: ["POST /api/orders/:id/approve"] });
    const trace = readFileSync(tracePath, "utf8");
    for (const secret of [CANARY, TOKEN]) expect(trace).not.toContain(secret);
    expect(rec.stdout + rec.stderr).not.toContain(CANARY);

    // The same page and api: the write is sent again and the step is judged.
    const same = await replay(p, env, "order.flow.yaml");
    expect(same.code).toBe(0);
    expect(same.out.report.steps[2]).toMatchObject({
      status: "passed",
      effect: { check: "on", recorded: { requests: ["POST /api/orders/:id/approve"] }, seen: { requests: ["POST /api/orders/:id/approve"] } },
    });
    expect(same.files).not.toContain(CANARY);

    // The api now redirects approvals to v2: the client sends an extra write, which never fails.
    redirecting = true;
    const redirected = await replay(p, env, "order.flow.yaml");
    expect(seen).toEqual(["POST /api/orders/4711/approve", "POST /api/v2/orders/4711/approve"]);
    expect(redirected.code).toBe(0);
    expect(redirected.out.report.steps[2]!.status).toBe("passed");
    redirecting = false;

    // The page now offers "archive": the captured path resolves to another endpoint, which also
    // answers 200 with ok: true, so only the effect tells that the step no longer approves.
    action = "archive";
    const mutant = await replay(p, env, "order.flow.yaml");
    expect(seen).toEqual(["POST /api/orders/4711/archive"]);
    expect(mutant.code).toBe(1);
    expect(mutant.out.report.outcome).toBe("failed");
    const failed = mutant.out.report.steps[2]!;
    expect(failed.status).toBe("failed");
    expect(failed.detail).toContain("at record it sent POST /api/orders/:id/approve; at replay it sent POST /api/orders/:id/archive instead");
    expect(failed.effect).toMatchObject({
      check: "on",
      recorded: { requests: ["POST /api/orders/:id/approve"] },
      seen: { requests: ["POST /api/orders/:id/archive"] },
    });
    for (const secret of [CANARY, TOKEN]) expect(mutant.files).not.toContain(secret);
    action = "approve";
  }, 120_000);

  test("an app: api flow whose step no longer sends its write fails; effects: off records and checks nothing", async () => {
    const p = project();
    const flow = (extra = "") => `name: Start an export job
app: api
${extra}steps:
  - assert_api:
      request: POST \${API}/api/jobs?key=\${CANARY}
      body: { kind: export, key: "\${CANARY}" }
      status: 200
  - assert_api:
      request: GET \${API}/api/jobs
      status: 200
`;
    p.write("jobs.flow.yaml", flow());
    p.write("jobs-off.flow.yaml", flow("effects: off\n").replace("Start an export job", "Start an export job unchecked"));
    const env = { API: server.url, CANARY };
    for (const f of ["jobs", "jobs-off"]) {
      const rec = await runCli(["record", `${f}.flow.yaml`], { cwd: p.dir, env });
      expect(rec.code).toBe(0);
    }
    const tracePath = join(p.dir, "jobs.trace.jsonl");
    const steps = readTrace<unknown, Record<string, unknown>>(tracePath).steps;
    // The write is the first step's effect; the read records that nothing was written.
    expect(steps.map((s) => s["effect"])).toEqual([{ observes: ["request"], requests: ["POST /api/jobs"] }, { observes: ["request"] }]);
    expect(readFileSync(tracePath, "utf8")).not.toContain(CANARY);
    expect(readTrace<unknown, Record<string, unknown>>(join(p.dir, "jobs-off.trace.jsonl")).steps.map((s) => s["effect"])).toEqual([undefined, undefined]);

    // The trace's request edited into a read (as a hand edit or a merge could): its checks pass, its write is gone.
    const offPath = join(p.dir, "jobs-off.trace.jsonl");
    for (const path of [tracePath, offPath])
      writeFileSync(
        path,
        resealed(
          readFileSync(path, "utf8")
            .replaceAll("POST ${API}/api/jobs?key=${CANARY}", "GET ${API}/api/jobs?key=${CANARY}")
            .replaceAll(String.raw`\"body\":{\"kind\":\"export\",\"key\":\"\${CANARY}\"},`, "")
            .replaceAll('"body":{"kind":"export","key":"${CANARY}"},', ""),
        ),
      );
    const edited = await replay(p, env, "jobs.flow.yaml");
    expect(seen).toEqual(["GET /api/jobs"]);
    expect(edited.code).toBe(1);
    expect(edited.out.report.steps[0]!.detail).toContain("at record it sent POST /api/jobs; at replay it did not");
    expect(edited.files).not.toContain(CANARY);
    const off = await replay(p, env, "jobs-off.flow.yaml");
    expect(off.code).toBe(0);
  }, 60_000);
});
