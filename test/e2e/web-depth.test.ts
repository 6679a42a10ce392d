// What porting peer suites (a kitchensink of commands, a TodoMVC app) asks of the web surface,
// each case on a local fixture page in real Chromium, recorded and then replayed: targets clipped
// in scrolling boxes, the visibility rule, labels real components repeat, history, focus, exact
// text, storage and cookies, viewport changes, and typed text with quotes and spaces. One browser
// serves the whole file (a shared session pool).
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { flowYaml } from "../support/tmp-project.ts";
import { expectGreen, webE2e } from "../support/e2e.ts";
import { runCli } from "../support/cli.ts";
import { record } from "../../src/commands/record.ts";
import { SessionPool } from "../../src/commands/session-pool.ts";

const { server, project } = await webE2e();
const pool = new SessionPool();
afterAll(() => pool.close());

/** Replays after the record: each must decide visibility, ambiguity and waits the same way. */
const REPLAYS = 2;
let flows = 0;

/** Records the steps on the fixture page, then replays the trace REPLAYS times: every step passes every time. */
async function green(page: string, steps: readonly string[], env: Record<string, string> = {}): Promise<string> {
  const spec = project.write(`green-${++flows}.flow.yaml`, flowYaml(`Green ${flows}`, `${server.url}/${page}`, steps));
  return expectGreen(spec, { env, pool, replays: REPLAYS });
}

/** Records the steps with a short step bound; returns the failing step's detail and how long recording took. */
async function red(page: string, steps: readonly string[], stepTimeoutMs = 2_000): Promise<{ detail: string; ms: number }> {
  const spec = project.write(`red-${++flows}.flow.yaml`, flowYaml(`Red ${flows}`, `${server.url}/${page}`, steps));
  const started = performance.now();
  const recorded = await record({
    spec,
    author: "rules",
    recordingDetail: "off",
    env: { ...process.env, FLOWPROOF_STEP_TIMEOUT_MS: String(stepTimeoutMs) },
    pool,
  });
  const ms = performance.now() - started;
  expect(recorded.ok).toBe(false);
  return { detail: recorded.step_results.find((r) => r.status !== "passed")?.detail ?? "", ms };
}

describe("scrolling boxes", () => {
  test("clicks targets below a scrolling box's fold, sideways and two boxes deep; visibility follows what the boxes show", async () => {
    await green("scroll-boxes.html", [
      'assert: the "I\'m Here" is not visible',
      'assert: the "css:.box button" appears 0 times',
      'rules: Click "I\'m Here"',
      'assert: the "css:#out" shows Clicked I\'m Here',
      'assert: the "I\'m Here" is visible',
      'assert: the "css:.box button" appears 1 time',
      'rules: Click "Over Here"',
      'assert: the "css:#out" shows Clicked Over Here',
      'rules: Click "Deep inside"',
      'assert: the "css:#out" shows Clicked Deep inside',
      'assert: the "Tucked away" is not visible',
    ]);
  });

  test("a button cut off by a collapsed panel is not clicked, and the failure names the panel", async () => {
    const { detail } = await red("scroll-boxes.html", ['rules: Click "Tucked away"'], 1_000);
    expect(detail).toBe(
      'timed out after 1000 ms waiting for the "Tucked away" to be visible: <button#tucked> "Tucked away" is present but cut off by <div#collapsed>, which does not scroll it into view',
    );
  });

  test("a button under another element is not clicked, and the failure names what is on top by its class", async () => {
    const { detail } = await red("todo-toggles.html", ['rules: Click "Mark all"']);
    expect(detail).toContain('<button#mark-all> "Mark all" would not receive the click: <input.toggle-all> is on top at (');
  });

  test("is visible on a target scrolled out of its box says where it is", async () => {
    const { detail } = await red("scroll-boxes.html", ['assert: the "Over Here" is visible within 1s']);
    expect(detail).toBe(
      'expected the "Over Here" to be visible within 1000 ms; it is present but outside the visible area of <div#scroll-horizontal> (scrolled or clipped out of it)',
    );
  });
});

describe("labels real components repeat", () => {
  test("an ordinal always resolves, and a squashed table header is not a second match", async () => {
    await green("data-table.html", [
      'rules: Click the 1st "Age"',
      'assert: the "css:#sorted" shows Sorted by Age, Cedric Kelly first',
      'rules: Click the 1st "Name"',
      'assert: the "css:#sorted" shows Airi Satou first',
    ]);
  });

  test("a label in the header and the footer is ambiguous, listing only the visible two", async () => {
    const { detail } = await red("data-table.html", ['rules: Click "Age"']);
    expect(detail).toStartWith('the "Age": 2 elements match "Age": 1st <th> "Age", 2nd <th> "Age"; say which one with an ordinal');
  });

  test("a combobox and the listbox it controls are one dropdown; a dialog's close icon and its own Close button are one target", async () => {
    await green("component-widgets.html", [
      'rules: Click the "Plan" dropdown',
      'rules: Select Pro from the "Plan" dropdown',
      'assert: the "css:#out" shows Plan Pro',
      'rules: Click "Close"',
      "assert: page shows Dialog closed by the footer button",
    ]);
  });
});

