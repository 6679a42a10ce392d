// Step effects are the step's own, whatever the app does on its own timers: a router setting the
// URL's fragment or moving to another path after start-up, at any delay, never becomes a step's
// effect, and never hides the value the step's own typing produced. Swept over the delays at record
// and at replay (every pair must give the same green), on plain pages, a React app with React
// Router (a router navigation rendered through React's scheduler) and a Mithril TodoMVC under
// `effects: strict`. A step's own navigation still counts, and a mutant without it still fails.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { runCli } from "../support/cli.ts";
import { record } from "../../src/commands/record.ts";
import { run } from "../../src/commands/run.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import type { RunReport } from "../../src/report/schema.ts";

const ROOT = resolve(import.meta.dir, "../..");
const SPA = join(import.meta.dir, "..", "fixtures", "spa");
const DELAYS = [0, 30, 60, 150] as const;

let server: TestServer;
let project: TmpProject;
/** The delay the pages' own timers use now, and what the Save button does. */
let delay = 0;
const SAVE_NAVIGATES = 'history.pushState({}, "", "/spa/saved"); render();';
let save = SAVE_NAVIGATES;
/** Whether the batched renderer draws a change from the timer an earlier change scheduled. */
let coalesce = false;

const page = (file: string, fill: (text: string) => string) => () =>
  new Response(fill(readFileSync(join(SPA, file), "utf8")), { headers: { "content-type": "text/html; charset=utf-8" } });

beforeAll(async () => {
  requireChromium();
  project = tmpProject("flowproof-attribution-");
  server = await startServer(SPA);
  const withDelay = (t: string) => t.replaceAll("__DELAY__", String(delay));
  server.setRoute("/spa/hash.html", page("hash-timer.html", withDelay));
  server.setRoute(
    "/spa/push.html",
    page("push-timer.html", (t) => withDelay(t).replace("__SAVE__", save)),
  );
  server.setRoute("/spa/todos", page("todos.html", withDelay));
  server.setRoute("/spa/all", page("todos.html", withDelay));
  server.setRoute(
    "/spa/mithril.html",
    page("mithril.html", (t) => t),
  );
  server.setRoute(
    "/spa/poller.html",
    page("push-poller.html", (t) => t),
  );
  server.setRoute(
    "/spa/coalesce.html",
    page("coalesce.html", (t) => t.replaceAll("__COALESCE__", String(coalesce))),
  );
  server.setRoute(
    "/spa/mithril.js",
    () =>
      new Response(Bun.file(join(dirname(Bun.resolveSync("mithril/package.json", ROOT)), "mithril.min.js")), {
        headers: { "content-type": "text/javascript" },
      }),
  );
  const built = await Bun.build({
    entrypoints: [join(SPA, "todos.entry.jsx")],
    outdir: join(project.dir, "bundle"),
    target: "browser",
    minify: true,
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!built.success)
    throw new AggregateError(
      built.logs,
      "bundling the React todos page failed (it needs the devDependencies react, react-dom and react-router: run `npm install`)",
    );
  server.setRoute(
    "/spa/todos.js",
    () => new Response(Bun.file(join(project.dir, "bundle", "todos.entry.js")), { headers: { "content-type": "text/javascript" } }),
  );
}, 60_000);
afterAll(() => {
  server.stop();
  project.remove();
});

interface Recorded {
  readonly spec: string;
  readonly trace: string;
  readonly effects: unknown[];
}

async function recordAt(recordDelay: number, name: string, url: string, steps: readonly string[], extra = ""): Promise<Recorded> {
  delay = recordDelay;
  const spec = project.write(`${name}.flow.yaml`, flowYaml(name, url, steps) + extra);
  const rec = await record({ spec, author: "rules", recordingDetail: "off" });
  expect(rec.error).toBeUndefined();
  expect(rec.ok).toBe(true);
  expectValidTrace(rec.trace_path!);
  const lines = readFileSync(rec.trace_path!, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l) as { effect?: unknown });
  return { spec, trace: rec.trace_path!, effects: lines.map((l) => l.effect) };
}

