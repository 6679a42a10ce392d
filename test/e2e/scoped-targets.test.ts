// Scoped targets (table cells, item and css:/id: containers, same-origin iframes) and Scroll,
// recorded and then replayed in real Chromium against local fixture pages; each trace and result
// is validated against schema/. Red paths prove each assertion and each hard error can fail.
// Recording detail is off: frames are the recording tests' business, and each frame costs CPU.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { record } from "../../src/commands/record.ts";
import { run } from "../../src/commands/run.ts";
import { expectValidResult, expectValidTrace } from "../support/schemas.ts";
import { readTrace } from "../support/trace.ts";

let server: TestServer;
let project: TmpProject;

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  project = tmpProject();
  // The same server under another host name is another origin.
  const other = server.url.replace("127.0.0.1", "localhost");
  server.setRoute(
    "/cross-origin.html",
    () =>
      new Response(`<!doctype html><title>Cross</title><iframe title="elsewhere" src="${other}/frames.html"></iframe>`, {
        headers: { "content-type": "text/html; charset=utf-8" },
      }),
  );
});
afterAll(() => {
  server.stop();
  project.remove();
});

interface Case {
  readonly name: string;
  readonly page: string;
  readonly steps: readonly string[];
}

const GREEN: readonly Case[] = [
  {
    name: "reads, asserts and acts on table cells by column header and row anchor",
    page: "grid.html",
    steps: [
      'assert: the "Status" column of the row containing "Grace Hopper" shows Suspended',
      'assert: the "Balance" column of the row containing "Grace Hopper" is empty',
      'assert: the "Balance" column of the row containing "Ada Lovelace" is not empty',
      'assert: the "Status" column of the row containing "Ada Lovelace" shows Active',
      'assert: the "Status" column in the row containing "Alan Turing" shows Active',
      'assert: the "Email" column of the row containing "John" and "Doe" shows john.doe@example.com',
      'assert: the "Email" column of the row containing "John" and "Smith" shows john.smith@example.com',
      'assert: the "Status" column of the row containing "Grace Hopper" is visible',
      'assert: the "Note" column of the row containing "Grace Hopper" is disabled',
      'assert: the "Note" column of the row containing "Ada Lovelace" is enabled',
      'assert: the "Select" column of the row containing "Ada Lovelace" checkbox is not checked',
      'rules: Check the "Select" column of the row containing "Ada Lovelace"',
      'assert: the "Select" column of the row containing "Ada Lovelace" checkbox is checked',
      'rules: Uncheck the "Select" column of the row containing "Ada Lovelace"',
      'assert: the "Select" column of the row containing "Ada Lovelace" checkbox is not checked',
      'rules: Type reviewed into the "Note" column of the row containing "Alan Turing"',
      'assert: the "Note" column of the row containing "Alan Turing" field contains reviewed',
      'rules: Replace the "Note" column of the row containing "Alan Turing" with checked twice',
      'assert: the "Note" column of the row containing "Alan Turing" field contains checked twice',
      'rules: Clear the "Note" column of the row containing "Alan Turing"',
      'assert: the "Note" column of the row containing "Alan Turing" is empty',
      'rules: Select Approved from the "Value" column of the row containing "Grace Hopper"',
      "assert: page shows Grace Hopper set to Approved",
      'rules: Click the "Edit" in the item containing "Alan Turing"',
      "assert: page shows editing Alan Turing",
      'rules: Remember the "Balance" column of the row containing "Alan Turing" as balance',
      'assert: the "Balance" column of the row containing "Alan Turing" shows ${captured.balance}',
      'rules: Double-click the "Name" column of the row containing "Ada Lovelace"',
      "assert: page shows opened Ada Lovelace",
      'rules: Right-click the "Status" column of the row containing "Alan Turing"',
      "assert: page shows menu for Alan Turing",
      'rules: Hover over the "Edit" in the item containing "Grace Hopper"',
      'rules: Scroll the "Status" column of the row containing "Alan Turing" into view',
      'assert: the "Thursday" column of the row containing "11:00 - 13:00" shows THU-B',
      'assert: the "Monday" column of the row containing "09:00 - 11:00" shows MON-A',
    ],
  },
  {
    name: "keeps a row's identity when a row is inserted before it",
    page: "grid.html",
    steps: [
      'assert: the "Status" column of the row containing "Grace Hopper" shows Suspended',
      'rules: Press the "Insert a row" button',
      "assert: page shows Barbara Liskov",
      'assert: the "Status" column of the row containing "Grace Hopper" shows Suspended',
      'assert: the "Status" column of the row containing "Barbara Liskov" shows Pending',
      'rules: Click the "Suspend" in the item containing "Alan Turing"',
      'assert: the "Status" column of the row containing "Alan Turing" shows Suspended',
    ],
  },
  {
    name: "addresses list items, the innermost item in nested groups, and the inside synonym",
    page: "list.html",
    steps: [
      'assert: the "css:.amount" in the item containing "Invoice 4711" shows 50.00',
      'assert: the "css:.amount" inside the item containing "Invoice 4712" shows 75.00',
      'assert: the "Amount" field in the item containing "Invoice 4711" contains 50',
      'assert: the "Select" checkbox in the item containing "Invoice 4711" is not checked',
      'rules: Check the "Select" checkbox in the item containing "Invoice 4711"',
      'assert: the "Select" checkbox in the item containing "Invoice 4711" is checked',
      'assert: the "Select" checkbox in the item containing "Invoice 4712" is not checked',
      'rules: Click the "Pay" in the item containing "Invoice 4711"',
      'assert: the "css:.state" in the item containing "Invoice 4711" shows Paid',
      'assert: the "css:.state" in the item containing "Invoice 4712" shows Unpaid within 2s',
      'rules: Press the "Pay" button in the item containing "Invoice 4791"',
      'assert: the "css:.state" in the item containing "Invoice 4791" shows Paid',
      'assert: the "css:.state" in the item containing "Invoice 4790" shows Unpaid',
      'assert: the "css:.amount" in the item containing "Invoice 4790" shows 12.00',
      'rules: Type 60.00 into the "Amount" field in the item containing "Invoice 4712"',
      'assert: the "Amount" field in the item containing "Invoice 4712" contains 60.00',
      'rules: Remember the "css:.amount" in the item containing "Invoice 4790" as small',
      'assert: the "css:.amount" in the item containing "Invoice 4790" shows ${captured.small}',
      'assert: the "css:.amount" in the "id:panel" containing "Panel" shows 99.00',
    ],
  },
  {
    name: "scopes to an explicit css: container for markup without list semantics",
    page: "cards.html",
    steps: [
      'assert: the "css:.amount" in the "css:.card" containing "Order 8801" shows 120.00',
      'assert: the "css:.amount" in the "css:.card" containing "Order 8802" shows 80.00',
      'rules: Click the "Ship" in the "css:.card" containing "Order 8801"',
      'assert: the "css:.state" in the "css:.card" containing "Order 8801" shows Shipped',
      'assert: the "css:.state" in the "css:.card" containing "Order 8802" shows Open',
    ],
  },
  {
    name: "reads and drives values inside same-origin iframes, fenced from the page",
    page: "frames.html",
    steps: [
      'assert: the "css:#total" shows Total 10.00',
      'assert: the "css:#total" in the iframe "checkout" shows Total 42.00',
      'assert: the "css:#total" inside the iframe "css:iframe[title=checkout]" shows 42.00',
      'assert: the "css:.status" in the iframe "checkout" shows Card accepted',
      'assert: the "css:.status" in the iframe "receipt" shows Receipt pending',
      'assert: the "css:input[name=coupon]" field in the iframe "checkout" contains SAVE20',
      'assert: the "Coupon" field in the iframe "pay" contains SAVE20',
      'rules: Type Ada Lovelace into the "Card holder" field in the iframe "checkout"',
      'assert: the "css:#echo" in the iframe "checkout" shows holder Ada Lovelace',
      'assert: the "Card holder" field in the iframe "checkout" contains Ada Lovelace',
      'rules: Replace the "Coupon" field in the iframe "checkout" with WINTER',
      'assert: the "Coupon" field in the iframe "checkout" contains WINTER',
      'rules: Clear the "Coupon" field in the iframe "checkout"',
      'assert: the "Coupon" field in the iframe "checkout" is empty',
      'rules: Check the "Accept terms" checkbox in the iframe "checkout"',
      'assert: the "Accept terms" checkbox in the iframe "checkout" is checked',
      'rules: Uncheck the "Accept terms" checkbox in the iframe "checkout"',
      'assert: the "Accept terms" checkbox in the iframe "checkout" is not checked',
      'rules: Remember the "css:#total" in the iframe "checkout" as total',
      'assert: the "css:#total" in the iframe "checkout" shows ${captured.total}',
      'assert: the "id:off" in the iframe "checkout" is disabled',
      'assert: the "css:#missing" in the iframe "checkout" is not visible',
      'rules: Scroll the "css:#log-box" in the iframe "checkout" to 40px',
      'rules: Scroll the "css:#log-box" in the iframe "checkout" to the bottom',
    ],
  },
  {
    name: "composes attribute, style, computed and visibility predicates with cells, items, containers and frames",
    page: "grid.html",
    steps: [
      'assert: the "Status" column of the row containing "Grace Hopper" attribute data-state is suspended',
      'assert: the "Status" column of the row containing "Grace Hopper" has attribute data-state',
      'assert: the "Status" column of the row containing "Ada Lovelace" does not have attribute data-state',
      'assert: the "Status" column of the row containing "Grace Hopper" style color is crimson',
      'assert: the "Status" column of the row containing "Ada Lovelace" style color is not crimson',
      'rules: Remember the "Balance" column of the row containing "John Doe" as doe',
      'assert: the "Balance" column of the row containing "John Smith" shows ${captured.doe} + 2',
      'assert: the "Suspend" in the item containing "Grace Hopper" is disabled',
      'assert: the "Suspend" in the item containing "Ada Lovelace" is enabled',
      'assert: the "css:.status-suspended" in the item containing "Grace Hopper" is visible',
      'assert: the "css:.status-suspended" in the item containing "Ada Lovelace" is not visible',
      'assert: the "css:.column-email" in the "id:accounts" containing "Alan Turing" is not empty',
      "rules: Go to /frames.html",
      'assert: the "css:.status" in the iframe "checkout" is visible',
      'assert: the "Coupon" field in the iframe "checkout" is enabled',
      'assert: the "css:#holder" in the iframe "checkout" is empty',
      'assert: the "css:input[name=coupon]" in the iframe "checkout" attribute name is coupon',
    ],
  },
  {
    name: "names an unlabelled control by its role alone inside an item, an ordinal picking among several",
    page: "todo-toggles.html",
    steps: [
      'rules: Check the checkbox in the item containing "Buy milk"',
      'assert: the "css:#out" shows exactly Buy milk/toggle',
      'assert: the checkbox in the item containing "Buy milk" is checked',
      'assert: the checkbox in the item containing "Walk the dog" is not checked',
      'rules: Check the 2nd checkbox in the item containing "Pay rent"',
      'assert: the "css:#out" shows exactly Buy milk/toggle, Pay rent/urgent',
      'rules: Uncheck the checkbox in the "css:.todo-list li" containing "Buy milk"',
      'rules: Click the button in the item containing "Walk the dog"',
      'assert: the "css:.todo-list li" appears twice',
      "assert: page shows Walk the dog 0 times",
      "rules: Refresh the page",
      'assert: the "css:.todo-list li" appears 3 times',
      "assert: page shows Pay rent once",
    ],
  },
  {
    name: "scrolls the page, a container to its edges and to an exact offset, and an element into view",
    page: "scroll.html",
    steps: [
      'rules: Scroll the "css:#list" to the bottom',
      'assert: the "css:#scroll-log" shows list at 480',
      'rules: Scroll the "css:#list" to 147px',
      'assert: the "css:#scroll-log" shows list at 147',
      'rules: Scroll the "css:#list" to the top',
      'assert: the "css:#scroll-log" shows list at 0',
      'rules: Scroll "css:#last" into view',
      'assert: the "css:#last" is visible',
      "rules: Scroll to the top",
      'assert: the "css:#scroll-log" shows page at 0',
      "rules: Scroll to the bottom",
      'rules: Scroll "Row 20" into view',
      'assert: the "css:#scroll-log" shows list at 480',
    ],
  },
];

