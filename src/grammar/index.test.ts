// The grammar conformance corpus (shared/spec/grammar-corpus.md), every line, through the public API.

import { at } from "../../test/support/surfaces.ts";
import { describe, expect, test } from "bun:test";
import { parseAssertion, parseCondition, parseStep, parseTemplate, type GrammarError, type ParseResult } from "./index.ts";

const errorOf = <T>(r: ParseResult<T>): GrammarError => {
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
  return r.error;
};

const say = (e: GrammarError): string => `${e.message} ${e.hint}`.toLowerCase();

// A. plain steps that MUST resolve
const A: readonly (readonly [string, string])[] = [
  ["web", 'Type Ada into the "Full name" field'],
  ["web", 'Type email into the 2nd "Field Name" field'],
  ["web", "Type Ada into the name field"],
  ["web", "Type Berlin"],
  ["web", 'Replace the "Search" field with Berlin'],
  ["web", "Replace the taskName field with Weekly report"],
  ["web", 'Clear the "Search" field'],
  ["web", "Clear the taskName field"],
  ["web", 'Select Admin from the "Role" field'],
  ["web", 'Select Admin in the "Role" dropdown'],
  ["web", 'Click "Save" at 75%,50%'],
  ["web", 'Scroll "css:.list" to 147px'],
  ["web", 'Type Ada into the "Coupon" in the iframe "checkout"'],
  ["web", 'Scroll the "css:body" in the iframe "checkout" to 147px'],
  ["web", 'Select "Functional testing", "GUI testing" and "End2End testing" from the "Methods" field'],
  ["web", 'Press the "Save" button'],
  ["web", "Press the submitButton button"],
  ["web", 'Click "Templates"'],
  ["web", 'Click the 2nd "Templates"'],
  ["web", 'Right-click "Accounts"'],
  ["web", 'Right click the 2nd "Row actions"'],
  ["web", 'Double-click "Accounts"'],
  ["web", 'Double click the 2nd "Row actions"'],
  ["windows", 'Right-click "report.txt"'],
  ["notepad", 'Double-click the 2nd "id:121"'],
  ["web", 'Hover over "Accounts"'],
  ["web", 'Hover over the 2nd "Row actions"'],
  ["web", 'Upload logo.png into the "Avatar" field'],
  ["web", "Upload data/import.qif into the importFile field"],
  ["web", "Press Enter"],
  ["web", "Press Control+V"],
  ["web", "Press Alt+Shift+Backspace"],
  ["web", "Press Mod+K"],
  ["web", "Press CtrlOrMeta+Shift+P"],
  ["web", "Go to /settings"],
  ["web", "Navigate to /settings"],
  ["web", "Reload the page"],
  ["web", "Wait until page shows templates found within 30s"],
  ["web", 'Scroll the "Transactions" to the bottom'],
  ["web", 'Scroll the "css:.transactions-list" to the top'],
  ["web", 'Scroll "Grace Hopper" into view'],
  ["web", "Scroll to the bottom"],
  ["web", 'Click the "Actions" column of the row containing "Grace Hopper"'],
  ["web", 'Type Paid into the "Status" column of the row containing "Grace Hopper"'],
  ["web", 'Clear the "Balance" column of the row containing "Grace Hopper"'],
  ["web", 'Check the "Select" column of the row containing "Grace Hopper"'],
  ["web", 'Click the "Pay" in the item containing "Invoice 4711"'],
  ["web", 'Click the "Pay" inside the item containing "Invoice 4711"'],
  ["web", 'Type 50 into the "Amount" field in the item containing "Invoice 4711"'],
  ["web", 'Clear the "Amount" field in the item containing "Invoice 4711"'],
  ["web", 'Check the "Select" checkbox in the item containing "Invoice 4711"'],
  ["web", 'Press the "Pay" button in the item containing "Invoice 4711"'],
  ["web", 'Remember the "Amount" in the item containing "Invoice 4711" as amount'],
  ["web", 'Press the "Edit" button in the item containing "John" and "Doe"'],
  ["web", 'Remember how many "css:.order-row" appear as rows'],
  ["web", 'Type order-${captured.oid} into the "Ref" field'],
  ["web", 'Type ${captured.first} ${captured.last} into the "Name" field'],
  ["web", 'Type ${captured.a} + ${captured.b} into the "Sum" field'],
  ["web", 'Right-click the "Pay" in the item containing "Invoice 4711"'],
  ["web", 'Double-click the "Pay" in the item containing "Invoice 4711"'],
  ["web", 'Hover over the "Pay" in the item containing "Invoice 4711"'],
  ["web", 'Click the "Pay" in the "css:[data-test=transaction]" containing "Invoice 4711"'],
  ["sap", "Go to /nVA01"],
  ["sap", 'Type ZOR into the "Order Type" field'],
  ["sap", 'Remember the "id:wnd[0]/usr/ctxtVBAK-VBELN" as order'],
  ["vision", 'Press the "Submit" button'],
  ["calc", "Type 53"],
  ["calc", "Press plus"],
  ["notepad", "Type hello"],
];

