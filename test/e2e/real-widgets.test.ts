// Real dropdown widgets from npm, served locally: MUI Select (single and multiple) and Autocomplete,
// a Headless UI Listbox (bundled here with Bun.build), and Shoelace's sl-select (a web component).
// Each is chosen with `Select … from the "…" dropdown`, read back with `the "…" field contains …`,
// recorded and replayed several times; the red paths name the options the popup offered, and a
// control that ends up showing another value than the one chosen fails the step.
import { beforeAll, describe, expect, test } from "bun:test";
import { dirname, join, resolve } from "node:path";
import { flowYaml } from "../support/tmp-project.ts";
import { expectGreen, webE2e } from "../support/e2e.ts";
import { readFileSync } from "node:fs";
import { record } from "../../src/commands/record.ts";
import { run } from "../../src/commands/run.ts";

const ROOT = resolve(import.meta.dir, "../..");
const WIDGETS = resolve(import.meta.dir, "../fixtures/widgets");
const { server, project } = await webE2e();

/** A package's folder, or an error naming the devDependencies these pages need. */
const packageDir = (name: string): string => {
  try {
    return dirname(Bun.resolveSync(`${name}/package.json`, ROOT));
  } catch (error) {
    throw new Error(
      "the real-widget pages need the devDependencies @mui/material, @headlessui/react, @shoelace-style/shoelace, react and react-dom: run `npm install`",
      { cause: error },
    );
  }
};

const serveFile = (path: string, file: string, type: string) =>
  server.setRoute(path, () => new Response(Bun.file(file), { headers: { "content-type": type } }));
const page = (name: string) => join(WIDGETS, name);
/** Departments the page lists before its own, to change the page between a recording and its replay. */
let extraDepartments: string[] = [];

beforeAll(async () => {
  const shoelace = packageDir("@shoelace-style/shoelace");
  packageDir("@headlessui/react");
  packageDir("@mui/material");
  const built = await Bun.build({
    entrypoints: [page("react-widgets.entry.js"), page("shoelace.entry.js")],
    outdir: join(project.dir, "widgets"),
    target: "browser",
    minify: true,
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!built.success) throw new AggregateError(built.logs, "bundling the widget pages failed");
  serveFile("/react-widgets.js", join(project.dir, "widgets", "react-widgets.entry.js"), "text/javascript");
  serveFile("/shoelace.js", join(project.dir, "widgets", "shoelace.entry.js"), "text/javascript");
  serveFile("/shoelace/light.css", join(shoelace, "dist/themes/light.css"), "text/css");
  server.setRoute("/react-widgets.html", async () => {
    const html = await Bun.file(page("react-widgets.html")).text();
    const extra = `<script>window.EXTRA_DEPARTMENTS = ${JSON.stringify(extraDepartments)};</script>`;
    return new Response(html.replace("</head>", `${extra}\n</head>`), { headers: { "content-type": "text/html; charset=utf-8" } });
  });
  serveFile("/shoelace.html", page("shoelace.html"), "text/html; charset=utf-8");
}, 120_000);

const REPLAYS = 3;
const green = (name: string, url: string, steps: readonly string[]) =>
  expectGreen(project.write(`${name}.flow.yaml`, flowYaml(name, `${server.url}/${url}`, steps)), { replays: REPLAYS });

/** Records `steps` and answers the first failed step's detail. */
const firstFailure = async (name: string, url: string, steps: readonly string[]): Promise<string | undefined> => {
  const recorded = await record({
    spec: project.write(`${name}.flow.yaml`, flowYaml(name, `${server.url}/${url}`, steps)),
    author: "rules",
    recordingDetail: "off",
  });
  expect(recorded.ok).toBe(false);
  return recorded.step_results.find((r) => r.status === "failed")?.detail;
};

describe("MUI", () => {
  test("Select, a multiple Select and Autocomplete are chosen by label and read back as a user sees them", async () => {
    await green("mui", "react-widgets.html", [
      "Wait until page shows Department within 10s",
      'rules: Select Engineering from the "Department" dropdown',
      'assert: the "Department" field contains Engineering',
      'assert: the "css:#out" shows Department is Engineering;',
      'rules: Select Legal from the "Department" dropdown',
      'assert: the "Department" field contains Legal',
      'rules: Select "Red" and "Blue" from the "Colours" dropdown',
      'assert: the "css:#out" shows Colours are Red, Blue;',
      'assert: the "Colours" field contains Red, Blue',
      'rules: Select Green and Red from the "Colours" dropdown',
      'assert: the "css:#out" shows Colours are Red, Green;',
      'rules: Select Germany from the "Country" dropdown',
      'assert: the "Country" field contains Germany',
      'assert: the "css:#out" shows Country is Germany;',
      'rules: Select Bergamo from the "City" dropdown',
      'assert: the "City" field contains Bergamo',
      'assert: the "css:#out" shows City is Bergamo',
      'rules: Select Bern from the "City" dropdown',
      'assert: the "City" field contains exactly Bern',
      'rules: Click "Widgets"',
      'assert: the "Department" field contains Legal',
    ]);
  });

  test("the trace keeps the option the recording chose, and replay takes exactly it", async () => {
    const spec = project.write(
      "mui-chosen.flow.yaml",
      flowYaml("mui-chosen", `${server.url}/react-widgets.html`, [
        "Wait until page shows Department within 10s",
        'rules: Select Fin from the "Department" dropdown',
        'assert: the "Department" field contains exactly Finance',
      ]),
    );
    const recorded = await record({ spec, author: "rules", recordingDetail: "off" });
    expect(recorded.step_results.find((r) => r.status !== "passed")?.detail).toBeUndefined();
    const steps = readFileSync(recorded.trace_path!, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l) as { intent: string; action: { params: { chosen?: string[] } } });
    expect(steps.find((s) => s.intent.startsWith("Select Fin"))?.action.params.chosen).toEqual(["Finance"]);
    // The page now offers a second option reading "Fin…": replay does not decide the prefix again.
    extraDepartments = ["Finance Ops"];
    try {
      const replay = await run({ spec, recordingDetail: "off" });
      expect(replay.report.steps.filter((s) => s.status !== "passed")).toEqual([]);
      const again = await record({ spec, author: "rules", recordingDetail: "off" });
      expect(again.step_results.find((r) => r.status === "failed")?.detail).toContain('answer to "Fin": "Finance Ops", "Finance"; write the whole option');
    } finally {
      extraDepartments = [];
    }
  });

  test("an option the menu does not offer is named with the ones it does", async () => {
    const detail = await firstFailure("mui-missing", "react-widgets.html", [
      "Wait until page shows Department within 10s",
      'rules: Select Marketing from the "Department" dropdown',
    ]);
    expect(detail).toContain('no option "Marketing"');
    expect(detail).toContain('"Finance", "Engineering", "Legal", "Sales"');
  });

  test("a control that shows another value than the one chosen fails the step", async () => {
    const detail = await firstFailure("mui-wrong", "react-widgets.html", [
      "Wait until page shows Region within 10s",
      'rules: Select North from the "Region" dropdown',
    ]);
    expect(detail).toContain('"North"');
    expect(detail).toContain('does not show it (it shows "South")');
  });
});

