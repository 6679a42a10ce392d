// Real grids from npm, served locally: AG Grid (its UMD bundle) and MUI X DataGrid (bundled here
// with Bun.build), each addressed with `the "…" column of the row containing "…"` and no
// framework-specific selector — including a virtualised grid whose row is scrolled in first.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { dirname, join, resolve } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { record } from "../../src/commands/record.ts";
import { run } from "../../src/commands/run.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";

const ROOT = resolve(import.meta.dir, "../..");
const GRIDS = resolve(import.meta.dir, "../fixtures/grids");

let server: TestServer;
let project: TmpProject;

beforeAll(async () => {
  requireChromium();
  project = tmpProject();
  server = await startServer(GRIDS);
  let agPackage: string;
  try {
    agPackage = Bun.resolveSync("ag-grid-community/package.json", ROOT);
  } catch (error) {
    throw new Error("the real-grid pages need the devDependencies ag-grid-community, @mui/x-data-grid, @mui/material, react and react-dom: run `npm install`", {
      cause: error,
    });
  }
  const agGrid = join(dirname(agPackage), "dist/ag-grid-community.min.js");
  server.setRoute("/vendor/ag-grid-community.min.js", () => new Response(Bun.file(agGrid), { headers: { "content-type": "text/javascript" } }));
  const built = await Bun.build({
    entrypoints: [join(GRIDS, "mui-grid.entry.js")],
    outdir: join(project.dir, "mui"),
    target: "browser",
    minify: true,
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!built.success) throw new AggregateError(built.logs, "bundling the MUI X DataGrid page failed");
  const bundle = join(project.dir, "mui", "mui-grid.entry.js");
  server.setRoute("/mui-grid.js", () => new Response(Bun.file(bundle), { headers: { "content-type": "text/javascript" } }));
}, 120_000);
afterAll(() => {
  server.stop();
  project.remove();
});

interface Case {
  readonly name: string;
  readonly page: string;
  readonly steps: readonly string[];
}

const CASES: readonly Case[] = [
  {
    name: "AG Grid: cells by column header and row anchor",
    page: "ag-grid.html",
    steps: [
      "Wait until page shows Grace Hopper within 10s",
      'assert: the "Status" column of the row containing "Grace Hopper" shows Suspended',
      'assert: the "Balance" column of the row containing "Grace Hopper" is empty',
      'assert: the "Balance" column of the row containing "Alan Turing" shows 310.50',
      'assert: the "Status" column of the row containing "Ada Lovelace" shows Active',
      'rules: Click the "Balance" column of the row containing "Alan Turing"',
      "assert: page shows clicked Balance of Alan Turing",
      'rules: Remember the "Balance" column of the row containing "Ada Lovelace" as balance',
      'assert: the "Balance" column of the row containing "Ada Lovelace" shows ${captured.balance}',
    ],
  },
  {
    name: "AG Grid: a virtualised row is brought into the DOM by scrolling the grid, then addressed",
    page: "ag-grid.html",
    steps: [
      "Wait until page shows Entry 0001 within 10s",
      "assert: page does not show Entry 0400",
      'rules: Scroll the "css:#ledger .ag-body-vertical-scroll-viewport" to 15000px',
      'assert: the "Amount" column of the row containing "Entry 0503" shows 754.50',
      'rules: Scroll "Entry 0505" into view',
      'assert: the "Amount" column of the row containing "Entry 0505" shows 757.50',
    ],
  },
  {
    name: "MUI X DataGrid: cells by column header and row anchor",
    page: "mui-grid.html",
    steps: [
      "Wait until page shows Grace Hopper within 10s",
      'assert: the "Status" column of the row containing "Grace Hopper" shows Suspended',
      'assert: the "Balance" column of the row containing "Grace Hopper" is empty',
      'assert: the "Balance" column of the row containing "Alan Turing" shows 310.50',
      'rules: Click the "Status" column of the row containing "Alan Turing"',
      'assert: the "Status" column of the row containing "Alan Turing" shows Active',
    ],
  },
  {
    name: "MUI X DataGrid: a virtualised row is brought into the DOM by scrolling the grid, then addressed",
    page: "mui-grid.html",
    steps: [
      "Wait until page shows Entry 0001 within 10s",
      "assert: page does not show Entry 0080",
      'rules: Scroll the "css:#ledger .MuiDataGrid-virtualScroller" to the bottom',
      'assert: the "Amount" column of the row containing "Entry 0100" shows 150.00',
      'rules: Scroll "Entry 0098" into view',
      'assert: the "Amount" column of the row containing "Entry 0098" shows 147.00',
    ],
  },
];

describe("real grids from npm", () => {
  test.each(CASES.map((c, i) => [c.name, c, i] as const))("%s", async (_name, c, i) => {
    const spec = project.write(`grid-${i}.flow.yaml`, flowYaml(c.name, `${server.url}/${c.page}`, c.steps));
    const recorded = await record({ spec, author: "rules" });
    const failure = recorded.step_results.find((r) => r.status !== "passed");
    expect(failure?.detail ?? recorded.error).toBeUndefined();
    expect(recorded.ok).toBe(true);
    expectValidTrace(recorded.trace_path!);

    const replay = await run({ spec });
    expect(replay.report.steps.filter((s) => s.status !== "passed")).toEqual([]);
    expect(replay.report.passed).toBe(true);
    expectValidResult(replay.report_path);
  });
});