const flowFor = (c: Case, suffix: string) =>
  project.write(`${c.page.replace(".html", "")}-${suffix}.flow.yaml`, flowYaml(c.name, `${server.url}/${c.page}`, c.steps));

describe("scoped targets and Scroll in real Chromium", () => {
  test.each(GREEN.map((c, i) => [c.name, c, i] as const))("%s", async (_name, c, i) => {
    const spec = flowFor(c, String(i));
    const recorded = await record({ spec, author: "rules", recordingDetail: "off" });
    const failure = recorded.step_results.find((r) => r.status !== "passed");
    expect(failure?.detail ?? recorded.error).toBeUndefined();
    expect(recorded.ok).toBe(true);
    expectValidTrace(recorded.trace_path!);

    const replay = await run({ spec, recordingDetail: "off" });
    expect(replay.report.steps.filter((s) => s.status !== "passed")).toEqual([]);
    expect(replay.report.passed).toBe(true);
    expect(replay.report.steps.length).toBe(c.steps.length);
    expectValidResult(replay.report_path);
  });

  test("replays a row by identity after a row is inserted before it in the served page", async () => {
    const original = readFileSync(new URL("../fixtures/pages/grid.html", import.meta.url), "utf8");
    let html = original;
    server.setRoute("/grid-live.html", () => new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } }));
    const c: Case = {
      name: "identity survives an inserted row",
      page: "grid-live.html",
      steps: [
        'assert: the "Status" column of the row containing "Grace Hopper" shows Suspended',
        'assert: the "Balance" column of the row containing "Alan Turing" shows 310.50',
        'rules: Click the "Edit" in the item containing "Grace Hopper"',
        "assert: page shows editing Grace Hopper",
      ],
    };
    const spec = flowFor(c, "live");
    const recorded = await record({ spec, author: "rules", recordingDetail: "off" });
    expect(recorded.step_results.find((r) => r.status !== "passed")?.detail).toBeUndefined();
    html = original.replace(
      '<tbody id="rows">',
      '<tbody id="rows">\n<tr id="row-099"><td></td><td class="column-name">Edsger Dijkstra</td><td>edsger@example.com</td><td class="column-status">Active</td><td>1.00</td><td></td><td></td><td><button class="edit">Edit</button></td></tr>',
    );
    const replay = await run({ spec, recordingDetail: "off" });
    expect(replay.report.steps.filter((s) => s.status !== "passed")).toEqual([]);
    expect(replay.report.passed).toBe(true);
  });

  test("records one structural rung per scoped target and the scroll action's params", async () => {
    const c: Case = {
      name: "trace shapes",
      page: "scroll.html",
      steps: ['rules: Scroll the "css:#list" to 30px', "rules: Scroll to the bottom", 'rules: Scroll "css:#last" into view'],
    };
    const recorded = await record({ spec: flowFor(c, "shapes"), author: "rules", recordingDetail: "off" });
    expect(recorded.ok).toBe(true);
    const steps = readTrace<unknown, { action: unknown; selectors: unknown[] }>(recorded.trace_path!).steps;
    expect(steps.map((s) => s.action)).toEqual([
      { type: "scroll", params: { to_px: 30 } },
      { type: "scroll", params: { to: "bottom" } },
      { type: "scroll", params: { into_view: true } },
    ]);
    expect(steps.map((s) => s.selectors.length)).toEqual([1, 0, 1]);
  });
});