async function replayAt(replayDelay: number, flow: Recorded): Promise<RunReport> {
  delay = replayDelay;
  const r = await run({ spec: flow.spec, recordingDetail: "off" });
  expectValidResult(r.report_path);
  return r.report;
}

/** Each step's status, failure and effect warning: all a replay's verdict is made of. */
const verdicts = (r: RunReport) => r.steps.map((s) => [s.id, s.status, s.detail ?? null, s.effect?.warning ?? null]);
/** Every step of the flow passed, with no detail and no warning: built from the flow's own step list, so a missing step fails. */
const allGreen = (steps: readonly string[]) => steps.map((_, i) => [`s${String(i + 1).padStart(4, "0")}`, "passed", null, null]);

describe("a router setting the URL's fragment on a start-up timer (the hash case)", () => {
  const STEPS = ['rules: Click the "Name" field', 'rules: Type Ada into the "Name" field', 'assert: the "Name" field contains Ada'];

  test("records the same effects at every delay, and every replay delay passes every recording", async () => {
    const recordings: Recorded[] = [];
    for (const d of DELAYS) recordings.push(await recordAt(d, `hash-${d}`, `${server.url}/spa/hash.html`, STEPS));
    // The fragment the app set is never a step's effect, and the typed value always is.
    for (const r of recordings) {
      expect(r.effects[0]).not.toHaveProperty("navigated");
      expect(r.effects[1]).toMatchObject({ target: ["value"] });
      expect(r.effects[1]).not.toHaveProperty("navigated");
    }
    for (const r of recordings) {
      for (const d of DELAYS) {
        const report = await replayAt(d, r);
        expect({ recorded: r.spec, replayDelay: d, steps: verdicts(report) }).toEqual({ recorded: r.spec, replayDelay: d, steps: allGreen(STEPS) });
      }
    }
  }, 180_000);
});

describe("a router moving the app to another path on a start-up timer", () => {
  const STEPS = ['rules: Type hello there into the "Subject" field', 'rules: Click "Save"'];

  test("the app's navigation is never a step's; the step's own navigation is, at every pair of delays", async () => {
    save = SAVE_NAVIGATES;
    const recordings: Recorded[] = [];
    for (const d of DELAYS) recordings.push(await recordAt(d, `push-${d}`, `${server.url}/spa/push.html`, STEPS));
    for (const r of recordings) {
      expect(r.effects[0]).toMatchObject({ target: ["value"] });
      expect(r.effects[0]).not.toHaveProperty("navigated");
      expect(r.effects[1]).toMatchObject({ navigated: "/spa/saved" });
    }
    for (const r of recordings) {
      for (const d of DELAYS) {
        const report = await replayAt(d, r);
        expect({ recorded: r.spec, replayDelay: d, steps: verdicts(report) }).toEqual({ recorded: r.spec, replayDelay: d, steps: allGreen(STEPS) });
      }
    }
  }, 180_000);

  test("the app's own navigation right after the step's never hides where the step went", async () => {
    const flow = await recordAt(0, "poller", `${server.url}/spa/poller.html`, ['rules: Click "Save"']);
    expect(flow.effects[0]).toMatchObject({ navigated: "/spa/saved" });
    for (let i = 0; i < 3; i++) {
      const report = await replayAt(0, flow);
      expect({ replay: i, steps: verdicts(report) }).toEqual({ replay: i, steps: allGreen(['rules: Click "Save"']) });
    }
  }, 60_000);

  test("a Save button that no longer navigates fails, whatever the app's timer did", async () => {
    save = SAVE_NAVIGATES;
    const flow = await recordAt(30, "push-mutant", `${server.url}/spa/push.html`, STEPS);
    save = "";
    try {
      for (const d of [0, 150]) {
        const report = await replayAt(d, flow);
        // The typing step is unchanged: it passes whatever the timer did.
        expect({ replayDelay: d, step: report.steps[0]!.status, detail: report.steps[0]!.detail }).toEqual({
          replayDelay: d,
          step: "passed",
          detail: undefined,
        });
        expect(report.steps[1]!.status).toBe("failed");
        // What replay saw instead is named: nothing, or the app's own navigation when its timer fired during the click.
        expect(report.steps[1]!.detail).toMatch(
          /^Click "Save": at record it navigated to \/spa\/saved; at replay it (did not|navigated to \/spa\/inbox instead)/,
        );
      }
    } finally {
      save = SAVE_NAVIGATES;
    }
  }, 60_000);
});

