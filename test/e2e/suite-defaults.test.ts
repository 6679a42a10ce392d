// suite.yaml's `browser:` defaults and `identities:` through the real CLI in real Chromium: a flow
// without its own `browser:` gets the suite's (a flow's block wins outright), `session: <name>`
// is copied into the trace header as the identity's shape with `${VAR}` values raw, replay
// applies both from the header, and unknown or suite-less names are refused with a span.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { readTrace } from "../support/trace.ts";

let server: TestServer;
const projects: TmpProject[] = [];
const SID = "sid-3f9a7c1e55";

beforeAll(async () => {
  requireChromium();
  server = await startServer();
});
afterAll(() => {
  server.stop();
  for (const p of projects) p.remove();
});

function project(): TmpProject {
  const p = tmpProject("flowproof-suite-defaults-");
  projects.push(p);
  return p;
}

const SUITE = `browser:
  viewport: { width: 390, height: 700 }
  user_agent: suite-agent
identities:
  admin:
    cookies: [{ name: sid, value: "\${ADMIN_SID}" }]
    local_storage: { cart: admin-cart }
`;

const header = (path: string) => readTrace<Record<string, unknown>>(path).header;

describe("suite.yaml browser: and identities:", () => {
  test("a flow gets the suite's browser and its named identity, at record and at replay", async () => {
    const p = project();
    p.write("suite.yaml", SUITE);
    p.write(
      "admin.flow.yaml",
      `name: Admin on a phone
app: web
url: \${BASE}/shaping.html
session: admin
steps:
  - assert: the "id:fact-width" shows width = 390
  - assert: the "id:fact-ua" shows ua = suite-agent
  - assert: the "id:fact-sid" shows sid has ${SID.length} chars
  - assert: the "id:fact-cart" shows cart = admin-cart
`,
    );
    p.write(
      "own.flow.yaml",
      `name: Own browser wins outright
app: web
url: \${BASE}/shaping.html
browser:
  viewport: { width: 800, height: 600 }
steps:
  - assert: the "id:fact-width" shows width = 800
  - assert: page does not show suite-agent
`,
    );
    const env = { BASE: server.url, ADMIN_SID: SID };
    for (const flow of ["admin", "own"]) {
      const rec = await runCli(["record", `${flow}.flow.yaml`, "--author", "rules"], { cwd: p.dir, env });
      expect(rec.stderr).not.toContain("FAILED");
      expect(rec.code).toBe(0);
      expectValidTrace(join(p.dir, `${flow}.trace.jsonl`));
    }
    const admin = header(join(p.dir, "admin.trace.jsonl"));
    expect(admin["session"]).toEqual({ cookies: [{ name: "sid", value: "${ADMIN_SID}" }], local_storage: { cart: "admin-cart" } });
    expect(admin["browser"]).toEqual({ viewport: { width: 390, height: 700 }, user_agent: "suite-agent" });
    expect(readFileSync(join(p.dir, "admin.trace.jsonl"), "utf8")).not.toContain(SID);
    expect(header(join(p.dir, "own.trace.jsonl"))["browser"]).toEqual({ viewport: { width: 800, height: 600 } });

    // Replay shapes from the trace header: an edited suite.yaml does not change a recorded flow.
    p.write("suite.yaml", SUITE.replace("width: 390", "width: 500"));
    const single = await runCli(["run", "admin.flow.yaml", "--json"], { cwd: p.dir, env });
    expect(single.code).toBe(0);
    const out = JSON.parse(single.stdout) as { report: { passed: boolean }; report_path: string };
    expect(out.report.passed).toBe(true);
    expectValidResult(out.report_path);

    const suite = await runCli(["run", ".", "--json"], { cwd: p.dir, env });
    expect(suite.stderr).not.toContain("error");
    expect(suite.code).toBe(0);
  });

  test("refuses an unknown identity, listing the declared ones", async () => {
    const p = project();
    p.write("suite.yaml", SUITE);
    p.write("bad.flow.yaml", "name: Bad\napp: web\nurl: http://127.0.0.1:1/\nsession: admn\nsteps:\n  - assert: page shows x\n");
    const res = await runCli(["validate", "bad.flow.yaml"], { cwd: p.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("bad.flow.yaml:4:10: error[bad-value] no entry `admn` in the `identities:` of suite.yaml");
    expect(res.stderr).toContain("did you mean `admin`? declared identities: admin");
  });

  test("refuses a named session when no suite governs the flow", async () => {
    const p = project();
    p.write("bad.flow.yaml", "name: Bad\napp: web\nurl: http://127.0.0.1:1/\nsession: admin\nsteps:\n  - assert: page shows x\n");
    const res = await runCli(["validate", "bad.flow.yaml"], { cwd: p.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      "bad.flow.yaml:4:10: error[bad-value] `session: admin` names an entry of a suite's `identities:`, and this flow has no governing suite.yaml",
    );
  });

  test("checks the suite's browser: and identities: with spans in suite.yaml", async () => {
    const p = project();
    p.write("suite.yaml", "browser:\n  viewport: { width: 0, height: 700 }\nidentities:\n  admin:\n    cookies: [{ value: x }]\n");
    p.write("a.flow.yaml", "name: A\napp: web\nurl: http://127.0.0.1:1/\nsteps:\n  - assert: page shows x\n");
    const res = await runCli(["validate", "a.flow.yaml"], { cwd: p.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("suite.yaml:2:");
    expect(res.stderr).toContain("suite.yaml:5:");
  });
});