describe("Headless UI", () => {
  test("a Listbox opened from its button is chosen by label and read back", async () => {
    await green("headless", "react-widgets.html", [
      "Wait until page shows Assignee within 10s",
      'rules: Select Grace Hopper from the "Assignee" dropdown',
      'assert: the "Assignee" field contains Grace Hopper',
      'assert: the "css:#out" shows Assignee is Grace Hopper',
      'rules: Select Alan Turing from the "Assignee" dropdown',
      'assert: the "css:#out" shows Assignee is Alan Turing',
    ]);
  });

  test("an option the listbox does not offer is named with the ones it does", async () => {
    const detail = await firstFailure("headless-missing", "react-widgets.html", [
      "Wait until page shows Assignee within 10s",
      'rules: Select Linus from the "Assignee" dropdown',
    ]);
    expect(detail).toContain('no option "Linus"');
    expect(detail).toContain('"Ada Lovelace", "Grace Hopper", "Alan Turing"');
  });

  test("a Listbox that shows another value than the one chosen fails the step", async () => {
    const detail = await firstFailure("headless-wrong", "react-widgets.html", [
      "Wait until page shows Reviewer within 10s",
      'rules: Select Alan Turing from the "Reviewer" dropdown',
    ]);
    expect(detail).toContain('the option "Alan Turing" was clicked but');
    expect(detail).toContain('does not show it (it shows "Grace Hopper")');
  });
});

describe("Shoelace", () => {
  test("sl-select, single and multiple, is chosen by label and read back", async () => {
    await green("shoelace", "shoelace.html", [
      "Wait until page shows Sign up within 10s",
      'rules: Select Pro from the "Plan" dropdown',
      'assert: the "Plan" field contains Pro',
      'assert: the "css:#out" shows Plan is pro;',
      'rules: Select "Support" and "Audit log" from the "Extras" dropdown',
      'assert: the "css:#out" shows Extras are support, audit',
      'rules: Select Backups and Support from the "Extras" dropdown',
      'assert: the "css:#out" shows Extras are support, backups',
      'rules: Select Team from the "Plan" dropdown',
      'assert: the "Plan" field contains Team',
      'rules: Select Free from the "css:#plan" dropdown',
      'assert: the "css:#out" shows Plan is free;',
    ]);
  });

  test("an option the listbox does not offer is named with the ones it does", async () => {
    const detail = await firstFailure("shoelace-missing", "shoelace.html", [
      "Wait until page shows Sign up within 10s",
      'rules: Select Enterprise from the "Plan" dropdown',
    ]);
    expect(detail).toContain('no option "Enterprise"');
    expect(detail).toContain('"Free", "Pro", "Team"');
  });

  test("an sl-select that shows another value than the one chosen fails the step", async () => {
    const detail = await firstFailure("shoelace-wrong", "shoelace.html", [
      "Wait until page shows Sign up within 10s",
      'rules: Select 10 seats from the "Seats" dropdown',
    ]);
    expect(detail).toContain('the option "10 seats" was clicked but');
    expect(detail).toContain('does not show it (it shows "5 seats")');
  });
});
