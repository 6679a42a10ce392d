import { expect, test } from "bun:test";
import { checkShown, checkText } from "./surface-check.ts";

const shown = { title: "Payments - Fixture", text: "Payments - Fixture\nSave\nSaved ACME Ltd\nPay Pay Pay" };

test("a surface's title, what it shows (as written, else ignoring case, n times) and what it does not; other kinds are not answered", () => {
  expect(checkShown(shown, { kind: "title", op: "contains", value: "Payments" })).toEqual({ pass: true, actual: 'titled "Payments - Fixture"' });
  expect(checkShown(shown, { kind: "title", op: "equals", value: "Payments" })?.pass).toBe(false);
  expect(checkShown(shown, { kind: "text_contains", text: "saved acme" })?.pass).toBe(true);
  expect(checkShown(shown, { kind: "text_contains", text: "Pay", count: 3 })).toMatchObject({ pass: false, actual: expect.stringMatching(/^4 times in /) });
  expect(checkShown(shown, { kind: "text_absent", text: "Submit" })?.pass).toBe(true);
  expect(checkShown(shown, { kind: "url", op: "equals", value: "x" })).toBeUndefined();
});

test("a control's text: what it shows, whether it is empty, the number it reads, with the rung that named it; other kinds are not answered", () => {
  expect(checkText("ACME Ltd", { kind: "text_contains", text: "acme" }, "text_anchor")).toEqual({ pass: true, actual: '"ACME Ltd"', tier: "text_anchor" });
  expect(checkText("ACME Ltd", { kind: "text_absent", text: "ACME" })).toEqual({ pass: false, actual: '"ACME Ltd"' });
  expect(checkText("", { kind: "empty", empty: true })).toEqual({ pass: true, actual: "empty" });
  expect(checkText("x", { kind: "empty", empty: true })).toEqual({ pass: false, actual: '"x"' });
  expect(checkText("Total: 1,234.50", { kind: "numeric_equals", value: 1234.5 })?.pass).toBe(true);
  expect(checkText("Total", { kind: "numeric_equals", value: 0 })?.pass).toBe(false);
  expect(checkText("x", { kind: "checked", checked: true })).toBeUndefined();
});
