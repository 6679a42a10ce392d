import { at } from "../../test/support/surfaces.ts";
import { describe, expect, test } from "bun:test";
import type { Target } from "./ast.ts";
import { parseTargetPrefix, parseWholeTarget, refuseFramedPointer } from "./target.ts";

const web = at("web");
const slice = (text: string) => ({ text, offset: 0 });
const text = (t: string) => ({ kind: "text", text: t }) as const;

describe("parseWholeTarget", () => {
  test.each<[string, Target]>([
    ['"Save"', { kind: "element", anchor: text("Save") }],
    ['the "Save"', { kind: "element", anchor: text("Save") }],
    ['the 2nd "Save"', { kind: "element", anchor: text("Save"), nth: 2 }],
    ['THE 10th "Row"', { kind: "element", anchor: text("Row"), nth: 10 }],
    ['the "Full name" field', { kind: "element", anchor: text("Full name"), role: "field" }],
    ['the "Save" Button', { kind: "element", anchor: text("Save"), role: "button" }],
    ['the "Docs" link', { kind: "element", anchor: text("Docs"), role: "link" }],
    ['the "Role" dropdown', { kind: "element", anchor: text("Role"), role: "dropdown" }],
    ['the "Terms" checkbox', { kind: "element", anchor: text("Terms"), role: "checkbox" }],
    ['"css:#save .x"', { kind: "element", anchor: { kind: "css", selector: "#save .x" } }],
    ['"id:wnd[0]/usr/ctxtVBAK-VBELN"', { kind: "element", anchor: { kind: "id", id: "wnd[0]/usr/ctxtVBAK-VBELN" } }],
    ["the name field", { kind: "element", anchor: { kind: "id", id: "name", bare: true }, role: "field" }],
    ["the submitButton button", { kind: "element", anchor: { kind: "id", id: "submitButton", bare: true }, role: "button" }],
    ["the id:15 field", { kind: "element", anchor: { kind: "id", id: "15", bare: true }, role: "field" }],
    ['the "${HOME}"', { kind: "element", anchor: text("${HOME}") }],
    ['the "Status" column of the row containing "Grace Hopper"', { kind: "cell", column: "Status", rowAnchors: ["Grace Hopper"] }],
    ['the "Status" column in the row containing "John" and "Doe"', { kind: "cell", column: "Status", rowAnchors: ["John", "Doe"] }],
    ['the "Pay" in the item containing "Invoice 4711"', { kind: "scoped", container: { kind: "item" }, anchors: ["Invoice 4711"], inner: text("Pay") }],
    [
      'the "Amount" field inside the item containing "Invoice 4711"',
      { kind: "scoped", container: { kind: "item" }, anchors: ["Invoice 4711"], inner: text("Amount"), role: "field" },
    ],
    [
      'the "Pay" in the item containing "John" and "Doe" and "Overdue"',
      { kind: "scoped", container: { kind: "item" }, anchors: ["John", "Doe", "Overdue"], inner: text("Pay") },
    ],
    ['the "Pay" in the item containing "A", "B"', { kind: "scoped", container: { kind: "item" }, anchors: ["A", "B"], inner: text("Pay") }],
    [
      'the "Ship" in the "css:.card" containing "Order 8801"',
      { kind: "scoped", container: { kind: "css", selector: ".card" }, anchors: ["Order 8801"], inner: text("Ship") },
    ],
    [
      'the "Ship" in the "id:orders" containing "Order 8801"',
      { kind: "scoped", container: { kind: "id", id: "orders" }, anchors: ["Order 8801"], inner: text("Ship") },
    ],
    ['the checkbox in the item containing "Buy milk"', { kind: "scoped", container: { kind: "item" }, anchors: ["Buy milk"], role: "checkbox" }],
    [
      'the 2nd button inside the "css:.card" containing "Order 8801"',
      { kind: "scoped", container: { kind: "css", selector: ".card" }, anchors: ["Order 8801"], role: "button", nth: 2 },
    ],
    ['the field in the item containing "A" and "B"', { kind: "scoped", container: { kind: "item" }, anchors: ["A", "B"], role: "field" }],
    ['the "Coupon" field in the iframe "checkout"', { kind: "framed", frame: { kind: "text", text: "checkout" }, inner: text("Coupon"), role: "field" }],
    [
      'the "css:#total" inside the iframe "css:iframe[title=checkout]"',
      { kind: "framed", frame: { kind: "css", selector: "iframe[title=checkout]" }, inner: { kind: "css", selector: "#total" } },
    ],
  ])("reads %s", (input, target) => {
    expect(parseWholeTarget(slice(input), web)).toEqual({ ok: true, value: target });
  });

  test.each(["the future", "Accounts", "the name", "", "hello world field"])("does not treat %j as a target", (input) => {
    expect(parseWholeTarget(slice(input), web)).toBeUndefined();
  });

  test.each<[string, string, string, string, number, number]>([
    ['the 2nd "Amount" in the item containing "X"', "web", "refused-step", "ordinal cannot address a scoped target", 4, 3],
    ['the "Amount" in the 2nd item containing "X"', "web", "refused-step", "ordinal cannot address a scoped container", 20, 3],
    ['the 2nd "Status" column of the row containing "X"', "web", "refused-step", "ordinal cannot address a scoped target", 4, 3],
    ['the "Status" column of the 3rd row containing "X"', "web", "refused-step", "ordinal cannot address a scoped row", 27, 3],
    ['the 2nd "Total" in the iframe "checkout"', "web", "refused-step", "ordinal cannot address an element inside an iframe", 4, 3],
    ['the "Total" in the iframe', "web", "unknown-step", "iframe must be named", 19, 6],
    ['the "A" in the item containing "X" in the iframe "f"', "web", "refused-step", "cannot be nested", 34, 18],
    ['the "A" column of the row containing "X" in the item containing "Y"', "web", "refused-step", "cannot be nested", 40, 27],
    ['the "A" in the iframe "f" in the item containing "Y"', "web", "refused-step", "cannot be nested", 25, 27],
    ['the "Pay" in the "Transaction" containing "X"', "web", "unknown-step", "is not a container", 17, 13],
    ['the "Pay" in the item', "web", "unknown-step", "needs `containing", 9, 12],
    ['the "Pay" in the row containing "X"', "web", "unknown-step", "column", 17, 3],
    ['the "Pay" in the morning', "web", "unknown-step", "is not a scope", 17, 7],
    ['the "Status" column of the table', "web", "unknown-step", "of the row containing", 27, 5],
    ["the ${captured.x} field", "web", "bad-reference", "a capture may only be typed or compared", 4, 13],
    ['the 0th "Save"', "web", "unknown-step", "start at 1", 4, 3],
    ["the checkbox", "web", "unknown-step", "only inside a scope", 4, 8],
    ['the checkbox in the iframe "f"', "web", "unsupported-step", "inside an iframe", 12, 18],
    ['the checkbox in the 2nd item containing "X"', "web", "refused-step", "ordinal cannot address a scoped container", 20, 3],
    ['the 0th checkbox in the item containing "X"', "web", "unknown-step", "start at 1", 4, 3],
    [
      'the "Pay" in the item containing "X"',
      "windows",
      "unsupported-step",
      "cannot be used on a Windows program: it has no item or container scopes (grammar form `container`)",
      9,
      27,
    ],
    ['the checkbox in the item containing "X"', "sap", "unsupported-step", "grammar form `container`", 12, 27],
    ['the "A" in the iframe "f"', "windows", "unsupported-step", "cannot be used on a Windows program: it has no iframes (grammar form `iframe`)", 7, 18],
    ['the "Save" field and more', "web", "unknown-step", "Unexpected text", 16, 9],
  ])("rejects %s on %s", (input, app, code, words, offset, length) => {
    const r = parseWholeTarget(slice(input), at(app));
    if (r === undefined || r.ok) throw new Error("expected an error");
    expect<string>(r.error.code).toBe(code);
    expect(`${r.error.message} ${r.error.hint}`).toContain(words);
    expect([r.error.offset, r.error.length]).toEqual([offset, length]);
  });
});

describe("parseTargetPrefix", () => {
  test("stops where the target ends so the step can read the rest", () => {
    const r = parseTargetPrefix(slice('the "Amount" field in the item containing "X" contains 50'), web);
    expect(r?.ok && r.value.end).toBe(45);
  });
  test("does not swallow an `and` that is not followed by a quoted anchor", () => {
    const r = parseTargetPrefix(slice('the "A" in the item containing "X" and more'), web);
    expect(r?.ok && r.value.end).toBe(34);
  });
});

describe("refuseFramedPointer", () => {
  test("refuses pointer actions on framed targets, citing isTrusted and suggesting Type", () => {
    const framed: Target = { kind: "framed", frame: { kind: "text", text: "f" }, inner: text("Pay") };
    const e = refuseFramedPointer(framed, "Click", slice('the "Pay" in the iframe "f"'))?.error;
    expect(e?.code).toBe("refused-step");
    expect(e?.message).toContain("isTrusted");
    expect(e?.hint).toContain("`Type");
  });
  test("lets unframed targets through", () => {
    expect(refuseFramedPointer({ kind: "element", anchor: text("Pay") }, "Click", slice('"Pay"'))).toBeUndefined();
  });
});