// B. assertions that MUST resolve
const B: readonly (readonly [string, string])[] = [
  ["web", "page shows Welcome"],
  ["web", "the page shows Welcome"],
  ["web", "page shows templates found 2 times"],
  ["web", "page does not show Error"],
  ["web", "the page does not show Error"],
  ["web", 'the "Field Name" field contains Street'],
  ["web", "the templateName field contains Draft"],
  ["web", 'the 2nd "Amount" field contains 10'],
  ["web", 'the "css:#live_preview" shows Street'],
  ["web", 'the "css:#modal" is visible'],
  ["web", 'the "css:#modal" is not visible within 15s'],
  ["web", 'the "Save" is enabled'],
  ["web", 'the "Save" is disabled'],
  ["web", 'the "New Transaction" attribute href is /transaction/new'],
  ["web", 'the "Docs" attribute target is not _self'],
  ["web", 'the "Export" has attribute download'],
  ["web", 'the "Banner" does not have attribute hidden'],
  ["web", 'the "css:.charge .amount" style color is rgb(255, 0, 0)'],
  ["web", 'the "Amount" style color is not green'],
  ["web", 'the "Amount" column of the row containing "Deposit" style color is green'],
  ["web", 'the "Row" appears 3 times'],
  ["web", 'the "Remember me" checkbox is checked'],
  ["web", 'the "Balance" is empty'],
  ["web", 'the "Status" column of the row containing "Grace Hopper" shows Suspended'],
  ["web", 'the "Balance" column of the row containing "Grace Hopper" is empty'],
  ["web", 'the "Status" column in the row containing "Grace Hopper" shows Suspended'],
  ["web", 'the "Amount" in the item containing "Invoice 4711" shows 50'],
  ["web", 'the "Amount" inside the item containing "Invoice 4711" shows 50'],
  ["web", 'the "Amount" field in the item containing "Invoice 4711" contains 50'],
  ["web", 'the "Amount" in the item containing "Invoice 4711" is not empty'],
  ["web", 'the "Pay" in the item containing "Invoice 4711" is visible'],
  ["web", 'the "Pay" in the item containing "Invoice 4711" is enabled'],
  ["web", 'the "Select" checkbox in the item containing "Invoice 4711" is checked'],
  ["web", 'the "Amount" in the "css:[data-test=transaction]" containing "Invoice 4711" shows 50'],
  ["web", 'the "Total" shows ${captured.rows} + 1'],
  ["web", 'the "Email" column of the row containing "John" and "Doe" shows john@example.com'],
  ["calc", "display shows 8"],
  ["notepad", "document contains hello"],
];

// C. MUST be refused, with the reason and the alternative
const C: readonly (readonly [string, string, string])[] = [
  ['Click "Next" until the "Status" shows Done', "repetition is a block", "`repeat:`"],
  ['While the "Spinner" is visible, press the "Retry" button', "repetition is a block", "`repeat:`"],
  ['If the "Banner" is visible, click "Dismiss"', "a branch is a block", "`when: <condition>`"],
  ['Remember the "Total" matching /[0-9.]+/ as amount', "pattern extraction", "whole text"],
  ['Remember the text between "total of" and "to your" as amount', "pattern matching", "whole element"],
  ['Type ${date:tomorrow} into the "Due" field', "date expression", "pin the clock"],
  ['Click the "Move" without hovering', "no user could produce", "Click"],
];

