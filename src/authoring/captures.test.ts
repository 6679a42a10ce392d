import { describe, expect, test } from "bun:test";
import { ambiguousPronoun } from "./captures.ts";

describe("ambiguousPronoun", () => {
  test.each<[string, string[], string | undefined]>([
    ['Enter it in the "Confirmation" field', ["order_number", "customer_number"], "it"],
    ['Enter it in the "Confirmation" field', ["order_number"], undefined],
    ['Enter the order number in the "Confirmation" field', ["order_number", "customer_number"], undefined],
    ["Type them into the search box", ["a", "b"], "them"],
    ["Submit the form", ["a", "b"], undefined],
    ["Enter it as the orderId", ["orderId", "customer_id"], undefined],
  ])("%s with %o → %s", (step, captures, expected) => {
    expect(ambiguousPronoun(step, captures)).toBe(expected);
  });
});