interface Red {
  readonly name: string;
  readonly page: string;
  /** Steps before the failing one must pass; the last step must fail. */
  readonly steps: readonly string[];
  readonly detail: readonly (string | RegExp)[];
  /** A hard error stops at once rather than waiting out the (here 20 s) bound. */
  readonly hard?: true;
}

const RED: readonly Red[] = [
  {
    name: "a cell shows the wrong text",
    page: "grid.html",
    steps: ['assert: the "Status" column of the row containing "Grace Hopper" shows Active within 1s'],
    detail: ['expected the "Status" column of the row containing "Grace Hopper" to show "Active"', '"Suspended"'],
  },
  {
    name: "a cell's attribute differs",
    page: "grid.html",
    steps: ['assert: the "Status" column of the row containing "Grace Hopper" attribute data-state is active within 1s'],
    detail: ["suspended"],
  },
  {
    name: "a cell's colour differs",
    page: "grid.html",
    steps: ['assert: the "Status" column of the row containing "Ada Lovelace" style color is crimson within 1s'],
    detail: ["color is"],
  },
  {
    name: "a non-empty cell is not empty",
    page: "grid.html",
    steps: ['assert: the "Balance" column of the row containing "Ada Lovelace" is empty within 1s'],
    detail: ["to be empty", "1,200.00"],
  },
  {
    name: "an empty cell is not non-empty",
    page: "grid.html",
    steps: ['assert: the "Balance" column of the row containing "Grace Hopper" is not empty within 1s'],
    detail: ["to be not empty"],
  },
  {
    name: "a missing row never appears",
    page: "grid.html",
    steps: ['assert: the "Status" column of the row containing "Nobody Here" is visible within 1s'],
    detail: ['no row contains "Nobody Here"'],
  },
  {
    name: "a present cell is visible",
    page: "grid.html",
    steps: ['assert: the "Status" column of the row containing "Ada Lovelace" is not visible within 1s'],
    detail: ["to be not visible"],
  },
  {
    name: "a disabled cell field is not enabled",
    page: "grid.html",
    steps: ['assert: the "Note" column of the row containing "Grace Hopper" is enabled within 1s'],
    detail: ["to be enabled", "disabled"],
  },
  {
    name: "an enabled cell field is not disabled",
    page: "grid.html",
    steps: ['assert: the "Note" column of the row containing "Ada Lovelace" is disabled within 1s'],
    detail: ["to be disabled", "enabled"],
  },
  {
    name: "an unchecked checkbox in an item is not checked",
    page: "list.html",
    steps: ['assert: the "Select" checkbox in the item containing "Invoice 4711" is checked within 1s'],
    detail: ["to be checked", "not checked"],
  },
  {
    name: "a checked checkbox in an item is checked",
    page: "list.html",
    steps: [
      'rules: Check the "Select" checkbox in the item containing "Invoice 4712"',
      'assert: the "Select" checkbox in the item containing "Invoice 4712" is not checked within 1s',
    ],
    detail: ["to be not checked"],
  },
  {
    name: "a field in an item holds another value",
    page: "list.html",
    steps: ['assert: the "Amount" field in the item containing "Invoice 4711" contains 75 within 1s'],
    detail: ['to show "75"', '"50.00"'],
  },
  {
    name: "a card's state is not what was asserted",
    page: "cards.html",
    steps: ['assert: the "css:.state" in the "css:.card" containing "Order 8802" shows Shipped within 1s'],
    detail: ['"Open"'],
  },
  {
    name: "the frame fence: the page's #total is not the frame's",
    page: "frames.html",
    steps: ['assert: the "css:#total" in the iframe "receipt" shows 42.00 within 1s'],
    detail: ['the "css:#total" in the iframe "receipt"', "never appeared"],
  },
  { name: "the page is not the frame", page: "frames.html", steps: ['assert: the "css:#total" shows 42.00 within 1s'], detail: ['"Total 10.00"'] },
  {
    name: "a missing frame lists the frames present",
    page: "frames.html",
    steps: ['assert: the "css:#total" in the iframe "invoice" shows 42 within 1s'],
    detail: ['no iframe "invoice" on the page; frames present: title="checkout", title="receipt"'],
  },
  {
    name: "a framed read differs",
    page: "frames.html",
    steps: ['assert: the "css:.status" in the iframe "checkout" shows Declined within 1s'],
    detail: ['"Card accepted"'],
  },
  {
    name: "a framed field value differs",
    page: "frames.html",
    steps: ['assert: the "Coupon" field in the iframe "checkout" contains WINTER within 1s'],
    detail: ['"SAVE20"'],
  },
  {
    name: "a rewritten framed value fails Type",
    page: "frames.html",
    steps: ['rules: Type quiet into the "Upper" field in the iframe "checkout"'],
    detail: ["did not keep the value: the page rewrote it"],
    hard: true,
  },
  {
    name: "a read-only framed field refuses Type",
    page: "frames.html",
    steps: ['rules: Type x into the "Locked" field in the iframe "checkout"'],
    detail: ["is read-only"],
    hard: true,
  },
  {
    name: "a disabled framed field refuses Type",
    page: "frames.html",
    steps: ['rules: Type x into the "Off" field in the iframe "checkout"'],
    detail: ["is disabled"],
  },
  {
    name: "an anchor in several rows is ambiguous",
    page: "grid.html",
    steps: ['assert: the "Email" column of the row containing "John" shows example within 20s'],
    detail: ['"John" is in 2 rows', "css:"],
    hard: true,
  },
  {
    name: "a duplicate column header is an error",
    page: "grid.html",
    steps: ['assert: the "Total" column of the row containing "Q1" shows 10 within 20s'],
    detail: ['2 columns headed "Total"', "css:"],
    hard: true,
  },
  {
    name: "an anchor in every item is ambiguous",
    page: "list.html",
    steps: ['rules: Click the "Pay" in the item containing "Invoice"'],
    detail: ['"Invoice" is in', "items", "css:"],
    hard: true,
  },
  {
    name: "an anchor outside every item points at a css: container",
    page: "list.html",
    steps: ['assert: the "css:.amount" in the item containing "Invoice 9000" shows 1 within 20s'],
    detail: ["in no list item", '"css:'],
    hard: true,
  },
  {
    name: "a container stops short of the offset",
    page: "scroll.html",
    steps: ['rules: Scroll the "css:#list" to 5000px'],
    detail: ["short of 5000 px", "at most 480 px"],
    hard: true,
  },
  {
    name: "a cross-origin frame is an error",
    page: "cross-origin.html",
    steps: ['assert: the "css:#total" in the iframe "elsewhere" shows 42 within 20s'],
    detail: ["cross-origin", "same-origin frames only"],
    hard: true,
  },
  {
    name: "a role noun alone is ambiguous in an item holding two of that role",
    page: "todo-toggles.html",
    steps: ['rules: Check the checkbox in the item containing "Pay rent"'],
    detail: ['<li> "Pay rent" holds 2 checkboxes: 1st <input>, 2nd <input>', 'the 2nd checkbox in the item containing "Pay rent"'],
    hard: true,
  },
  {
    name: "an item without a control of that role says so",
    page: "todo-toggles.html",
    steps: ['assert: the field in the item containing "Buy milk" is visible within 1s'],
    detail: ['<li> "Buy milk" has no field'],
  },
  {
    name: "a container whose content fits cannot scroll to an offset",
    page: "scroll.html",
    steps: ['rules: Scroll the "css:#short" to 10px'],
    detail: ["does not scroll: its content fits"],
    hard: true,
  },
];

describe("scoped targets fail when they should", () => {
  test.each(RED.map((c, i) => [c.name, c, i] as const))("%s", async (_name, c, i) => {
    const spec = project.write(`red-${i}.flow.yaml`, flowYaml(c.name, `${server.url}/${c.page}`, c.steps));
    const t0 = performance.now();
    const recorded = await record({
      spec,
      author: "rules",
      recordingDetail: "off",
      ...(c.hard ? { env: { ...process.env, FLOWPROOF_STEP_TIMEOUT_MS: "20000" } } : {}),
    });
    const ms = performance.now() - t0;
    expect(recorded.ok).toBe(false);
    const results = recorded.step_results;
    expect(results.slice(0, -1).every((r) => r.status === "passed")).toBe(true);
    const last = results[results.length - 1];
    expect(last?.status).toBe("failed");
    for (const d of c.detail) {
      if (typeof d === "string") expect(last?.detail).toContain(d);
      else expect(last?.detail).toMatch(d);
    }
    if (c.hard) expect(ms).toBeLessThan(15_000);
  });
});
