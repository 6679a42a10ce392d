// What the Windows desktop kinds say in the rules grammar: the general forms a desktop window
// lacks, F-keys, the calculator's key words and `display shows`, Notepad's `document contains`.
// Data only: the grammar reads it from the parse context (docs/windows.md).
import { GRAMMAR_FORMS, type AdapterGrammar, type AssertionSugar } from "../../src/plugins/api.ts";
import { CALC_DISPLAY_ID, NOTEPAD_EDITOR_ID } from "./sugar.ts";

/** The three Windows kinds: any program, and the two with sugar of their own. */
export type AppFlavour = "windows" | "calc" | "notepad";
/** How messages name each kind (loaded without the driver, so a flow that never opens a window never loads it). */
export const TITLES: Readonly<Record<AppFlavour, string>> = { windows: "a Windows program", notepad: "Notepad", calc: "the Windows calculator" };

/**
 * Every Windows app kind: the web's page-level forms do not exist on a desktop window (its title
 * does: `page title is` / `contains` reads the main window's title), F-keys do.
 */
export const WINDOWS_GRAMMAR: AdapterGrammar = {
  lacks: GRAMMAR_FORMS.filter((form) => form !== "page_title"),
  cssHint: 'use the control\'s AutomationId, e.g. `Click "id:<AutomationId>"` such as `Click "id:saveButton"`',
  refusedVerbs: {
    verbs: ["Go to", "Go back", "Reload the page", "Resize the viewport", "Hover over", "Upload"],
    message: "`{verb}` cannot be done on {surface}: a desktop window has no page to go to, reload or resize, no hover and no file input.",
    hint: 'use `Click "File"` or a key chord such as `Press Alt+F` to reach the same control',
  },
  keys: { functionKeys: true },
};

/** `display shows <number>`: the calculator's result display, compared as a number. */
export const DISPLAY_SHOWS: AssertionSugar = {
  phrase: "display shows",
  value: "number",
  reads: { id: CALC_DISPLAY_ID },
  compare: "numeric_equals",
  example: "display shows 8",
  elsewhere: { what: "calculator sugar (app: calc)", hint: "write `page shows 8`" },
};

/** `document contains <text>`: Notepad's editor (its control id, else its only edit control). */
export const DOCUMENT_CONTAINS: AssertionSugar = {
  phrase: "document contains",
  value: "text",
  reads: { id: NOTEPAD_EDITOR_ID, fallback: { control_type: "edit" } },
  compare: "contains",
  example: "document contains hello",
  elsewhere: { what: "Notepad sugar (app: notepad)", hint: "write `page shows hello`" },
};

/** The calculator: operator words for `Press`, and `display shows`. */
export const CALC_GRAMMAR: AdapterGrammar = {
  ...WINDOWS_GRAMMAR,
  keys: {
    functionKeys: true,
    words: {
      plus: "plus",
      add: "plus",
      minus: "minus",
      subtract: "minus",
      times: "times",
      multiply: "times",
      divide: "divide",
      equals: "equals",
      equal: "equals",
      clear: "clear",
    },
    unknown: {
      message: "`{word}` is not a calculator key.",
      hint: 'press one of plus, minus, times, divide, equals, clear (e.g. `Press plus`), type digits with `Type 53`, or click a button with `Press the "Square root" button`',
    },
  },
  sugar: [DISPLAY_SHOWS],
};

/** Notepad: `document contains`. */
export const NOTEPAD_GRAMMAR: AdapterGrammar = { ...WINDOWS_GRAMMAR, sugar: [DOCUMENT_CONTAINS] };
