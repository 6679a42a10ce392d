import { at } from "../../test/support/surfaces.ts";
import { describe, expect, test } from "bun:test";
import { parseAction } from "./action.ts";
import type { ActionStep, Template } from "./ast.ts";

const slice = (text: string) => ({ text, offset: 0 });
const text = (t: string) => ({ kind: "text", text: t }) as const;
const el = (t: string) => ({ kind: "element", anchor: text(t) }) as const;
const lit = (raw: string): Template => ({ raw, parts: [{ kind: "literal", text: raw }] });
const item = (inner: string, role?: "field" | "checkbox") =>
  ({ kind: "scoped", container: { kind: "item" }, anchors: ["Invoice 4711"], inner: text(inner), ...(role === undefined ? {} : { role }) }) as const;
const cell = (column: string) => ({ kind: "cell", column, rowAnchors: ["Grace Hopper"] }) as const;

describe("value verbs", () => {
  test.each<[string, string, ActionStep]>([
    ["web", 'Type Ada into the "Full name" field', { kind: "type", text: lit("Ada"), target: { ...el("Full name"), role: "field" } }],
    ["web", 'Type email into the 2nd "Field Name" field', { kind: "type", text: lit("email"), target: { ...el("Field Name"), nth: 2, role: "field" } }],
    [
      "web",
      "Type Ada into the name field",
      { kind: "type", text: lit("Ada"), target: { kind: "element", anchor: { kind: "id", id: "name", bare: true }, role: "field" } },
    ],
    ["web", "Type Berlin", { kind: "type", text: lit("Berlin") }],
    ["web", "Type hello, world", { kind: "type", text: lit("hello, world") }],
    ["notepad", "Type see you into the future", { kind: "type", text: lit("see you into the future") }],
    ["web", 'Type put into the box into the "X" field', { kind: "type", text: lit("put into the box"), target: { ...el("X"), role: "field" } }],
    ["web", 'Type 5" screen into the "Name" field', { kind: "type", text: lit('5" screen'), target: { ...el("Name"), role: "field" } }],
    ["web", 'Type He said "hi" into the "Note" field', { kind: "type", text: lit('He said "hi"'), target: { ...el("Note"), role: "field" } }],
    ["web", 'Type put "a" into "b" into the "Name" field', { kind: "type", text: lit('put "a" into "b"'), target: { ...el("Name"), role: "field" } }],
    ["web", 'Type 5" into "Size"', { kind: "type", text: lit('5"'), target: el("Size") }],
    [
      "web",
      'Type " padded " into the "Name" field',
      { kind: "type", text: { raw: " padded ", parts: [{ kind: "literal", text: " padded " }] }, target: { ...el("Name"), role: "field" } },
    ],
    ["web", 'Type ""quoted"" into the "Name" field', { kind: "type", text: lit('"quoted"'), target: { ...el("Name"), role: "field" } }],
    ["web", 'Type "  two leading"', { kind: "type", text: { raw: "  two leading", parts: [{ kind: "literal", text: "  two leading" }] } }],
    ["web", 'Type 5" screen', { kind: "type", text: lit('5" screen') }],
    [
      "web",
      'Replace the "Name" field with " spaced "',
      { kind: "replace", target: { ...el("Name"), role: "field" }, text: { raw: " spaced ", parts: [{ kind: "literal", text: " spaced " }] } },
    ],
    ["web", 'Replace the "Size" field with 5" screen', { kind: "replace", target: { ...el("Size"), role: "field" }, text: lit('5" screen') }],
    ["web", 'Select 5" screen from the "Size" dropdown', { kind: "select", target: { ...el("Size"), role: "dropdown" }, options: ['5" screen'], multi: false }],
    [
      "web",
      'Select Flights from Berlin from the "Route" dropdown',
      { kind: "select", target: { ...el("Route"), role: "dropdown" }, options: ["Flights from Berlin"], multi: false },
    ],
    [
      "web",
      'Select Approved from the "Status" field in the item containing "Invoice 4711"',
      { kind: "select", target: item("Status", "field"), options: ["Approved"], multi: false },
    ],
    ["web", 'Upload "a "b".png" into the "Avatar" field', { kind: "upload", target: { ...el("Avatar"), role: "field" }, path: 'a "b".png' }],
    [
      "web",
      'Type Ada into the "Coupon" in the iframe "checkout"',
      { kind: "type", text: lit("Ada"), target: { kind: "framed", frame: { kind: "text", text: "checkout" }, inner: text("Coupon") } },
    ],
    ["web", 'Type Paid into the "Status" column of the row containing "Grace Hopper"', { kind: "type", text: lit("Paid"), target: cell("Status") }],
    ["web", 'Type 50 into the "Amount" field in the item containing "Invoice 4711"', { kind: "type", text: lit("50"), target: item("Amount", "field") }],
    [
      "web",
      'Type order-${captured.oid} into the "Ref" field',
      {
        kind: "type",
        text: {
          raw: "order-${captured.oid}",
          parts: [
            { kind: "literal", text: "order-" },
            { kind: "captured", name: "oid" },
          ],
        },
        target: { ...el("Ref"), role: "field" },
      },
    ],
    [
      "web",
      'Type ${captured.a} + ${captured.b} into the "Sum" field',
      {
        kind: "type",
        text: {
          raw: "${captured.a} + ${captured.b}",
          parts: [
            { kind: "captured", name: "a" },
            { kind: "literal", text: " + " },
            { kind: "captured", name: "b" },
          ],
        },
        target: { ...el("Sum"), role: "field" },
      },
    ],
    [
      "windows",
      "Type 5 into the id:15 field",
      { kind: "type", text: lit("5"), target: { kind: "element", anchor: { kind: "id", id: "15", bare: true }, role: "field" } },
    ],
    ["web", 'Replace the "Search" field with Berlin', { kind: "replace", target: { ...el("Search"), role: "field" }, text: lit("Berlin") }],
    [
      "web",
      "Replace the taskName field with Weekly report",
      { kind: "replace", target: { kind: "element", anchor: { kind: "id", id: "taskName", bare: true }, role: "field" }, text: lit("Weekly report") },
    ],
    ["web", 'Clear the "Search" field', { kind: "clear", target: { ...el("Search"), role: "field" } }],
    ["web", 'Clear the "Balance" column of the row containing "Grace Hopper"', { kind: "clear", target: cell("Balance") }],
    ["web", 'Check the "Select" checkbox in the item containing "Invoice 4711"', { kind: "set_checked", target: item("Select", "checkbox"), checked: true }],
    ["web", 'Uncheck the "Remember me" checkbox', { kind: "set_checked", target: { ...el("Remember me"), role: "checkbox" }, checked: false }],
    ["web", 'Select Admin from the "Role" field', { kind: "select", target: { ...el("Role"), role: "field" }, options: ["Admin"], multi: false }],
    ["web", 'Select Admin in the "Role" dropdown', { kind: "select", target: { ...el("Role"), role: "dropdown" }, options: ["Admin"], multi: false }],
    ["web", 'Select Sign in from the "Action" dropdown', { kind: "select", target: { ...el("Action"), role: "dropdown" }, options: ["Sign in"], multi: false }],
    [
      "web",
      'Select "Functional testing", "GUI testing" and "End2End testing" from the "Methods" field',
      { kind: "select", target: { ...el("Methods"), role: "field" }, options: ["Functional testing", "GUI testing", "End2End testing"], multi: true },
    ],
    [
      "web",
      'Select "Rock, Paper and Scissors", "Chess" from the "Game" field',
      { kind: "select", target: { ...el("Game"), role: "field" }, options: ["Rock, Paper and Scissors", "Chess"], multi: true },
    ],
    [
      "web",
      'Select Approved from the "Value" column of the row containing "Grace Hopper"',
      { kind: "select", target: cell("Value"), options: ["Approved"], multi: false },
    ],
    ["web", 'Upload logo.png into the "Avatar" field', { kind: "upload", target: { ...el("Avatar"), role: "field" }, path: "logo.png" }],
    ["web", 'Upload "my file.png" into the "Avatar" field', { kind: "upload", target: { ...el("Avatar"), role: "field" }, path: "my file.png" }],
    ["web", "Scroll to the bottom", { kind: "scroll", to: { kind: "bottom" } }],
    ["web", "Scroll to top", { kind: "scroll", to: { kind: "top" } }],
    ["web", 'Scroll the "Transactions" to the bottom', { kind: "scroll", target: el("Transactions"), to: { kind: "bottom" } }],
    ["web", 'Scroll "Grace Hopper" into view', { kind: "scroll", target: el("Grace Hopper"), to: { kind: "into_view" } }],
    [
      "web",
      'Scroll "css:.list" to 147px',
      { kind: "scroll", target: { kind: "element", anchor: { kind: "css", selector: ".list" } }, to: { kind: "px", px: 147 } },
    ],
    ["web", 'Set cookie "theme" to dark', { kind: "set_cookie", name: "theme", value: "dark" }],
    ["web", 'Set the cookie "theme" to "light blue"', { kind: "set_cookie", name: "theme", value: "light blue" }],
    [
      "web",
      'Scroll the "css:.wide" to the right',
      { kind: "scroll", target: { kind: "element", anchor: { kind: "css", selector: ".wide" } }, to: { kind: "right" } },
    ],
    [
      "web",
      'Scroll the "css:.wide" to the left',
      { kind: "scroll", target: { kind: "element", anchor: { kind: "css", selector: ".wide" } }, to: { kind: "left" } },
    ],
    [
      "web",
      'Scroll the "css:.wide" to 120px across',
      { kind: "scroll", target: { kind: "element", anchor: { kind: "css", selector: ".wide" } }, to: { kind: "px", px: 120, axis: "x" } },
    ],
    [
      "web",
      'Scroll the "css:.list" to 50%',
      { kind: "scroll", target: { kind: "element", anchor: { kind: "css", selector: ".list" } }, to: { kind: "pct", pct: 50 } },
    ],
    [
      "web",
      'Scroll the "css:.wide" to 75% across',
      { kind: "scroll", target: { kind: "element", anchor: { kind: "css", selector: ".wide" } }, to: { kind: "pct", pct: 75, axis: "x" } },
    ],
    [
      "web",
      'Remember the "Amount" in the item containing "Invoice 4711" as amount',
      { kind: "remember", target: item("Amount"), name: "amount", count: false },
    ],
    [
      "web",
      'Remember how many "css:.order-row" appear as rows',
      { kind: "remember", target: { kind: "element", anchor: { kind: "css", selector: ".order-row" } }, name: "rows", count: true },
    ],
    ["web", 'Remember how many "Row" appears as n_2', { kind: "remember", target: el("Row"), name: "n_2", count: true }],
    ["web", "Go to /settings", { kind: "navigate", url: lit("/settings") }],
    [
      "web",
      "Navigate to ${BASE_URL}/x",
      {
        kind: "navigate",
        url: {
          raw: "${BASE_URL}/x",
          parts: [
            { kind: "env", name: "BASE_URL" },
            { kind: "literal", text: "/x" },
          ],
        },
      },
    ],
    ["sap", "Go to /nVA01", { kind: "navigate", url: lit("/nVA01") }],
    ["sap", "Go to VA01", { kind: "navigate", url: lit("/nVA01") }],
    ["web", "Reload the page", { kind: "reload" }],
    ["web", "Refresh the page", { kind: "reload" }],
    ["web", "refresh", { kind: "reload" }],
    ["web", "Wait until page shows Saved", { kind: "wait_text", text: lit("Saved") }],
    ["web", "Wait until the page shows templates found within 30s", { kind: "wait_text", text: lit("templates found"), timeoutMs: 30_000 }],
    ["web", "Wait until the download completes as pir_export", { kind: "wait_download", name: "pir_export" }],
    ["web", "Wait until the download completes as report within 90 seconds", { kind: "wait_download", name: "report", timeoutMs: 90_000 }],
  ])("reads on %s: %s", (app, input, step) => {
    expect(parseAction(slice(input), at(app))).toEqual({ ok: true, value: step });
  });

  test.each<[string, string, string, string]>([
    ["web", 'Type into the "Name" field', "unknown-step", "has no text"],
    ["web", 'Type Ada into the "Name" field in the morning', "unknown-step", "is not a scope"],
    ["web", 'Type Ada into a "Name" field', "unknown-step", "is not a target"],
    ["web", 'Type 5" screen into "Name', "unknown-step", "never closed"],
    ["web", 'Type "" into the "Name" field', "unknown-step", "no text between its quotes"],
    ["web", 'Type 50 into the 2nd "Amount" in the item containing "X"', "refused-step", "ordinal cannot address a scoped target"],
    ["web", 'Type x into the "${captured.y}" field', "bad-reference", "a capture may only be typed or compared"],
    ["web", 'Type ${date:tomorrow} into the "Due" field', "refused-step", "pin the clock"],
    ["web", "Replace Berlin", "unknown-step", '`Replace the "Search" field with Berlin`'],
    ["web", 'Replace the "Search" field Berlin', "unknown-step", "`with <text>`"],
    ["web", 'Replace the "Search" field with', "unknown-step", "has no text"],
    ["web", "Clear everything", "unknown-step", '`Clear the "Search" field`'],
    ["web", "Check the box", "unknown-step", '`Check the "Remember me" checkbox`'],
    ["web", 'Select Admin from the "Role"', "unknown-step", "`field` or `dropdown`"],
    ["web", 'Select Admin from the "Role" button', "unknown-step", "`field` or `dropdown`"],
    ["web", "Select Admin", "unknown-step", "from the"],
    ["web", 'Select "A" from the "L" field', "unknown-step", "at least two options"],
    ["web", 'Select "A", B and "C" from the "L" field', "unknown-step", "must be quoted"],
    ["web", 'Select A, "B" from the "L" field', "unknown-step", "must be quoted"],
    ["web", 'Select "A" "B" from the "L" field', "unknown-step", "separated by"],
    ["web", 'Upload into the "Avatar" field', "unknown-step", "`Upload"],
    ["web", "Upload logo.png", "unknown-step", '`Upload logo.png into the "Avatar" field`'],
    ["windows", 'Upload /tmp/a.txt into the "File" field', "unsupported-step", "cannot be done on a Windows program: a desktop window has no page"],
    ["web", "Scroll down", "unknown-step", "`Scroll to the bottom`"],
    ["web", 'Scroll "css:.list" to 147', "unknown-step", "`to 147px`"],
    ["web", 'Scroll "css:.list" to 150%', "unknown-step", "from 0% to 100%"],
    ["web", 'Set cookie "sid" to ${SESSION}', "refused-step", "session: cookies"],
    ["web", "Set cookie theme to dark", "unknown-step", "in quotes"],
    ["web", 'Set cookie "theme" to a;b', "unknown-step", "`;`"],
    [
      "windows",
      'Set cookie "theme" to dark',
      "unsupported-step",
      "`Set cookie` cannot be done on a Windows program: it has no cookies (grammar form `cookie`)",
    ],
    ["web", 'Scroll "css:.list" sideways', "unknown-step", "`across`"],
    ["web", 'Scroll "css:.list" to 12.5px', "unknown-step", "whole"],
    ["web", 'Scroll "css:.list" to -3px', "unknown-step", "whole"],
    ["web", 'Scroll "css:.list" sideways', "unknown-step", "into view"],
    ["web", 'Remember the "Total"', "unknown-step", "as <name>"],
    ["web", 'Remember the "Total" as Total', "unknown-step", "not a capture name"],
    ["web", "Remember the total", "unknown-step", "quoted target"],
    ["web", 'Remember how many the 2nd "Row" appear as rows', "refused-step", "ordinal cannot be counted"],
    ["web", 'Remember how many "Row" in the item containing "X" appear as rows', "unsupported-step", "cannot be scoped"],
    ["web", "Go to", "unknown-step", "`Go to /settings`"],
    ["web", "Go to ${captured.x}", "bad-reference", "a capture may only be typed or compared"],
    ["web", "Go to /orders/${captured.x}", "bad-reference", "a capture may only be typed or compared"],
    ["windows", "Go to /settings", "unsupported-step", "cannot be done on a Windows program: a desktop window has no page"],
    ["windows", "Reload the page", "unsupported-step", "cannot be done on a Windows program: a desktop window has no page"],
    ["sap", "Reload the page", "unsupported-step", "`Reload the page` cannot be done on SAP GUI: it has no page to reload (grammar form `reload`)"],
    ["web", "Reload the frame", "unknown-step", "`Reload the page`"],
    ["web", "Wait 5 seconds", "unknown-step", "no fixed sleep"],
    ["web", "Wait until the download completes as", "unknown-step", "`as <name>`"],
    ["web", "Wait until the download completes", "unknown-step", "`as <name>`"],
    ["sap", "Wait until the download completes as x", "unsupported-step", "cannot be done on SAP GUI: it has no downloads (grammar form `download`)"],
    ["web", "Wait until page shows", "unknown-step", "has no text"],
    ["web", "Wait until page shows Saved within 0s", "unknown-step", "more than 0"],
  ])("rejects on %s: %s", (app, input, code, words) => {
    const r = parseAction(slice(input), at(app));
    if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
    expect<string>(r.error.code).toBe(code);
    expect(`${r.error.message} ${r.error.hint}`).toContain(words);
  });
});