// D. additional positive examples: action steps
const D_STEPS: readonly (readonly [string, string])[] = [
  ...(["windows", "sap", "vision", "calc", "notepad"] as const).map((app): readonly [string, string] => [app, "Press F8"]),
  ["windows", "Press Alt+F4"],
  ["windows", "Press f12"],
  ["web", "Wait until page shows Saved"],
  ["web", "Wait until page shows Saved within 30s"],
  ["web", 'Type Ada into the "Elsewhere" field'],
  ["web", 'Press the "Verify" button'],
  ["web", 'Click "Update between runs"'],
  ["web", 'Click "Look at this"'],
  ["web", 'Click the 2nd "Save" at 10%,90%'],
  ["web", 'Click "Save" at 50.5%,50%'],
  ["web", 'Select "Rock, Paper and Scissors", "Chess" from the "Game" field'],
  ["web", 'Select "A", "B" from the "L" field'],
  ["web", 'Select Approved from the "Value" column of the row containing "Invoice 4711"'],
  ["web", 'Select Approved from the "Status" field in the item containing "Invoice 4711"'],
  ["web", 'Select "A", "B" from the "Tags" field in the item containing "Invoice 4711"'],
  ["web", 'Select Edit from the "Value" column of the row containing "John" and "Doe"'],
  ["web", "Select Admin from the roleSelect field"],
  ["web", 'Click the "Pay" in the item containing "John" and "Doe" and "Overdue"'],
  ["web", 'Clear the "Coupon" field in the iframe "checkout"'],
  ["web", 'Remember the "Total" in the iframe "checkout" as total'],
  ["web", 'Click "Delete", accepting the "Are you sure?" dialog'],
  ["web", 'Click "Cancel", dismissing the dialog'],
  ["web", 'Press the "Rename" button, answering the prompt with "New name"'],
  ["web", 'Drag the "css:#src" onto the "css:#dst"'],
  ["web", "Wait until the download completes as pir_export"],
  ["web", 'Remember the "id:oid" as oid'],
  ["web", 'Type ${captured.oid} into the "Order id" field'],
  ["web", 'Scroll "css:.list" to the bottom'],
  ["windows", "Type 5 into the id:15 field"],
  ["windows", "Type flowproof drove this"],
  ["calc", "Type 12.5"],
  ["calc", "Press equals"],
  ["calc", 'Press the "Square root" button'],
  ["calc", 'Click "History"'],
  ["calc", "Press Ctrl+H"],
  ["calc", 'Press the "id:percentButton" button'],
  ["calc", 'Click the 2nd "Memory"'],
  ["notepad", "Type see you into the future"],
  ["notepad", 'Type flowproof into the "Find what" field'],
  ["sap", "Go to VA01"],
  ["sap", 'Type 4711 into the "id:wnd[0]/usr/txtVBAK-KUNNR" field'],
  ["web", "Go back"],
  ["web", "Go forward"],
  ["web", "Resize the viewport to 320x480"],
  ["web", "Clear local storage"],
  ["web", "Clear session storage"],
  ["web", "Clear cookies"],
  ["web", 'Type " padded " into the "Name" field'],
  ["web", 'Type 5" screen into the "Name" field'],
  ["web", 'Replace the "Name" field with 5" screen'],
  ["web", 'Select 5" screen from the "Size" dropdown'],
  ["web", 'Click the 1st "Age"'],
  ["web", 'Click on "Active"'],
  ["web", 'Double-click on "Buy milk"'],
  ["web", "Press Esc"],
  ["web", "Press Return"],
  ["web", "Refresh the page"],
  ["web", 'Check the checkbox in the item containing "Buy milk"'],
  ["web", 'Click the 2nd checkbox in the item containing "Buy milk"'],
  ["web", 'Press the button in the item containing "Invoice 4711"'],
  ["web", 'Type Ada into the field in the "css:.card" containing "Order 8801"'],
  ["web", 'Select Engineering from the "Department" dropdown'],
  ["web", 'Select "Red" and "Blue" from the "Colours" dropdown'],
  ["web", "Press Shift"],
  ["web", 'Set cookie "theme" to dark'],
  ["web", 'Scroll the "css:#wide" to the right'],
  ["web", 'Scroll the "css:#wide" to 120px across'],
  ["web", 'Scroll the "css:#list" to 50%'],
  ["web", 'Scroll the "css:#wide" to 75% across'],
];

