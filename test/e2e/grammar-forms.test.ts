// Every rules-grammar form this version runs, recorded and then replayed in real Chromium
// against a local fixture page; each trace and result is validated against schema/.
import { describe, expect, test } from "bun:test";
import { flowYaml } from "../support/tmp-project.ts";
import { webE2e } from "../support/e2e.ts";
import { record } from "../../src/commands/record.ts";
import { run } from "../../src/commands/run.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";

const { server, project } = await webE2e();

interface Case {
  readonly name: string;
  readonly page: string;
  readonly steps: readonly string[];
  readonly env?: Record<string, string>;
}

const CASES: readonly Case[] = [
  {
    name: "fills fields found by label, wrapping label, aria-label and placeholder; presses an input-submit by value",
    page: "form.html",
    steps: [
      'rules: Type Ada into the "Full name" field',
      'rules: Type ada@example.com into the "Email" field',
      'rules: Type s3cret-value into the "Password" field',
      'rules: Select Administrator from the "Role" dropdown',
      'rules: Check the "Remember me" checkbox',
      'assert: the "Remember me" checkbox is checked',
      'rules: Uncheck the "Remember me" checkbox',
      'assert: the "Remember me" checkbox is not checked',
      'rules: Check the "Remember me" checkbox',
      'rules: Press the "Login" button',
      "assert: page shows Saved Ada (admin) remember=yes",
      'assert: the "Full name" field contains Ada',
      'assert: the "Archive" button is disabled',
      'assert: the "Login" is enabled',
    ],
  },
  {
    name: "selects an option by its value and a field by its bare id",
    page: "form.html",
    steps: [
      'rules: Select editor from the "Role" field',
      "rules: Type bare@example.com into the email field",
      'assert: the "Role" dropdown shows Editor',
      "assert: the email field contains bare@",
    ],
  },
  {
    name: "matches anchors exact first, then by prefix, then case-insensitively; css: and ordinals",
    page: "anchors.html",
    steps: [
      'rules: Click "Database"',
      'assert: the "id:out" shows clicked Database',
      'rules: Click "Create"',
      'assert: the "id:out" shows clicked Create template',
      'rules: Click "Close Account"',
      'assert: the "id:out" shows clicked Close account',
      'rules: Click "Search"',
      'assert: the "id:out" shows clicked Search',
      "rules: Click \"css:[data-test='icon-only']\"",
      'assert: the "id:out" shows clicked icon-only',
      'rules: Type second into the 2nd "Row value" field',
      'assert: the "id:row-value-2" field contains second',
      'assert: the "id:row-value-1" is empty',
      'rules: Type Customers into the "Template name" field',
      'assert: the "Template name" field contains Customers',
    ],
  },
  {
    name: "types into the focused element and appends",
    page: "anchors.html",
    steps: ["rules: Type typed-into-focus", 'assert: the "id:focus-target" field contains typed-into-focus'],
  },
  {
    name: "fills, appends, replaces and clears",
    page: "greeter.html",
    steps: [
      'rules: Type Ada into the "Your name" field',
      "rules: Type !",
      'assert: the "Your name" field contains Ada!',
      'rules: Replace the "Your name" field with Grace',
      'assert: the "Your name" field contains Grace',
      'rules: Press the "Greet" button',
      "assert: page shows Hello, Grace!",
      'rules: Clear the "Your name" field',
      'assert: the "Your name" field is empty',
    ],
  },
  {
    name: "presses named keys and chords, including the portable Mod",
    page: "keys.html",
    steps: [
      "rules: Press Control+V",
      "rules: Press Enter",
      "rules: Press Alt+Shift+Backspace",
      'assert: the "id:log" shows Control+v',
      'assert: the "id:log" shows Enter',
      'assert: the "Command palette" is not visible',
      "rules: Press Mod+K",
      "assert: page shows Palette open",
      'assert: the "Command palette" is visible',
    ],
  },
  {
    name: "double-clicks, right-clicks, clicks at a point and hovers to reveal a menu",
    page: "pointer.html",
    steps: [
      'rules: Double-click "Open twice"',
      'assert: the "id:log" shows double clicked',
      'rules: Right-click "Row actions"',
      'assert: the "id:log" shows context menu',
      'rules: Click "Pad" at 75%,25%',
      'assert: the "id:log" shows pad at 75%,25%',
      'rules: Hover over "Menu"',
      'rules: Click "Reports"',
      'assert: the "id:log" shows opened Reports',
    ],
  },
  {
    name: "navigates, follows links and reloads",
    page: "nav.html",
    steps: [
      'assert: the "id:loads" shows 1',
      'rules: Click "Go to page 2"',
      "assert: page shows Second page",
      "assert: page url contains page2",
      "assert: page url is /page2.html",
      "rules: Go to /nav.html",
      'assert: the "id:loads" shows 2',
      "rules: Reload the page",
      'assert: the "id:loads" shows 3',
      "rules: Navigate to page2.html",
      "assert: page title contains Second",
    ],
  },
  {
    name: "waits for late text, remembers a live value and types it back",
    page: "async.html",
    steps: [
      'rules: Press the "Generate" button',
      "rules: Wait until page shows Generation complete within 5s",
      'rules: Remember the "id:order" as order',
      'rules: Type ${captured.order} into the "Order id" field',
      'rules: Press the "Confirm" button',
      'assert: the "id:confirm" shows Confirmed ${captured.order}',
      'assert: the "id:confirm" shows ${captured.order}',
    ],
  },
  {
    name: "compares a number with a remembered one plus an offset, and counts elements",
    page: "counter.html",
    steps: [
      'rules: Remember the "id:count" as before',
      'rules: Press the "Add" button',
      'assert: the "id:count" shows ${captured.before} + 1',
      'rules: Press the "Add" button',
      'assert: the "id:count" shows ${captured.before} + 2 within 2s',
    ],
  },
  {
    name: "checks text counts, visibility, emptiness, element counts, title and url",
    page: "assertions.html",
    steps: [
      "assert: page shows row 3 times",
      "assert: page does not show Disconnected",
      "assert: page title is Orders - Acme Admin",
      "assert: page title contains Acme",
      "assert: page url is /assertions.html",
      'rules: Press the "Copy" button',
      'assert: the "css:#toast" shows Copied within 10s',
      'assert: the "css:#conn-row" is visible',
      'rules: Press the "Disconnect" button',
      'assert: the "css:#conn-row" is not visible within 5s',
      "assert: the searchBox field contains prefilled",
      'assert: the "id:balance" is empty',
      'assert: the "id:searchBox" is not empty',
      'assert: the "css:li.row" appears 3 times',
      'assert: the "css:.gone" appears 0 times',
      'assert: the "css:form input" appears 1 time',
      'assert: the "id:inner" is not visible',
      'rules: Remember how many "css:li.row" appear as rows',
    ],
  },
  {
    name: "waits for a disabled button to become enabled, an overlay to leave, and scrolls below the fold",
    page: "late-enable.html",
    steps: [
      'rules: Click "Start"',
      'rules: Click "Continue"',
      "assert: page shows Continued",
      "rules: Go to /overlay.html",
      'rules: Click "Buy"',
      "assert: page shows Bought",
      "rules: Go to /below-fold.html",
      'rules: Click "Far away"',
      "assert: page shows Far clicked",
    ],
  },
];

describe("rules grammar forms in real Chromium", () => {
  test.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const file = `${c.page.replace(".html", "")}-${CASES.indexOf(c)}.flow.yaml`;
    const spec = project.write(file, flowYaml(c.name, `${server.url}/${c.page}`, c.steps));
    // Frames are the recording tests' business: none here, so each case costs its steps alone.
    const recorded = await record({ spec, author: "rules", recordingDetail: "off", ...(c.env ? { env: { ...process.env, ...c.env } } : {}) });
    const failure = recorded.step_results.find((r) => r.status !== "passed");
    expect(failure?.detail ?? recorded.error).toBeUndefined();
    expect(recorded.ok).toBe(true);
    expect(recorded.trace_path).not.toBeNull();
    expectValidTrace(recorded.trace_path!);

    const replay = await run({ spec, recordingDetail: "off", ...(c.env ? { env: { ...process.env, ...c.env } } : {}) });
    expect(replay.report.steps.filter((s) => s.status !== "passed")).toEqual([]);
    expect(replay.report.passed).toBe(true);
    expect(replay.report.steps.length).toBe(c.steps.length);
    expectValidResult(replay.report_path);
  });
});
