import { describe, expect, test } from "bun:test";
import { parseAssertion, parseStep } from "../grammar/index.ts";
import type { StepAst } from "../grammar/ast.ts";
import { neededCapabilities } from "./capabilities.ts";

const CTX = { surface: { name: "any" } };
const step = (text: string): StepAst => {
  const r = parseStep(text, CTX);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const assertion = (text: string): StepAst => {
  const r = parseAssertion(text, CTX);
  if (!r.ok) throw new Error(r.error.message);
  return { kind: "assert", assertion: r.value };
};

describe("neededCapabilities", () => {
  test.each<[string, StepAst, string[]]>([
    ["a click", step('Click "Save"'), ["pointer"]],
    ["a button press", step('Press the "Save" button'), ["pointer"]],
    ["a double-click", step('Double-click "Row 1"'), ["pointer"]],
    ["a right-click", step('Right-click "Row 1"'), ["pointer"]],
    ["a click at a point", step('Click "Map" at 10%,20%'), ["pointer"]],
    ["a click answering a dialog", step('Click "Delete", accepting the dialog'), ["pointer", "dialogs"]],
    ["a hover", step('Hover over "Menu"'), ["pointer", "hover"]],
    ["a drag", step('Drag "Card" onto "Done"'), ["pointer", "drag"]],
    ["ticking a checkbox (the surface's own)", step('Check the "Agree" checkbox'), []],
    ["typing into a named field", step('Type Ada into the "Name" field'), []],
    ["typing into whatever has focus", step("Type Ada"), ["keyboard"]],
    ["a key", step("Press Enter"), ["keyboard"]],
    ["a selection", step('Select Red from the "Colour" dropdown'), ["select"]],
    ["a destination", step("Go to /orders"), ["navigation"]],
    ["an upload", step('Upload a.png into the "Avatar" field'), ["upload"]],
    ["a scroll", step("Scroll to the bottom"), ["scroll"]],
    ["a download", step("Wait until the download completes as report"), ["downloads"]],
    ["a cookie", assertion('cookie "sid" exists'), ["cookies"]],
    ["the page's address", assertion("page url contains /orders"), ["navigation"]],
    ["what the page shows", assertion("page shows Saved"), []],
  ])("%s", (_what, ast, needed) => {
    expect(neededCapabilities(ast)).toEqual(needed);
  });
});