// D. additional positive examples: assertions
const D_ASSERTS: readonly (readonly [string, string])[] = [
  ["web", "page url is /signin"],
  ["web", "page url contains checkout"],
  ["web", "page title is Orders - Acme Admin"],
  ["web", "page title contains Acme"],
  ["web", "page url is /orders?page=2 within 15s"],
  ["web", 'cookie "session_token" exists'],
  ["web", 'cookie "session_token" is httpOnly'],
  ["web", 'cookie "remember_me" is persistent'],
  ["web", 'cookie "theme" has domain 127.0.0.1'],
  ["web", 'cookie "theme" has path /'],
  ["web", "no cookies are set"],
  ["web", "2 cookies are set"],
  ["web", 'local storage "theme" is exactly red'],
  ["web", "local storage has no keys"],
  ["web", 'local storage has only "theme" and "todos"'],
  ["web", 'the "Total" shows a number greater than 10'],
  ["web", 'the "Department" field contains Engineering'],
  ["web", 'cookie "sid" is secure'],
  ["web", 'cookie "token" does not exist'],
  ["web", 'cookie "token" is not httpOnly'],
  ["web", 'cookie "token" is not secure'],
  ["web", 'cookie "token" is not persistent'],
  ["web", 'local storage "todos-${FW}" contains Walk the dog'],
  ["web", 'local storage "todos" does not exist'],
  ["web", 'session storage "draft" does not exist'],
  ["web", 'the "css:h1" is focused'],
  ["web", 'the "What needs to be done?" field is not focused'],
  ["web", 'the "css:.todo-count" shows exactly 2 items left'],
  ["web", 'the "Name" field contains exactly Ada'],
  ["web", 'the "Row" appears 1 time'],
  ["web", 'the "Row" appears 0 times'],
  ["web", 'the "css:.row" appears 2 times'],
  ["web", "page shows Row 3 times"],
  ["web", 'the "css:.todo-list li" appears once'],
  ["web", 'the "css:.todo-list li" appears twice'],
  ["web", "page shows Buy milk once"],
  ["web", "page shows Buy milk twice"],
  ["web", 'the checkbox in the item containing "Buy milk" is checked'],
  ["web", 'the "Username" field is visible'],
  ["web", 'the "Save" button is disabled'],
  ["web", 'the "Country" dropdown is not empty'],
  ["web", 'the "Docs" link is visible'],
  ["web", 'the "Account Balance" shows ${captured.balance} - 100'],
  ["web", 'the "css:#total" in the iframe "checkout" shows Total 42.00'],
  ["web", 'the "Status" inside the iframe "checkout" is visible'],
  ["web", 'the "css:#total" in the iframe "css:iframe[title=checkout]" shows Total 42.00'],
  ["web", 'the "Coupon" field in the iframe "checkout" contains SAVE20'],
  ["windows", "page shows Untitled"],
  ["windows", 'the "Save" is disabled'],
  ["windows", 'the "Wrap" checkbox is checked'],
];

// D. additional positive examples: conditions
const D_CONDITIONS: readonly string[] = ['the "id:a" is greater than the "id:b"', 'the "id:go" is not visible', "page shows FINISHED"];

