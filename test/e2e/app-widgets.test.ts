// Widgets of widely used React libraries, served locally and bundled here with Bun.build:
// react-select (its input emptied once an option is chosen, the choice shown beside it, chosen
// options taken out of a multi-select's menu), Radix UI's Select and DropdownMenu, Ant Design's
// Select (its options drawn beside a listbox kept for screen readers), DatePicker and Modal (which
// gives the focus back to its opener once it has closed, while the next step types), a Quill
// editor named by its placeholder and a CodeMirror editor inside a labelled box; and on a second
// page MUI's and Headless UI's dialogs and menus, switches and checkboxes built from buttons
// (Radix UI, MUI), Radix Tabs and Accordion, react-datepicker and a dnd-kit sortable list; and on a
// third, Vue page Element Plus's controls, whose placeholders and switches are drawn over their
// inputs. Each
// flow is recorded in Chromium and replayed in Chromium and in Firefox, twice each, on one browser
// of each engine for the whole file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { record } from "../../src/commands/record.ts";
import { run } from "../../src/commands/run.ts";
import { SessionPool } from "../../src/commands/session-pool.ts";
import { webE2e } from "../support/e2e.ts";
import { requireFirefox } from "../support/firefox.ts";
import { flowYaml } from "../support/tmp-project.ts";

const ROOT = resolve(import.meta.dir, "../..");
const WIDGETS = resolve(import.meta.dir, "../fixtures/widgets");
const { server, project } = await webE2e();
requireFirefox();

beforeAll(async () => {
  for (const name of [
    "react-select",
    "@radix-ui/react-select",
    "antd",
    "quill",
    "codemirror",
    "@mui/material",
    "@headlessui/react",
    "react-datepicker",
    "@dnd-kit/sortable",
    "vue",
    "element-plus",
  ]) {
    try {
      Bun.resolveSync(`${name}/package.json`, ROOT);
    } catch (error) {
      throw new Error(`the app-widget page needs the devDependency ${name}: run \`npm ci\``, { cause: error });
    }
  }
  const built = await Bun.build({
    entrypoints: [join(WIDGETS, "app-widgets.entry.jsx"), join(WIDGETS, "app-controls.entry.jsx"), join(WIDGETS, "app-vue.entry.js")],
    outdir: join(project.dir, "app-widgets"),
    target: "browser",
    minify: true,
    define: {
      "process.env.NODE_ENV": '"production"',
      __VUE_OPTIONS_API__: "true",
      __VUE_PROD_DEVTOOLS__: "false",
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false",
    },
  });
  if (!built.success) throw new AggregateError(built.logs, "bundling the app-widget page failed");
  const serve = (path: string, file: string, type: string) => server.setRoute(path, () => new Response(Bun.file(file), { headers: { "content-type": type } }));
  serve("/app-widgets.js", join(project.dir, "app-widgets", "app-widgets.entry.js"), "text/javascript");
  serve("/app-widgets.css", join(project.dir, "app-widgets", "app-widgets.entry.css"), "text/css");
  serve("/app-widgets.html", join(WIDGETS, "app-widgets.html"), "text/html; charset=utf-8");
  serve("/app-controls.js", join(project.dir, "app-widgets", "app-controls.entry.js"), "text/javascript");
  serve("/app-controls.css", join(project.dir, "app-widgets", "app-controls.entry.css"), "text/css");
  serve("/app-controls.html", join(WIDGETS, "app-controls.html"), "text/html; charset=utf-8");
  serve("/app-vue.js", join(project.dir, "app-widgets", "app-vue.entry.js"), "text/javascript");
  serve("/app-vue.css", join(project.dir, "app-widgets", "app-vue.entry.css"), "text/css");
  serve("/app-vue.html", join(WIDGETS, "app-vue.html"), "text/html; charset=utf-8");
}, 120_000);

const OPENED = "Wait until page shows Project settings within 10s";
const pools = { chromium: new SessionPool(), firefox: new SessionPool() };
afterAll(async () => {
  await pools.chromium.close();
  await pools.firefox.close();
});
const envFor = (browser: "chromium" | "firefox") => ({ ...process.env, FLOWPROOF_BROWSER: browser });

