import { at } from "../../test/support/surfaces.ts";
import { describe, expect, test } from "bun:test";
import { parseAssertionText } from "./assertion.ts";
import type { Assertion, Template } from "./ast.ts";

const slice = (text: string) => ({ text, offset: 0 });
const text = (t: string) => ({ kind: "text", text: t }) as const;
const el = (t: string) => ({ kind: "element", anchor: text(t) }) as const;
const lit = (raw: string): Template => ({ raw, parts: [{ kind: "literal", text: raw }] });

describe("parseAssertionText", () => {
  test.each<[string, string, Assertion]>([
    ["web", "page shows Welcome", { kind: "page_shows", text: lit("Welcome"), negate: false }],
    ["web", "the page shows Welcome", { kind: "page_shows", text: lit("Welcome"), negate: false }],
    ["web", "Page Shows templates found 2 times", { kind: "page_shows", text: lit("templates found"), negate: false, times: 2 }],
    ["web", "page shows Row 1 time", { kind: "page_shows", text: lit("Row"), negate: false, times: 1 }],
    ["web", "page shows Buy milk once", { kind: "page_shows", text: lit("Buy milk"), negate: false, times: 1 }],
    ["web", "page shows Buy milk Twice within 2s", { kind: "page_shows", text: lit("Buy milk"), negate: false, times: 2, timeoutMs: 2_000 }],
    ["web", "page does not show Error within 5s", { kind: "page_shows", text: lit("Error"), negate: true, timeoutMs: 5_000 }],
    ["web", "page shows ${ORDER_NO}", { kind: "page_shows", text: { raw: "${ORDER_NO}", parts: [{ kind: "env", name: "ORDER_NO" }] }, negate: false }],
    ["web", "page url is /signin", { kind: "page_url", op: "is", value: lit("/signin") }],
    ["web", "page url is /orders?page=2 within 15s", { kind: "page_url", op: "is", value: lit("/orders?page=2"), timeoutMs: 15_000 }],
    ["web", "page title contains Acme", { kind: "page_title", op: "contains", value: lit("Acme") }],
    ["web", 'cookie "session_token" exists', { kind: "cookie", name: "session_token", fact: "exists", negate: false }],
    ["web", 'cookie "session_token" is httpOnly', { kind: "cookie", name: "session_token", fact: "http_only", negate: false }],
    ["web", 'cookie "sid" is secure', { kind: "cookie", name: "sid", fact: "secure", negate: false }],
    ["web", 'cookie "remember_me" is persistent', { kind: "cookie", name: "remember_me", fact: "persistent", negate: false }],
    ["web", 'cookie "token" does not exist', { kind: "cookie", name: "token", fact: "exists", negate: true }],
    ["web", 'cookie "token" is not httpOnly', { kind: "cookie", name: "token", fact: "http_only", negate: true }],
    ["web", 'cookie "token" is not secure within 2s', { kind: "cookie", name: "token", fact: "secure", negate: true, timeoutMs: 2_000 }],
    ["web", 'cookie "token" is not persistent', { kind: "cookie", name: "token", fact: "persistent", negate: true }],
    ["web", 'local storage "todos" contains Walk the dog', { kind: "storage", area: "local", key: lit("todos"), text: lit("Walk the dog") }],
    [
      "web",
      'Session Storage "draft" contains Buy milk within 5s',
      { kind: "storage", area: "session", key: lit("draft"), text: lit("Buy milk"), timeoutMs: 5_000 },
    ],
    [
      "web",
      'local storage "todos-${FW}" contains Walk',
      {
        kind: "storage",
        area: "local",
        key: {
          raw: "todos-${FW}",
          parts: [
            { kind: "literal", text: "todos-" },
            { kind: "env", name: "FW" },
          ],
        },
        text: lit("Walk"),
      },
    ],
    ["web", 'local storage "todos" does not exist', { kind: "storage_absent", area: "local", key: lit("todos") }],
    ["web", "no cookies are set", { kind: "cookie_count", count: 0 }],
    ["web", "2 cookies are set", { kind: "cookie_count", count: 2 }],
    ["web", "1 cookie is set", { kind: "cookie_count", count: 1 }],
    ["web", 'cookie "sid" has domain example.com', { kind: "cookie_where", name: "sid", attribute: "domain", value: "example.com" }],
    ["web", 'cookie "sid" has path /app', { kind: "cookie_where", name: "sid", attribute: "path", value: "/app" }],
    ["web", 'local storage "theme" is exactly red', { kind: "storage", area: "local", key: lit("theme"), text: lit("red"), exact: true }],
    ["web", "local storage has no keys", { kind: "storage_keys", area: "local", keys: [] }],
    ["web", 'session storage has only "a", "b" and "c"', { kind: "storage_keys", area: "session", keys: [lit("a"), lit("b"), lit("c")] }],
    ["web", 'local storage has only "todos"', { kind: "storage_keys", area: "local", keys: [lit("todos")] }],
    ["web", 'session storage "draft" does not exist within 3s', { kind: "storage_absent", area: "session", key: lit("draft"), timeoutMs: 3_000 }],
    ["web", 'the "Total" shows a number greater than 10', { kind: "number_compare", target: el("Total"), op: "gt", value: 10 }],
    ["web", 'the "Total" shows a number at most -2.5', { kind: "number_compare", target: el("Total"), op: "le", value: -2.5 }],
    ["web", 'the "Total" shows a number less than 3', { kind: "number_compare", target: el("Total"), op: "lt", value: 3 }],
    ["web", 'the "Total" shows a number at least 0', { kind: "number_compare", target: el("Total"), op: "ge", value: 0 }],
    [
      "web",
      'the "css:h1" shows exactly todos',
      { kind: "shows_exactly", target: { kind: "element", anchor: { kind: "css", selector: "h1" } }, text: lit("todos") },
    ],
    ["web", 'the "Name" field contains exactly Ada Lovelace', { kind: "shows_exactly", target: { ...el("Name"), role: "field" }, text: lit("Ada Lovelace") }],
    ["web", 'the "Name" field is focused', { kind: "focused", target: { ...el("Name"), role: "field" }, negate: false }],
    [
      "web",
      'the "css:#new-todo" is not focused within 2s',
      { kind: "focused", target: { kind: "element", anchor: { kind: "css", selector: "#new-todo" } }, negate: true, timeoutMs: 2_000 },
    ],
    ["calc", "display shows 8", { kind: "app_sugar", sugar: "display shows", reads: { id: "CalculatorResults" }, compare: "numeric_equals", text: "8" }],
    [
      "notepad",
      "document contains hello",
      { kind: "app_sugar", sugar: "document contains", reads: { id: "15", fallback: { control_type: "edit" } }, compare: "contains", text: "hello" },
    ],
    [
      "web",
      'the "css:#live_preview" shows Street',
      { kind: "shows", target: { kind: "element", anchor: { kind: "css", selector: "#live_preview" } }, text: lit("Street") },
    ],
    [
      "web",
      'the "css:#status" does not show Error',
      { kind: "not_shows", target: { kind: "element", anchor: { kind: "css", selector: "#status" } }, text: lit("Error") },
    ],
    ["web", 'the "Balance" does not show 0.00 within 5s', { kind: "not_shows", target: el("Balance"), text: lit("0.00"), timeoutMs: 5_000 }],
    ["web", 'the "Total" shows ${captured.rows} + 1', { kind: "shows_computed", target: el("Total"), capture: "rows", op: "+", amount: 1 }],
    [
      "web",
      'the "Account Balance" shows ${captured.balance} - 100.5',
      { kind: "shows_computed", target: el("Account Balance"), capture: "balance", op: "-", amount: 100.5 },
    ],
    [
      "web",
      'the "Total" shows ${captured.total}',
      { kind: "shows", target: el("Total"), text: { raw: "${captured.total}", parts: [{ kind: "captured", name: "total" }] } },
    ],
    ["web", 'the "Field Name" field contains Street', { kind: "field_contains", target: { ...el("Field Name"), role: "field" }, text: lit("Street") }],
    [
      "web",
      "the templateName field contains Draft",
      { kind: "field_contains", target: { kind: "element", anchor: { kind: "id", id: "templateName", bare: true }, role: "field" }, text: lit("Draft") },
    ],
    ["web", 'the 2nd "Amount" field contains 10', { kind: "field_contains", target: { ...el("Amount"), nth: 2, role: "field" }, text: lit("10") }],
    [
      "web",
      'the "css:#modal" is not visible within 15s',
      { kind: "visible", target: { kind: "element", anchor: { kind: "css", selector: "#modal" } }, negate: true, timeoutMs: 15_000 },
    ],
    ["web", 'the "Docs" link is visible', { kind: "visible", target: { ...el("Docs"), role: "link" }, negate: false }],
    ["web", 'the "Save" is enabled', { kind: "enabled", target: el("Save"), enabled: true }],
    ["web", 'the "Save" button is disabled', { kind: "enabled", target: { ...el("Save"), role: "button" }, enabled: false }],
    ["web", 'the "Remember me" checkbox is checked', { kind: "checked", target: { ...el("Remember me"), role: "checkbox" }, negate: false }],
    ["web", 'the "Remember me" checkbox is not checked', { kind: "checked", target: { ...el("Remember me"), role: "checkbox" }, negate: true }],
    ["web", 'the "Balance" is empty', { kind: "empty", target: el("Balance"), negate: false }],
    ["web", 'the "Country" dropdown is not empty', { kind: "empty", target: { ...el("Country"), role: "dropdown" }, negate: true }],
    ["web", 'the "Row" appears 0 times', { kind: "count", target: el("Row"), count: 0 }],
    ["web", 'the "Row" appears 1 time within 2s', { kind: "count", target: el("Row"), count: 1, timeoutMs: 2_000 }],
    ["web", 'the "Row" appears once', { kind: "count", target: el("Row"), count: 1 }],
    ["web", 'the "Row" appears twice within 2s', { kind: "count", target: el("Row"), count: 2, timeoutMs: 2_000 }],
    [
      "web",
      'the "New Transaction" attribute href is /transaction/new',
      { kind: "attribute", target: el("New Transaction"), name: "href", value: lit("/transaction/new"), negate: false },
    ],
    ["web", 'the "Docs" attribute target is not _self', { kind: "attribute", target: el("Docs"), name: "target", value: lit("_self"), negate: true }],
    ["web", 'the "Export" has attribute download', { kind: "has_attribute", target: el("Export"), name: "download", negate: false }],
    ["web", 'the "Banner" does not have attribute hidden', { kind: "has_attribute", target: el("Banner"), name: "hidden", negate: true }],
    [
      "web",
      'the "css:.charge .amount" style color is rgb(255, 0, 0)',
      {
        kind: "style",
        target: { kind: "element", anchor: { kind: "css", selector: ".charge .amount" } },
        prop: "color",
        value: "rgb(255, 0, 0)",
        negate: false,
      },
    ],
    ["web", 'the "Amount" style Background-Color is not #fff', { kind: "style", target: el("Amount"), prop: "background-color", value: "#fff", negate: true }],
    [
      "web",
      'the "Amount" column of the row containing "Deposit" style color is green',
      { kind: "style", target: { kind: "cell", column: "Amount", rowAnchors: ["Deposit"] }, prop: "color", value: "green", negate: false },
    ],
    [
      "web",
      'the "Email" column of the row containing "John" and "Doe" shows john@example.com',
      { kind: "shows", target: { kind: "cell", column: "Email", rowAnchors: ["John", "Doe"] }, text: lit("john@example.com") },
    ],
    [
      "web",
      'the "Amount" field in the item containing "Invoice 4711" contains 50',
      {
        kind: "field_contains",
        target: { kind: "scoped", container: { kind: "item" }, anchors: ["Invoice 4711"], inner: text("Amount"), role: "field" },
        text: lit("50"),
      },
    ],
    [
      "web",
      'the "css:#total" in the iframe "checkout" shows Total 42.00',
      {
        kind: "shows",
        target: { kind: "framed", frame: { kind: "text", text: "checkout" }, inner: { kind: "css", selector: "#total" } },
        text: lit("Total 42.00"),
      },
    ],
    ["windows", 'the "Wrap" checkbox is checked', { kind: "checked", target: { ...el("Wrap"), role: "checkbox" }, negate: false }],
    ["windows", 'the "Graphics" is selected', { kind: "selected", target: el("Graphics"), negate: false }],
    ["web", 'the "Profile" is not selected', { kind: "selected", target: el("Profile"), negate: true }],
  ])("reads on %s: %s", (app, input, assertion) => {
    expect(parseAssertionText(slice(input), at(app))).toEqual({ ok: true, value: assertion });
  });

  test.each<[string, string, string, string]>([
    ["web", 'the 2nd "Row" appears 3 times', "refused-step", "ordinal cannot be counted"],
    ["web", 'the "A" in the item containing "X" appears 3 times', "unsupported-step", "cannot be scoped"],
    ["web", 'the "Row" appears 3', "unknown-step", "`appears <N> times`"],
    ["web", 'the "Row" appears many times', "unknown-step", "`appears <N> times`"],
    ["web", 'the "Row" appears thrice', "unknown-step", "`appears once`"],
    ["web", 'the 2nd "Row" appears once', "refused-step", "ordinal cannot be counted"],
    ["web", 'the "Terms" is checked', "unknown-step", "`checkbox` noun"],
    ["web", 'the "Username" field is huge', "unknown-step", "end with a predicate"],
    ["web", 'the "Username" field', "unknown-step", "end with a predicate"],
    ["web", 'the "Search" contains Berlin', "unknown-step", "`field` noun"],
    ["web", 'the "css:#status" does not show', "unknown-step", "needs the text that must be absent"],
    ["web", "local storage todos contains x", "unknown-step", 'local storage "todos" contains Walk the dog'],
    [
      "windows",
      'local storage "todos" contains x',
      "unsupported-step",
      "`storage` cannot be checked on a Windows program: it has no browser storage (grammar form `storage`)",
    ],
    ["web", 'local storage "todos" is empty', "unknown-step", "`does not exist`"],
    ["web", 'local storage "theme" contains exactly red', "unknown-step", 'local storage "theme" is exactly red'],
    ["web", "local storage has only todos", "unknown-step", "quoted"],
    ["windows", "no cookies are set", "unsupported-step", "it has no cookies (grammar form `cookie`)"],
    ["web", 'the "Total" shows a number bigger than 10', "unknown-step", "greater than"],
    ["web", 'the "Total" shows a number greater than ten', "unknown-step", "greater than"],
    ["windows", 'the "Total" shows a number greater than 10', "unsupported-step", "grammar form `exact_text`"],
    ["web", 'local storage "todos-${captured.x}" contains x', "bad-reference", "capture cannot name a storage key"],
    ["web", 'cookie "sid" is not abc123', "refused-step", "value cannot be asserted"],
    ["web", 'the "Search" contains exactly Berlin', "unknown-step", "`field` noun"],
    ["windows", 'the "Name" is focused', "unsupported-step", "grammar form `focus`"],
    ["sap", 'the "Total" shows exactly 42', "unsupported-step", "grammar form `exact_text`"],
    ["web", 'the "Link" attribute href is ${captured.x}', "bad-reference", "captures compare with `shows`"],
    ["web", 'the "X" style width is 10px', "refused-step", "not an allowed style property"],
    ["web", 'the "X" has css color red', "refused-step", "`has css`"],
    ["web", 'the "Total" shows ${captured.a} + ${captured.b}', "refused-step", "Arithmetic on captures"],
    ["web", 'the "Total" shows ${captured.a} * 2', "refused-step", "Arithmetic on captures"],
    ["web", 'the "id:a" is greater than the "id:b"', "unknown-step", "condition"],
    ["web", 'cookie "sid" is abc123', "refused-step", "value cannot be asserted"],
    ["web", 'cookie "sid" contains abc', "refused-step", "value cannot be asserted"],
    ["web", "cookie sid exists", "unknown-step", '`cookie "sid" exists`'],
    ["web", 'cookie "sid"', "unknown-step", "needs a fact"],
    ["windows", 'cookie "sid" exists', "unsupported-step", "it has no cookies (grammar form `cookie`)"],
    ["windows", "page url is /x", "unsupported-step", "`page url` cannot be checked on a Windows program: it has no page address (grammar form `page_url`)"],
    ["sap", 'the "A" attribute href is /x', "unsupported-step", "grammar form `attribute`"],
    ["web", "display shows 8", "unsupported-step", "calculator"],
    ["calc", "display shows eight", "unknown-step", "not a number"],
    ["web", "document contains hello", "unsupported-step", "Notepad"],
    ["web", "page shows", "unknown-step", "no text"],
    ["web", "page is slow", "unknown-step", "not a page assertion"],
    ["web", "Welcome is shown", "unknown-step", "matches no assertion"],
    ["web", "page shows X within 0s", "unknown-step", "more than 0"],
    ["web", 'the "Total" matching /\\d+/ shows 5', "refused-step", "pattern extraction"],
    ["web", "page shows ${date:today}", "refused-step", "date expression"],
    ["web", 'the 2nd "Total" in the iframe "checkout" shows 42.00', "refused-step", "iframe"],
  ])("rejects on %s: %s", (app, input, code, words) => {
    const r = parseAssertionText(slice(input), at(app));
    if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
    expect<string>(r.error.code).toBe(code);
    expect(`${r.error.message} ${r.error.hint}`).toContain(words);
  });

  test("points a refused style property at the property name", () => {
    const r = parseAssertionText(slice('the "X" style width is 10px'), at("web"));
    expect(r.ok ? [] : [r.error.offset, r.error.length]).toEqual([14, 5]);
  });
});
