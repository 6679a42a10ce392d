import { describe, expect, test } from "bun:test";
import { collapse, editDistance, labelText, showsFuzzy } from "./text.ts";

describe("text", () => {
  test("collapses whitespace and drops a label's trailing colon", () => {
    expect(collapse("  Saved \n ACME\tLtd ")).toBe("Saved ACME Ltd");
    expect(labelText("Payee :")).toBe("Payee");
    expect(labelText("Payee:")).toBe("Payee");
    expect(labelText("a:b")).toBe("a:b");
  });

  test.each([
    ["Save", "Save", 0],
    ["Save", "Sav", 1],
    ["Save", "Submit", 5],
    ["", "abc", 3],
    ["kitten", "sitting", 3],
  ])("edit distance of %p and %p is %p", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });

  test("finds a text allowing one misread character in five, and only whole stretches for short ones", () => {
    expect(showsFuzzy("Token hunter2-Secret", "hunter2-Secret")).toBe(true);
    expect(showsFuzzy("Token hunter2-Secrel", "hunter2-Secret")).toBe(true);
    expect(showsFuzzy("Token huntcr2-Secrel", "hunter2-Secret")).toBe(true);
    expect(showsFuzzy("Token hxxtxx2-Sxxret", "hunter2-Secret")).toBe(false);
    expect(showsFuzzy("Pay", "Pan")).toBe(false);
    expect(showsFuzzy("anything", "")).toBe(false);
  });
});