describe("real single-page apps", () => {
  test("React with React Router: a router navigation on a start-up timer, under effects: strict, at every pair of delays", async () => {
    const steps = ['rules: Type buy some cheese into the "What needs to be done?" field', "rules: Press Enter", "assert: page shows buy some cheese"];
    for (const rd of [0, 60]) {
      const flow = await recordAt(rd, `react-${rd}`, `${server.url}/spa/todos`, steps, "effects: strict\n");
      expect(flow.effects[0]).toMatchObject({ target: ["value"] });
      expect(flow.effects[0]).not.toHaveProperty("navigated");
      expect(flow.effects[1]).not.toHaveProperty("navigated");
      for (const d of DELAYS) {
        const report = await replayAt(d, flow);
        expect({ recordDelay: rd, replayDelay: d, steps: verdicts(report) }).toEqual({ recordDelay: rd, replayDelay: d, steps: allGreen(steps) });
      }
    }
  }, 180_000);

  test("Mithril TodoMVC (redraws on the next animation frame) replays green six times under effects: strict", async () => {
    const steps = ['rules: Type buy some cheese into the "What needs to be done?" field', "rules: Press Enter", "assert: page shows buy some cheese"];
    const flow = await recordAt(0, "mithril", `${server.url}/spa/mithril.html`, steps, "effects: strict\n");
    expect(flow.effects[1]).toMatchObject({ dom: "near" });
    for (let i = 0; i < 6; i++) {
      const report = await replayAt(0, flow);
      expect({ replay: i, steps: verdicts(report) }).toEqual({ replay: i, steps: allGreen(steps) });
    }
  }, 120_000);
});

test("a change drawn by a batched redraw an earlier step scheduled still counts at replay (effects: strict)", async () => {
  const steps = ['rules: Type buy some cheese into the "What needs to be done?" field', "rules: Press Enter", "assert: page shows buy some cheese"];
  coalesce = false;
  const flow = await recordAt(0, "coalesce", `${server.url}/spa/coalesce.html`, steps, "effects: strict\n");
  expect(flow.effects[1]).toMatchObject({ dom: "near" });
  // At replay the item is drawn by the timer the typing scheduled: the app's own work, carrying the step's change.
  coalesce = true;
  try {
    const report = await replayAt(0, flow);
    expect(verdicts(report)).toEqual(allGreen(steps));
  } finally {
    coalesce = false;
  }
}, 60_000);

test("the CLI prints an effect warning beside its step", async () => {
  save = SAVE_NAVIGATES;
  const flow = await recordAt(0, "warned", `${server.url}/spa/push.html`, ['rules: Click "Save"']);
  expect(flow.effects[0]).toMatchObject({ dom: "near" });
  // The button still navigates but no longer re-renders the status line: the DOM change is a warning.
  save = 'history.pushState({}, "", "/spa/saved");';
  try {
    const r = await runCli(["run", flow.spec], { cwd: project.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  [WARN] s0001 Click "Save": at record it changed the page near the target; at replay it did not');
  } finally {
    save = SAVE_NAVIGATES;
  }
}, 60_000);
