// Step effects in real Chromium: a flow with no assertion after its action is recorded against a
// page, then replayed against the same page and against a mutant of it (handler removed, form
// posting elsewhere, link no longer navigating, checkbox no longer toggling, confirm no longer
// opening, download no longer starting). The original passes, the mutant fails naming the
// missing effect; extra requests and unrelated timers do not fail; `effects: off` and `strict`;
// a trace from before effects replays as before; a secret never reaches `effect`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { runCli } from "../support/cli.ts";
import { record } from "../../src/commands/record.ts";
import { run } from "../../src/commands/run.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { resealed } from "../support/trace.ts";

const PAGES = join(import.meta.dir, "..", "fixtures", "effects");
const CANARY = "zq-canary-7731";

let server: TestServer;
let project: TmpProject;
/** Which file each page is served from now: `<page>.html` or `<page>.<variant>.html`. */
const variant = new Map<string, string>();

const serve = (page: string) => () => {
  const v = variant.get(page);
  return new Response(readFileSync(join(PAGES, v ? `${page}.${v}.html` : `${page}.html`)), { headers: { "content-type": "text/html; charset=utf-8" } });
};

beforeAll(async () => {
  requireChromium();
  server = await startServer(PAGES);
  project = tmpProject("flowproof-effects-");
  for (const page of ["order", "subscribe", "link", "checkbox", "confirm", "download", "note", "echo"]) server.setRoute(`/${page}.html`, serve(page));
  const confirmed = () => new Response(readFileSync(join(PAGES, "confirm-page.html")), { headers: { "content-type": "text/html" } });
  server.setRoute("/orders/confirm", confirmed);
  server.setRoute("/about.html", confirmed);
  server.setRoute("/api/orders", () => new Response("{}", { status: 201 }));
  server.setRoute("/api/analytics", () => new Response(null, { status: 204 }));
  server.setRoute("/api/subscribe", () => new Response(null, { status: 303, headers: { location: "/orders/confirm" } }));
  server.setRoute("/api/subscribe-v2", () => new Response(null, { status: 303, headers: { location: "/orders/confirm" } }));
  server.setRoute(`/api/tokens/${CANARY}`, () => new Response("{}"));
  server.setRoute(
    "/files/report.csv",
    () => new Response("id\n1\n", { headers: { "content-type": "text/csv", "content-disposition": 'attachment; filename="report.csv"' } }),
  );
});
afterAll(() => {
  server.stop();
  project.remove();
});

interface Flow {
  readonly spec: string;
  readonly trace: string;
}

async function recorded(name: string, page: string, steps: readonly string[], extra = ""): Promise<Flow> {
  variant.delete(page);
  const spec = project.write(`${name}.flow.yaml`, flowYaml(name, `${server.url}/${page}.html`, steps) + extra);
  const rec = await record({ spec, author: "rules", recordingDetail: "off", env: { ...process.env, CANARY } });
  expect(rec.error).toBeUndefined();
  expect(rec.ok).toBe(true);
  expectValidTrace(rec.trace_path!);
  return { spec, trace: rec.trace_path! };
}

async function replay(flow: Flow, page: string, as?: string) {
  if (as) variant.set(page, as);
  else variant.delete(page);
  const r = await run({ spec: flow.spec, recordingDetail: "off", env: { ...process.env, CANARY } });
  expectValidResult(r.report_path);
  return r.report;
}

