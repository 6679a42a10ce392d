// Multi-surface flows with two web surfaces on two different local apps, in real Chromium:
// lazy launch at the first block, one capture namespace across blocks, returning to a surface
// resumes its session, the trace header carries the surface map as written and each step its
// surface, and replay routes every step to its surface from the header alone.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { readTrace } from "../support/trace.ts";

let shop: TestServer;
let admin: TestServer;
let p: TmpProject;

beforeAll(async () => {
  requireChromium();
  shop = await startServer();
  admin = await startServer();
  p = tmpProject("flowproof-multi-");
});
afterAll(() => {
  shop.stop();
  admin.stop();
  p.remove();
});

const FLOW = `name: Cart across shop and admin
apps:
  shop:  { app: web, url: "\${SHOP_URL}/counter.html" }
  admin: { app: web, url: "\${ADMIN_URL}/greeter.html" }
steps:
  - in: shop
    steps:
      - rules: Press the "Add" button
      - assert: the "id:count" shows 42
      - rules: Remember the "id:count" as items
  - in: admin
    steps:
      - rules: Type \${captured.items} into the "Your name" field
      - rules: Press the "Greet" button
      - assert: page shows Hello, 42!
  - in: shop
    steps:
      - rules: Press the "Add" button
      - assert: the "id:count" shows 43
`;

describe("apps: + in: blocks", () => {
  test("records and replays a flow across two web apps with one capture namespace", async () => {
    p.write("cart.flow.yaml", FLOW);
    const env = { SHOP_URL: shop.url, ADMIN_URL: admin.url };
    const rec = await runCli(["record", "cart.flow.yaml", "--author", "rules"], { cwd: p.dir, env });
    expect(rec.stderr).not.toContain("FAILED");
    expect(rec.code).toBe(0);
    const tracePath = join(p.dir, "cart.trace.jsonl");
    expectValidTrace(tracePath);
    const { header, steps } = readTrace<Record<string, unknown>, Record<string, unknown>>(tracePath);
    expect(header!["app"]).toEqual({ name: "multi", adapter: "multi" });
    expect(header!["apps"]).toEqual({
      admin: { name: "admin", adapter: "web", url: "${ADMIN_URL}/greeter.html" },
      shop: { name: "shop", adapter: "web", url: "${SHOP_URL}/counter.html" },
    });
    expect(steps.map((s) => s["surface"])).toEqual(["shop", "shop", "shop", "admin", "admin", "admin", "shop", "shop"]);
    expect(readFileSync(tracePath, "utf8")).not.toContain(shop.url);

    const res = await runCli(["run", "cart.flow.yaml", "--json"], { cwd: p.dir, env });
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout) as { report: { passed: boolean; steps: Array<{ status: string }> }; report_path: string };
    expect(out.report.passed).toBe(true);
    expect(out.report.steps.length).toBe(8);
    expectValidResult(out.report_path);
  });

  test("repeat, when and foreach inside an in: block read their conditions on that block's surface", async () => {
    // The when is the admin block's first node, right after a shop block: read on shop, where the
    // page is the counter, it would not hold and its body would not run. The repeat, back on shop,
    // holds at once there; read on admin (no counter) it would press a button admin lacks.
    p.write(
      "blocks.flow.yaml",
      `name: Blocks across surfaces
apps:
  shop:  { app: web, url: "\${SHOP_URL}/counter.html" }
  admin: { app: web, url: "\${ADMIN_URL}/greeter.html" }
steps:
  - in: shop
    steps:
      - rules: Press the "Add" button
  - in: admin
    steps:
      - when: page shows Greeter
        steps:
          - rules: Type Ada into the "Your name" field
      - foreach:
          values: [Greet]
          steps:
            - rules: Press the "\${each}" button
      - assert: page shows Hello, Ada!
  - in: shop
    steps:
      - repeat:
          until: the "id:count" shows 42
          max: 3
          steps:
            - rules: Press the "Add" button
      - assert: the "id:count" shows 42
`,
    );
    const env = { SHOP_URL: shop.url, ADMIN_URL: admin.url };
    const rec = await runCli(["record", "blocks.flow.yaml", "--author", "rules"], { cwd: p.dir, env });
    expect(rec.stderr).toContain("holds, running its steps");
    expect(rec.code).toBe(0);
    const steps = readTrace<unknown, { surface: string; intent: string }>(join(p.dir, "blocks.trace.jsonl")).steps;
    expect(steps.map((s) => `${s.surface}: ${s.intent}`)).toEqual([
      'shop: Press the "Add" button',
      'admin: Type Ada into the "Your name" field',
      'admin: Press the "Greet" button',
      "admin: page shows Hello, Ada!",
      'shop: the "id:count" shows 42',
    ]);
    expect(rec.stderr).toContain("held after 0 passes");
    const res = await runCli(["run", "blocks.flow.yaml"], { cwd: p.dir, env });
    expect(res.code).toBe(0);
  });

  test.each([
    [
      "a step outside any in: block",
      'apps:\n  a: { app: web, url: http://127.0.0.1/ }\nsteps:\n  - rules: Click "Go"\n',
      "every step sits in an `in: <surface>` block",
    ],
    [
      "an undeclared surface",
      "apps:\n  a: { app: web, url: http://127.0.0.1/ }\nsteps:\n  - in: b\n    steps: [ 'rules: Click \"Go\"' ]\n",
      "no surface `b` in `apps:`",
    ],
    [
      "a vision surface without its window",
      "apps:\n  a: { app: vision }\nsteps:\n  - in: a\n    steps: [ 'rules: Click \"Go\"' ]\n",
      "surface `a` needs `window`",
    ],
    [
      "a text step on an api surface",
      "apps:\n  a: { app: api }\nsteps:\n  - in: a\n    steps: [ 'rules: Click \"Go\"' ]\n",
      "surface `a` is `app: api`: it has no UI",
    ],
    [
      "both app: and apps:",
      "app: web\napps:\n  a: { app: web, url: http://127.0.0.1/ }\nsteps:\n  - in: a\n    steps: [ 'rules: Click \"Go\"' ]\n",
      "either `app:` (one surface) or `apps:`",
    ],
    [
      "nested in: blocks",
      "apps:\n  a: { app: web, url: http://127.0.0.1/ }\nsteps:\n  - in: a\n    steps:\n      - in: a\n        steps: [ 'rules: Click \"Go\"' ]\n",
      "they do not nest",
    ],
  ])("refuses %s at parse time", async (_, body, message) => {
    p.write("bad.flow.yaml", `name: Bad\n${body}`);
    const res = await runCli(["validate", "bad.flow.yaml"], { cwd: p.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(message);
  });
});