// E. negative corpus: [app, parser, text, words the message or hint must contain]
type Kind = "step" | "assert";
const E: readonly (readonly [string, Kind, string, string])[] = [
  ["web", "step", "Press F5", 'press the "refresh" button'],
  ["web", "step", "Press Alt+F4", 'press the "close" button'],
  ["windows", "step", "Press F13", "not a key"],
  ["windows", "step", "Press F0", "not a key"],
  ["web", "step", "Press 7", "`type 7`"],
  ["web", "step", "Press hard on the app", "not a key"],
  ["windows", "step", 'Click "css:#save"', "id:<automationid>"],
  ["windows", "step", 'Hover over "File"', "cannot be done on a windows program: a desktop window has no page"],
  ["windows", "step", "Go to /settings", "cannot be done on a windows program: a desktop window has no page"],
  ["windows", "step", "Reload the page", "cannot be done on a windows program: a desktop window has no page"],
  ["windows", "step", 'Upload /tmp/a.txt into the "File" field', "cannot be done on a windows program: a desktop window has no page"],
  ["calc", "step", "Press bogus", "not a calculator key"],
  ["web", "step", 'Select "A", B and "C" from the "L" field', "every option of a multi-select must be quoted"],
  ["web", "step", 'Select "A" from the "L" field', "at least two options"],
  ["web", "step", 'Select Admin from the "Role"', "`field` or `dropdown`"],
  ["web", "step", 'Click "Save" at 120%,50%', "between 0% and 100%"],
  ["web", "step", 'Click "Save" at 50%,-10%', "between 0% and 100%"],
  ["web", "step", 'Click "Save" at 101%,101%', "between 0% and 100%"],
  ["web", "step", 'Scroll "css:.list" to 147', "`to 147px`"],
  ["web", "step", 'Scroll "css:.list" to 12.5px', "whole"],
  ["web", "step", 'Scroll "css:.list" to -3px', "whole"],
  ["web", "step", 'Click the "Pay" in the iframe "checkout"', "istrusted"],
  ["web", "step", 'Hover over the "Pay" in the iframe "checkout"', "istrusted"],
  ["web", "step", 'Double-click the "Pay" in the iframe "checkout"', "istrusted"],
  ["web", "step", 'Right-click the "Pay" in the iframe "checkout"', "istrusted"],
  ["web", "step", 'Press the "Pay" button in the iframe "checkout"', "istrusted"],
  ["web", "step", 'Click the "Pay" in the iframe "checkout" at 5%,5%', "istrusted"],
  ["web", "step", 'Upload a.txt into the "File" field in the iframe "checkout"', "istrusted"],
  ["web", "step", 'Drag the "A" in the iframe "checkout" onto the "B"', "istrusted"],
  ["web", "step", 'Click the 2nd "Amount" in the item containing "Invoice 4711"', "ordinal cannot address a scoped target"],
  ["web", "assert", 'the 2nd "Total" in the iframe "checkout" shows 42.00', "ordinal cannot address an element inside an iframe"],
  ["web", "assert", 'the "Total" in the iframe shows 42.00', "iframe must be named"],
  ["web", "assert", 'the "Amount" in the item containing "Invoice 4711" in the iframe "checkout" shows 50', "cannot be nested"],
  ["web", "assert", 'the 2nd "Row" appears 3 times', "ordinal cannot be counted"],
  ["web", "assert", 'the "Row" appears 3', "`appears <n> times`"],
  ["web", "assert", 'the "Row" appears many times', "`appears <n> times`"],
  ["web", "assert", 'the "Row" appears times', "`appears <n> times`"],
  ["web", "assert", 'the "Terms" is checked', "`checkbox` noun"],
  ["web", "assert", 'the "Username" field is huge', "end with a predicate"],
  ["web", "assert", 'the "Link" attribute href is ${captured.x}', "captures compare with `shows`"],
  ["web", "assert", 'the "X" style width is 10px', "not an allowed style property"],
  ["web", "assert", 'cookie "sid" is abc123', "value cannot be asserted"],
  ["web", "assert", 'local storage "theme" contains exactly red', 'local storage "theme" is exactly red'],
  ["web", "step", 'Set cookie "sid" to ${SID}', "session: cookies"],
  ["web", "assert", 'cookie "sid" is not abc123', "value cannot be asserted"],
  ["web", "assert", "page shows Finished within 2200000s", "longest bound"],
  ["web", "step", "Wait until page shows Finished within 2200000s", "longest bound"],
  ["web", "step", 'Type 5" screen into a "Name" field', "is not a target"],
  ["web", "step", "Go backwards", "`go back`"],
  ["windows", "step", "Go back", "cannot be done on a windows program: a desktop window has no page"],
  ["sap", "step", "Go back", "grammar form `history`"],
  ["web", "step", "Resize the viewport to 320 by 480", "`resize the viewport to 320x480`"],
  ["web", "step", "Resize the viewport to 0x480", "outside 1 to 10000"],
  ["sap", "step", "Clear cookies", "grammar form `clear_storage`"],
  ["web", "assert", 'local storage "k-${captured.x}" contains a', "capture cannot name a storage key"],
  ["web", "assert", "cookie sid exists", "must be quoted"],
  ["web", "step", "Double-click Accounts", '`double-click "accounts"`'],
  ["web", "step", 'Hover "Accounts"', '`hover over "accounts"`'],
  ["web", "step", "Hover over Accounts", '`hover over "accounts"`'],
  ["web", "step", "Hover Accounts", '`hover over "accounts"`'],
  ["web", "step", 'Click "Delete", accepting the box', "`, dismissing the dialog`"],
  ["web", "step", "Wait until the download completes as", "`as <name>`"],
  ["web", "step", 'Click "${captured.x}"', "a capture may only be typed or compared"],
  ["web", "step", "Go to ${captured.x}", "a capture may only be typed or compared"],
  ["web", "step", 'Click the "Completed" filter', "`filter` is not a role noun"],
  ["web", "step", 'Click the "Completed" tab', '`the "completed" button`'],
  ["web", "assert", 'the "Row" appears thrice', "`appears once`"],
  ["web", "step", "Check the checkbox", "only inside a scope"],
  ["web", "step", 'Click the checkbox in the iframe "checkout"', "inside an iframe"],
  ["web", "step", 'Click the checkbox in the 2nd item containing "Buy milk"', "ordinal cannot address a scoped container"],
  ["windows", "step", "Refresh the page", "cannot be done on a windows program: a desktop window has no page"],
  ["windows", "step", 'Check the checkbox in the item containing "Buy milk"', "grammar form `container`"],
  ["notepad", "assert", 'the "Amount" in the item containing "Invoice 4711" shows 50', "grammar form `container`"],
];

