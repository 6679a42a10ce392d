import { describe, expect, test } from "bun:test";
import { parseAssertion, parseStep } from "../../test/support/grammar.ts";
import { CALC_GRAMMAR, NOTEPAD_GRAMMAR, WINDOWS_GRAMMAR } from "./grammar.ts";

const ctx = (name: string, grammar: typeof WINDOWS_GRAMMAR) => ({ surface: { name, ...grammar } });
const error = (r: { ok: boolean; error?: { message: string } }) => (r.ok ? "ok" : r.error!.message);

describe("the Windows kinds' grammar", () => {
  test("lacks the web's page-level forms and refuses what the driver cannot do yet", () => {
    expect(error(parseStep('Click "css:#save"', ctx("windows", WINDOWS_GRAMMAR)))).toBe(
      "A `css:` selector cannot be used on windows: it has no CSS selectors (grammar form `css`).",
    );
    expect(error(parseStep('Hover over "File"', ctx("windows", WINDOWS_GRAMMAR)))).toBe(
      "`Hover over` cannot be done on windows: a desktop window has no page to go to, reload or resize, no hover and no file input.",
    );
    expect(error(parseStep("Go back", ctx("notepad", NOTEPAD_GRAMMAR)))).toBe(
      "`Go back` cannot be done on notepad: a desktop window has no page to go to, reload or resize, no hover and no file input.",
    );
    expect(error(parseAssertion("page url contains /x", ctx("calc", CALC_GRAMMAR)))).toBe(
      "`page url` cannot be checked on calc: it has no page address (grammar form `page_url`).",
    );
  });

  test("presses F-keys, and the calculator's operator words", () => {
    expect(parseStep("Press Alt+F4", ctx("windows", WINDOWS_GRAMMAR))).toEqual({ ok: true, value: { kind: "press_key", key: "F4", modifiers: ["alt"] } });
    expect(parseStep("Press add", ctx("calc", CALC_GRAMMAR))).toEqual({ ok: true, value: { kind: "press_key", key: "plus", modifiers: [] } });
    expect(error(parseStep("Press bogus", ctx("calc", CALC_GRAMMAR)))).toBe("`bogus` is not a calculator key.");
  });

  test("the calculator reads its display as a number, Notepad its editor", () => {
    expect(parseAssertion("display shows 8", ctx("calc", CALC_GRAMMAR))).toMatchObject({
      ok: true,
      value: { kind: "app_sugar", reads: { id: "CalculatorResults" }, compare: "numeric_equals", text: "8" },
    });
    expect(error(parseAssertion("display shows eight", ctx("calc", CALC_GRAMMAR)))).toBe("`eight` is not a number for `display shows`.");
    expect(parseAssertion("document contains hi", ctx("notepad", NOTEPAD_GRAMMAR))).toMatchObject({
      ok: true,
      value: { reads: { id: "15", fallback: { control_type: "edit" } }, compare: "contains" },
    });
  });
});

describe("the window's title", () => {
  test("`page title is` and `page title contains` read the main window's title on every Windows kind; `page url` stays web-only", () => {
    for (const [name, grammar] of [
      ["windows", WINDOWS_GRAMMAR],
      ["notepad", NOTEPAD_GRAMMAR],
      ["calc", CALC_GRAMMAR],
    ] as const) {
      expect(parseAssertion("page title is Untitled - Notepad", ctx(name, grammar))).toMatchObject({ ok: true, value: { kind: "page_title", op: "is" } });
      expect(parseAssertion("page title contains Notepad", ctx(name, grammar))).toMatchObject({ ok: true, value: { kind: "page_title", op: "contains" } });
      expect(parseAssertion("page url is /x", ctx(name, grammar))).toMatchObject({ ok: false });
    }
  });
});