/** Records `steps` on `page` in Chromium, then replays the trace twice in Chromium and twice in Firefox: every step passes. */
async function greenOnBoth(name: string, steps: readonly string[], page = "app-widgets.html", opened = OPENED): Promise<void> {
  const spec = project.write(`${name}.flow.yaml`, flowYaml(name, `${server.url}/${page}`, [opened, ...steps]));
  const recorded = await record({ spec, author: "rules", recordingDetail: "off", env: envFor("chromium"), pool: pools.chromium });
  expect(recorded.step_results.find((r) => r.status !== "passed")?.detail).toBeUndefined();
  for (const browser of ["chromium", "chromium", "firefox", "firefox"] as const) {
    const replay = await run({ spec, recordingDetail: "off", env: envFor(browser), pool: pools[browser] });
    expect({ browser, failed: replay.report.steps.filter((s) => s.status !== "passed").map((s) => s.detail) }).toEqual({ browser, failed: [] });
  }
}

/** Records `steps` and answers the first failed step's detail. */
async function firstFailure(name: string, steps: readonly string[], page = "app-widgets.html", opened = OPENED): Promise<string | undefined> {
  const spec = project.write(`${name}.flow.yaml`, flowYaml(name, `${server.url}/${page}`, [opened, ...steps]));
  const recorded = await record({ spec, author: "rules", recordingDetail: "off", env: envFor("chromium"), pool: pools.chromium });
  expect(recorded.ok).toBe(false);
  return recorded.step_results.find((r) => r.status === "failed")?.detail;
}

describe("react-select", () => {
  test("a single and a multiple select are chosen by label and read back from what they show beside their emptied input", async () => {
    await greenOnBoth("react-select", [
      'rules: Select Banana from the "Fruit" dropdown',
      'assert: the "Fruit" field contains exactly Banana',
      'rules: Select Apple and Cherry from the "Fruits" dropdown',
      'assert: the "Fruits" field contains Apple',
      'assert: the "Fruits" field contains Cherry',
      'assert: the "css:#out" shows fruit=banana; fruits=apple,cherry;',
    ]);
  }, 180_000);

  test("an option the menu does not offer is named with the ones it offered before typing filtered them", async () => {
    const detail = await firstFailure("react-select-missing", ['rules: Select Mango from the "Fruit" dropdown']);
    expect(detail).toContain('has no option "Mango"');
    expect(detail).toContain('"Apple", "Banana", "Cherry"');
  }, 60_000);
});

describe("Radix UI", () => {
  test("a Select and a DropdownMenu item", async () => {
    await greenOnBoth("radix", [
      'rules: Select Medium from the "Size" dropdown',
      'assert: the "Size" field contains exactly Medium',
      'rules: Click "Actions"',
      'rules: Click "Archive"',
      'assert: the "css:#out" shows size=Medium; action=archived;',
    ]);
  }, 180_000);
});

describe("Ant Design", () => {
  test("a Select whose listbox is kept for screen readers is chosen from the options drawn beside it; a date is typed", async () => {
    await greenOnBoth("antd", [
      'rules: Select Lisbon from the "City" dropdown',
      'assert: the "City" field contains exactly Lisbon',
      'rules: Select Oslo from the "City" dropdown',
      'assert: the "css:#out" shows city=Oslo;',
      'rules: Type 2026-03-14 into the "Start date" field',
      "rules: Press Enter",
      'assert: the "css:#out" shows date=2026-03-14;',
    ]);
  }, 180_000);

  test("an option the Select does not draw is named with the ones it does", async () => {
    const detail = await firstFailure("antd-missing", ['rules: Select Berlin from the "City" dropdown']);
    expect(detail).toContain('has no option "Berlin"');
    expect(detail).toContain('"Paris", "Oslo", "Lisbon", "Vienna"');
  }, 60_000);
});

describe("editors", () => {
  test("typing right after a Modal closed reaches the editor whole, though the Modal gives the focus back to its opener", async () => {
    await greenOnBoth("modal-then-type", [
      'rules: Click "Delete project"',
      'rules: Click "Yes, delete"',
      'rules: Type hello world into the "Write a comment" field',
      'assert: the "css:#out" shows deleted=yes;',
      'assert: the "css:#out" shows comment=hello world;',
    ]);
  }, 180_000);

  test("a CodeMirror editor is the one field inside the box its label names", async () => {
    await greenOnBoth("codemirror", ['rules: Type const total = 42 into the "Code" field', 'assert: the "css:#out" shows code=const total = 42;']);
  }, 180_000);
});