describe("parseStep", () => {
  test.each(A)("resolves corpus A on %s: %s", (app, text) => {
    expect(parseStep(text, at(app)).ok).toBe(true);
  });
  test.each(D_STEPS)("resolves corpus D on %s: %s", (app, text) => {
    expect(parseStep(text, at(app)).ok).toBe(true);
  });
  test.each(C)("refuses %s with its reason and alternative", (text, reason, alternative) => {
    const e = errorOf(parseStep(text, at("web")));
    expect(e.code).toBe("refused-step");
    expect(`${e.message} ${e.hint}`).toContain(reason);
    expect(`${e.message} ${e.hint}`).toContain(alternative);
  });
  test("returns unknown-step naming nothing when the text is blank", () => {
    expect(errorOf(parseStep("   ", at("web"))).code).toBe("unknown-step");
  });
  test("points errors into the untrimmed text", () => {
    const e = errorOf(parseStep("   Press F5", at("web")));
    expect([e.offset, e.length]).toEqual([9, 2]);
  });
  test("treats keywords case-insensitively", () => {
    expect(parseStep('TYPE Ada INTO THE "Name" FIELD', at("web"))).toEqual(parseStep('Type Ada into the "Name" field', at("web")));
  });
  test("never throws on hostile input", () => {
    for (const text of ['"', '""', "${", "Click", 'Click "', "Press +", "Press ++", "the", "\u0000", "Type ${captured.}", "Select , from"]) {
      expect(() => parseStep(text, at("web"))).not.toThrow();
    }
  });
});

describe("parseAssertion", () => {
  test.each(B)("resolves corpus B on %s: %s", (app, text) => {
    expect(parseAssertion(text, at(app)).ok).toBe(true);
  });
  test.each(D_ASSERTS)("resolves corpus D on %s: %s", (app, text) => {
    expect(parseAssertion(text, at(app)).ok).toBe(true);
  });
});

describe("parseCondition", () => {
  test.each(D_CONDITIONS)("resolves corpus D condition %s", (text) => {
    expect(parseCondition(text, at("web")).ok).toBe(true);
  });
});

describe("negative corpus E", () => {
  test.each(E)("rejects on %s (%s) %s with a hint naming %s", (app, kind, text, words) => {
    const r: ParseResult<unknown> = kind === "step" ? parseStep(text, at(app)) : parseAssertion(text, at(app));
    expect(say(errorOf(r))).toContain(words);
  });
});

describe("parseCondition refusals", () => {
  test("refuses a form that is not a condition by name", () => {
    const e = errorOf(parseCondition('the "Save" is enabled', at("web")));
    expect(e.code).toBe("refused-step");
    expect(e.message).toContain("`is enabled`");
  });
});

describe("parseTemplate", () => {
  test("rejects an each reference outside foreach as a bad reference", () => {
    expect(errorOf(parseTemplate("${each.name}")).code).toBe("bad-reference");
  });
  test("parses env and capture references into parts", () => {
    expect(parseTemplate("a${B}c${captured.d}")).toEqual({
      ok: true,
      value: {
        raw: "a${B}c${captured.d}",
        parts: [
          { kind: "literal", text: "a" },
          { kind: "env", name: "B" },
          { kind: "literal", text: "c" },
          { kind: "captured", name: "d" },
        ],
      },
    });
  });
});