describe("a TodoMVC-like app", () => {
  test("focus, exact text, storage under a ${VAR} key, history across documents and routes, and a narrower viewport", async () => {
    await green(
      "todo-app.html",
      [
        'assert: the "What needs to be done?" field is focused',
        "rules: Type Walk the dog",
        "rules: Press Enter",
        'assert: the "css:.todo-count" shows exactly 1 item left',
        'assert: local storage "todos-${FW}" contains Walk the dog',
        'assert: local storage "todos-react" does not exist',
        'rules: Click "todos"',
        'assert: the "What needs to be done?" field is not focused',
        'rules: Click "Active"',
        "assert: page shows Showing active",
        "rules: Go back",
        "assert: page shows Showing all",
        "rules: Go forward",
        "assert: page shows Showing active",
        'rules: Click "About"',
        "assert: page shows About todos",
        "rules: Go back",
        "assert: page url is /todo-app.html",
        "assert: page shows Showing active",
        "rules: Go forward",
        "assert: page shows About todos",
        "rules: Go back",
        "rules: Resize the viewport to 320x480",
        "assert: page shows Narrow layout",
        'assert: the "Wide layout" is not visible',
        "rules: Resize the viewport to 1280x800",
        'assert: the "Wide layout" is visible',
      ],
      { FW: "vanillajs" },
    );
  });

  test("cookies and storage: facts and absence, then cleared", async () => {
    await green("todo-app.html", [
      'assert: cookie "theme" does not exist',
      'rules: Click "Save preferences"',
      'assert: cookie "theme" exists',
      'assert: cookie "theme" is not httpOnly',
      'assert: cookie "theme" is not secure',
      'assert: session storage "draft" contains half a thought',
      "rules: Type Buy milk",
      "rules: Press Enter",
      "rules: Clear cookies",
      'assert: cookie "theme" does not exist',
      "rules: Clear session storage",
      'assert: session storage "draft" does not exist',
      "rules: Clear local storage",
      'assert: local storage "todos-vanillajs" does not exist',
      "rules: Reload the page",
      'assert: the "css:.todo-count" shows exactly 0 items left',
    ]);
  });

  test("typed text keeps its quotes, its spaces and its target", async () => {
    const trace = await green("todo-about.html", [
      'rules: Type 5" screen into the "Name" field',
      'assert: the "css:#echo" shows [5" screen]',
      'rules: Type " padded " into the "Name" field',
      'assert: the "css:#echo" shows [ padded ]',
      'assert: the "Name" field contains exactly padded',
    ]);
    const typed = readFileSync(trace, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l) as { action: { params: { text?: string } }; selectors: unknown[] });
    expect(typed.slice(0, 1).map((s) => [s.action.params.text, s.selectors.length])).toEqual([['5" screen', 1]]);
    expect(typed[2]?.action.params.text).toBe(" padded ");
  });

  test("typing with nothing focused fails at once, saying so", async () => {
    const { detail, ms } = await red("todo-app.html", ['rules: Click "todos"', "rules: Type zzz"], 5_000);
    expect(detail).toBe(
      'the page: nothing has keyboard focus, so there is nothing to type into; name the field (`Type … into the "…" field`) or click a field first',
    );
    expect(ms).toBeLessThan(5_000);
  });

  test("failures say what they compared: the URL's path, the whole text, the focus, a cookie, storage, the history", async () => {
    expect((await red("todo-app.html?fw=x", ["assert: page url is /todo-app.html?fw=y within 1s"])).detail).toBe(
      `expected the page url to be "/todo-app.html?fw=y" within 1000 ms; its path and query are /todo-app.html?fw=x (the whole URL is ${server.url}/todo-app.html?fw=x)`,
    );
    expect((await red("todo-app.html", ['assert: the "css:.todo-count" shows exactly 0 items within 1s'])).detail).toBe(
      'expected the "css:.todo-count" to show exactly "0 items" within 1000 ms; it shows "0 items left"',
    );
    expect((await red("todo-app.html", ['assert: the "What needs to be done?" field is not focused within 1s'])).detail).toBe(
      'expected the "What needs to be done?" field not to have keyboard focus within 1000 ms; it has keyboard focus',
    );
    expect((await red("todo-app.html", ['assert: cookie "theme" is not httpOnly within 1s'])).detail).toBe(
      `expected cookie "theme" not to be httpOnly within 1000 ms; no cookie "theme" is set for ${server.url}/todo-app.html; cookies set: none`,
    );
    expect((await red("todo-app.html", ['rules: Click "Save preferences"', 'assert: session storage "draft" does not exist within 1s'])).detail).toBe(
      'expected session storage to hold nothing under "draft" within 1000 ms; session storage holds "half a thought" under "draft"',
    );
    expect((await red("todo-app.html", ["rules: Go back"])).detail).toBe("there is no earlier page to go back to in this flow's history");
  });
});

describe("bounds", () => {
  test("a bound no timer can hold is refused when the flow loads, at its place; exit 2", async () => {
    const spec = project.write("bound.flow.yaml", flowYaml("Bound", `${server.url}/todo-app.html`, ["rules: Wait until page shows Finished within 2200000s"]));
    const r = await runCli(["validate", spec], { cwd: project.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("bound.flow.yaml:5:");
    expect(r.stderr).toContain("`within 2200000s` is longer than the longest bound flowproof can wait, 86400 s (24 h).");
  });
});
