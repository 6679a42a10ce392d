// The desktop surfaces' part of the conformance suite as data: the form's native ids on each, and
// the gaps each declares with its reason. The in-memory runs (plugins/*/…conformance.test.ts) and
// the runs under Wine (test/e2e/*-conformance.test.ts, through test/fixtures/wine/conformance.ts)
// read the same entries, so a surface cannot pass with one set of excuses and fail with another.
import type { Expectations, FormIds } from "./form.ts";

/** test/fixtures/win32/fixture.c: the Name edit and the greeting label, by control id. */
export const WINDOWS_FORM_IDS: FormIds = { name: "101", greeting: "112" };

export const WINDOWS_GAPS: Expectations = {
  navigation: "a Windows app has no address to go to: its program starts with the flow",
  dialogs: "a Windows message box is a window the driver searches like any other: steps click its buttons, nothing is armed to answer it",
  cookies: "a desktop program keeps no browser cookies",
  pages: "a Windows app shows windows, not web pages",
  hover: "a desktop window has no hover (the `hover` capability)",
  drag: "Drag is web only",
  scroll: "a Windows control is acted on where it is; scrolling it into view is not implemented",
};

/** Transaction ZFORM of the SAP GUI fakes: the Name field and the greeting label, by scripting id. */
export const SAP_FORM_IDS: FormIds = { name: "wnd[0]/usr/txtZFORM-NAME", greeting: "wnd[0]/usr/lblZFORM-GREETING" };

export const SAP_GAPS: Expectations = {
  dialogs: "a SAP GUI popup is a window of the session (wnd[1]) that steps act in; nothing is armed to answer it",
  cookies: "SAP GUI keeps no browser cookies",
  pages: "SAP GUI shows screens of a session, not web pages",
  hover: "SAP GUI Scripting has no hover; a tooltip is read by an assertion",
  drag: "SAP GUI Scripting has no drag",
  scroll: "a SAP control is reached by its id whether shown or scrolled away; a table's rows are scrolled by its own keys",
};

/** A window seen only as pixels has no native ids: the form's controls are named by the text they show. */
export const VISION_FORM_IDS: FormIds = { name: "Name", greeting: "Waiting" };

export const VISION_GAPS: Expectations = {
  select: "a window's pixels show no list to choose from: a step clicks the dropdown's text, then the entry's",
  dialogs: "a dialog is more pixels: steps click its text, nothing is armed to answer it",
  cookies: "a window seen as pixels keeps no browser cookies",
  pages: "a vision app reads a window's pixels, not web pages",
  navigation: "a vision app attaches to a window that is already open: it has no address to go to",
  hover: "a vision app declares no hover: a pointer resting on text shows nothing OCR can hold a step to",
  "native-ids": "a window's pixels carry no control ids: a control is named by the text it shows",
  "control-states": "pixels do not say whether a button is enabled or a box is checked: a step clicks the text, and asserts what the window shows then",
  "unread-passwords": "pixels do not say which field is a password: what a masked field shows (its dots) is read as text",
  "password-masks": "pixels do not say which field is a password: the fields a secret was typed into, and the lines showing a secret of the run, are masked",
  drag: "a vision app has no drag",
  scroll: "a vision app acts on what the window shows; scrolling text into view is not implemented",
};
