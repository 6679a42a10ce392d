import { expect, test } from "bun:test";
import { checkShown } from "./surface-check.ts";

const shown = { title: "Payments - Fixture", text: "Payments - Fixture\nSave\nSaved ACME Ltd\nPay Pay Pay" };

test("a surface's title, what it shows (as written, else ignoring case, n times) and what it does not; other kinds are not answered", () => {
  expect(checkShown(shown, { kind: "title", op: "contains", value: "Payments" })).toEqual({ pass: true, actual: 'titled "Payments - Fixture"' });
  expect(checkShown(shown, { kind: "title", op: "equals", value: "Payments" })?.pass).toBe(false);
  expect(checkShown(shown, { kind: "text_contains", text: "saved acme" })?.pass).toBe(true);
  expect(checkShown(shown, { kind: "text_contains", text: "Pay", count: 3 })).toMatchObject({ pass: false, actual: expect.stringMatching(/^4 times in /) });
  expect(checkShown(shown, { kind: "text_absent", text: "Submit" })?.pass).toBe(true);
  expect(checkShown(shown, { kind: "url", op: "equals", value: "x" })).toBeUndefined();
});