const stepLines = (trace: string) =>
  readFileSync(trace, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("a mutant of each effect kind fails a flow with no assertion after the action", () => {
  const CASES = [
    {
      kind: "handler removed",
      page: "order",
      steps: ['rules: Press the "Place order" button'],
      effect: { requests: ["POST /api/orders"], navigated: "/orders/confirm" },
      message: 'Press the "Place order" button: at record it sent POST /api/orders and navigated to /orders/confirm; at replay it did neither',
    },
    {
      kind: "form posts elsewhere",
      page: "subscribe",
      steps: ['rules: Press the "Subscribe" button'],
      effect: { requests: ["POST /api/subscribe"], navigated: "/orders/confirm" },
      message: 'Press the "Subscribe" button: at record it sent POST /api/subscribe; at replay it sent POST /api/subscribe-v2 instead',
    },
    {
      kind: "link no longer navigates",
      page: "link",
      steps: ['rules: Click "About us"'],
      effect: { navigated: "/about.html" },
      message: 'Click "About us": at record it navigated to /about.html; at replay it did not',
    },
    {
      kind: "checkbox no longer toggles",
      page: "checkbox",
      steps: ['rules: Click "Send me news"'],
      effect: { target: ["checked"] },
      message: 'Click "Send me news": at record it changed the target\'s checked state; at replay it did not',
    },
    {
      kind: "confirm dialog no longer opens",
      page: "confirm",
      steps: ['rules: Click "Delete item", accepting the "Delete this item?" dialog'],
      effect: { dialog: "confirm" },
      message: "no dialog opened",
    },
    {
      kind: "download no longer starts",
      page: "download",
      steps: ['rules: Click "Export CSV"'],
      effect: { download: true },
      message: 'Click "Export CSV": at record it started a download; at replay it did not',
    },
  ] as const;

  for (const c of CASES) {
    test(c.kind, async () => {
      const flow = await recorded(c.page, c.page, c.steps);
      const [step] = stepLines(flow.trace);
      expect(step!["effect"]).toMatchObject(c.effect);
      const original = await replay(flow, c.page);
      expect(original.steps.map((s) => [s.status, s.detail])).toEqual([["passed", undefined]]);
      expect(original.steps[0]!.effect?.check).toBe("on");
      const mutant = await replay(flow, c.page, "mutant");
      expect(mutant.outcome).toBe("failed");
      expect(mutant.steps[0]!.status).toBe("failed");
      expect(mutant.steps[0]!.detail).toContain(c.message);
    }, 60_000);
  }
});

describe("what never fails a step", () => {
  test("an extra request at replay passes", async () => {
    const flow = await recorded("order-extra", "order", ['rules: Press the "Place order" button']);
    const r = await replay(flow, "order", "extra");
    expect(r.steps[0]!.status).toBe("passed");
    expect(r.steps[0]!.effect?.seen?.requests).toContain("POST /api/analytics");
  }, 60_000);

  test("a timer changing unrelated text passes; the missing DOM change near the target is a warning, a failure under effects: strict", async () => {
    const timer = await recorded("note-timer", "note", ['rules: Press the "Show note" button']);
    expect(stepLines(timer.trace)[0]!["effect"]).toMatchObject({ dom: "near" });
    const withTimer = await replay(timer, "note", "timer");
    expect(withTimer.steps[0]!.status).toBe("passed");
    expect(withTimer.steps[0]!.effect?.warning).toBeUndefined();
    // The handler is gone and only an unrelated timer ticks: a warning by default…
    const lenient = await replay(timer, "note", "mutant");
    expect(lenient.steps[0]!.status).toBe("passed");
    expect(lenient.steps[0]!.effect?.warning).toBe('Press the "Show note" button: at record it changed the page near the target; at replay it did not');
    // …a failure when the flow asks for strict effects.
    const strict = await recorded("note-strict", "note", ['rules: Press the "Show note" button'], "effects: strict\n");
    expect(readFileSync(strict.trace, "utf8").split("\n")[0]).toContain('"effects":"strict"');
    const failed = await replay(strict, "note", "mutant");
    expect(failed.steps[0]!.status).toBe("failed");
    // The clock's ticks are the app's own work: they are never recorded as a step's effect, and far
    // from the target they cannot stand in for the change near it that the step no longer makes.
    expect(failed.steps[0]!.detail).toContain(
      'Press the "Show note" button: at record it changed the page near the target; at replay it changed the page instead',
    );
    expect(failed.steps[0]!.effect?.check).toBe("strict");
  }, 90_000);

  test("effects: off at flow and at step level checks nothing, and the report says so", async () => {
    const flowOff = await recorded("order-off", "order", ['rules: Press the "Place order" button'], "effects: off\n");
    expect(stepLines(flowOff.trace)[0]!["effect"]).toBeUndefined();
    const a = await replay(flowOff, "order", "mutant");
    expect(a.steps[0]!.status).toBe("passed");
    expect(a.steps[0]!.effect?.check).toBe("off");

    variant.delete("order");
    const spec = project.write(
      "order-step-off.flow.yaml",
      `name: order-step-off\napp: web\nurl: ${server.url}/order.html\nsteps:\n  - rules: Press the "Place order" button\n    effects: off\n`,
    );
    const rec = await record({ spec, author: "rules", recordingDetail: "off" });
    expect(rec.ok).toBe(true);
    expect(stepLines(rec.trace_path!)[0]!["effect"]).toEqual({ observes: [], off: true });
    const b = await replay({ spec, trace: rec.trace_path! }, "order", "mutant");
    expect(b.steps[0]!.status).toBe("passed");
    expect(b.steps[0]!.effect?.check).toBe("off");
  }, 90_000);

  test("a trace recorded before effects (no `effect`) replays as before", async () => {
    const flow = await recorded("order-old", "order", ['rules: Press the "Place order" button']);
    const lines = readFileSync(flow.trace, "utf8").trim().split("\n");
    const old =
      [
        lines[0],
        ...lines.slice(1).map((l) => {
          const { effect: _e, ...rest } = JSON.parse(l) as Record<string, unknown>;
          return JSON.stringify(rest);
        }),
      ].join("\n") + "\n";
    writeFileSync(flow.trace, resealed(old));
    const r = await replay(flow, "order", "mutant");
    expect(r.steps[0]!.status).toBe("passed");
    expect(r.steps[0]!.effect).toBeUndefined();
  }, 60_000);
});

test("a secret typed and sent in a request's path, query and body never reaches `effect`", async () => {
  const flow = await recorded("echo", "echo", ['rules: Type ${CANARY} into the "Token" field', 'rules: Press the "Check token" button']);
  const text = readFileSync(flow.trace, "utf8");
  expect(text).not.toContain(CANARY);
  const steps = stepLines(flow.trace);
  expect(steps[1]!["effect"]).toMatchObject({ requests: ["POST /api/tokens/:id"] });
  const r = await replay(flow, "echo");
  expect(r.steps.map((s) => s.status)).toEqual(["passed", "passed"]);
  expect(JSON.stringify(r)).not.toContain(CANARY);
}, 60_000);

test("the CLI exits 1 and prints the missing effect; report.html shows the effect recorded and seen", async () => {
  const flow = await recorded("order-cli", "order", ['rules: Press the "Place order" button']);
  variant.set("order", "mutant");
  const r = await runCli(["run", flow.spec], { cwd: project.dir });
  expect(r.code).toBe(1);
  expect(r.stdout + r.stderr).toContain("at record it sent POST /api/orders and navigated to /orders/confirm; at replay it did neither");
  const dir = /\.flowproof\/runs\/[^\s/]+/.exec(r.stdout + r.stderr);
  expect(dir).not.toBeNull();
  const html = readFileSync(join(project.dir, dir![0], "report.html"), "utf8");
  expect(html).toContain("Effect recorded");
  expect(html).toContain("POST /api/orders");
}, 60_000);

test("heal flags a step whose effect changed, and --apply refuses the proposal unless --accept-effect-changes", async () => {
  const flow = await recorded("order-heal", "order", ['rules: Press the "Place order" button']);
  const before = readFileSync(flow.trace, "utf8");
  variant.set("order", "mutant");
  const refused = await runCli(["heal", flow.spec, "--apply", "--author", "rules"], { cwd: project.dir });
  expect(refused.code).toBe(1);
  expect(refused.stdout).toContain('[EFFECT CHANGED] s0001 Press the "Place order" button');
  expect(refused.stdout).toContain("NOT APPLIED: the proposal changes what a step does (s0001)");
  expect(readFileSync(flow.trace, "utf8")).toBe(before);
  const html = readFileSync(join(project.dir, "order-heal.heal.html"), "utf8");
  expect(html).toContain("effect changed");
  expect(html).toContain("Recorded: sent POST /api/orders · navigated to /orders/confirm");
  const accepted = await runCli(["heal", flow.spec, "--apply", "--accept-effect-changes", "--author", "rules"], { cwd: project.dir });
  expect(accepted.code).toBe(0);
  expect(accepted.stdout).toContain("APPLIED:");
  expect(stepLines(flow.trace)[0]!["effect"]).not.toMatchObject({ navigated: "/orders/confirm" });
}, 120_000);