describe("dialogs, menus, switches, a date picker and a sortable list", () => {
  const controls = (name: string, steps: readonly string[]) => greenOnBoth(name, steps, "app-controls.html", "Wait until page shows Team settings within 10s");

  test("MUI's Dialog (its field focused as it opens), Menu and Snackbar; Headless UI's Dialog and Menu with their transitions", async () => {
    await controls("dialogs-menus", [
      'rules: Click "New item"',
      'rules: Type Lamp into the "Item name" field',
      'rules: Click "Create"',
      "assert: page shows Item created",
      'rules: Click "Options"',
      'rules: Click "Remove"',
      'rules: Click "Invite"',
      'rules: Click "Send invite"',
      'rules: Click "More"',
      'rules: Click "Archive"',
      'assert: the "css:#out" shows saved=Lamp; menu=archived; invited=yes;',
    ]);
  }, 180_000);

  test("switches and checkboxes built from buttons are checked by their labels; tabs, an accordion and a typed date", async () => {
    await controls("switches", [
      'rules: Check the "Notifications" checkbox',
      'assert: the "Notifications" checkbox is checked',
      'rules: Check the "Accept terms" checkbox',
      'rules: Check the "Dark mode" checkbox',
      'rules: Check the "Newsletter" checkbox',
      'rules: Uncheck the "Notifications" checkbox',
      'assert: the "Notifications" checkbox is not checked',
      'rules: Click "Billing"',
      "assert: page shows Billing history",
      'rules: Click "Shipping"',
      "assert: page shows Ships in 3 days",
      'rules: Type 2026-05-17 into the "Due date" field',
      "rules: Press Enter",
      'assert: the "css:#out" shows notify=false; terms=true; dark=true; news=true; due=2026-05-17;',
    ]);
  }, 180_000);

  test("a dnd-kit sortable list is reordered by a pointer drag", async () => {
    await controls("sortable", ['rules: Drag "Alpha" onto "Charlie"', 'assert: the "css:#out" shows cards=Bravo,Charlie,Alpha,Delta;']);
  }, 180_000);
});

describe("Element Plus (Vue)", () => {
  const VUE_OPENED = "Wait until page shows Workspace within 10s";
  const vue = (name: string, steps: readonly string[]) => greenOnBoth(name, steps, "app-vue.html", VUE_OPENED);

  test("selects opened through the placeholder drawn over their input, a filterable select, radios by their text, a switch turned off, a dialog and a confirm box", async () => {
    await vue("element-plus", [
      'rules: Select Tokyo from the "City" dropdown',
      'assert: the "City" field contains exactly Tokyo',
      'rules: Select "Red" and "Blue" from the "Tags" dropdown',
      'rules: Select Japanese from the "Language" dropdown',
      'rules: Check the "I agree" checkbox',
      'rules: Click "Pro"',
      'rules: Uncheck the "Notifications" checkbox',
      'assert: the "Notifications" checkbox is not checked',
      'assert: the "css:#out" shows city=tokyo; tags=red,blue; lang=ja;',
      'assert: the "css:#out" shows agree=true; notify=false; plan=pro;',
      'rules: Click "New project"',
      'rules: Type Apollo into the "Project name" field',
      'rules: Click "Create"',
      'assert: the "css:#log" shows saved Apollo',
      'rules: Click "Delete file"',
      'rules: Click "OK"',
      'assert: the "css:#log" shows deleted',
      'rules: Click "Settings"',
      "assert: page shows Settings body",
    ]);
  }, 180_000);

  test("a typed date, a cascader's two levels, a number typed, and a table drawn as two tables read and clicked by column", async () => {
    await vue("element-plus-more", [
      'assert: the "Price" column of the row containing "Banana" shows 4',
      'rules: Click the "Actions" column of the row containing "Cherry"',
      'assert: the "css:#log" shows removed Cherry',
      'rules: Type 2026-12-24 into the "Date" field',
      "rules: Press Enter",
      'rules: Click "Pick a region"',
      'rules: Click "Europe"',
      'rules: Click "France"',
      'rules: Type 3 into the "Quantity" field',
      "rules: Press Tab",
      'assert: the "css:#out" shows date=2026-12-24; region=eu/fr; qty=3;',
    ]);
  }, 180_000);

  test("'Select Red and Blue' names one option; the failure says to quote each", async () => {
    const detail = await firstFailure(
      "element-plus-unquoted",
      ['rules: Select Red and Blue from the "Tags" dropdown'],
      "app-vue.html",
      "Wait until page shows Workspace within 10s",
    );
    expect(detail).toContain('has no option "Red and Blue"');
    expect(detail).toContain('to choose several, quote each one: "Red" and "Blue"');
  }, 60_000);
});
