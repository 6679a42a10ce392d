// No step text makes the grammar backtrack: every parser, fed 10^5 characters of the shapes that
// make a regular expression super-linear behind the words that reach each of its forms, answers
// within the bound (docs/flow-format.md, "Limits").
import { describe, expect, test } from "bun:test";
import { at } from "../../test/support/surfaces.ts";
import { adversarialInputs, slowInputs } from "../../test/support/fuzz.ts";
import { parseAssertion, parseCondition, parseStep, parseTemplate } from "./index.ts";

const ctx = at("web");
const PREFIXES = [
  'Click "',
  'Click the 2nd "',
  "Type ",
  'Type a into the "',
  'Select a from the "',
  'Scroll "css:a" to ',
  "Wait until page shows ",
  'Remember the "',
  "Press ",
  'Drag "a" to "',
  "Go to ",
  "Upload ",
  "page shows ",
  "page does not show ",
  "page url contains ",
  'the "a" shows ',
  'the "a" appears ',
  "the ",
  "${captured.a} ",
  'Click "a" in the "',
];
const SUFFIXES = ['" field', " within 5s", " 3 times", " as a", '" is enabled'];
const AROUND = [
  ['Click "', '" field'],
  ['Type a into the "', '" field'],
  ["page shows ", " 3 times"],
  ['the "a" shows ', " within 5s"],
  ['Remember the "', '" as a'],
] as const;
const inputs = adversarialInputs(PREFIXES, SUFFIXES, AROUND);

describe("the grammar answers 10^5 characters of adversarial text in time", () => {
  test("steps", async () => expect(await slowInputs(inputs, (t) => parseStep(t, ctx))).toEqual([]), 600_000);
  test("assertions", async () => expect(await slowInputs(inputs, (t) => parseAssertion(t, ctx))).toEqual([]), 600_000);
  test("conditions", async () => expect(await slowInputs(inputs, (t) => parseCondition(t, ctx))).toEqual([]), 600_000);
  test("templates", async () => expect(await slowInputs(inputs, (t) => parseTemplate(t))).toEqual([]), 600_000);
});
