// Checks the same on every desktop surface (a Windows app, SAP GUI, a window read as pixels, a
// project's own backend): of the whole surface, its title (`equals` or `contains`) and what it
// shows by the one `page shows` rule of text.ts (as written, else ignoring case; `count` times);
// of one control, what its text shows, whether it is empty, the number it reads. Pure.
import type { Expectation, Reading } from "../../src/plugins/api.ts";
import { clip } from "./match.ts";
import { readNumber, shows, showsTimes } from "./text.ts";

/** What a surface shows now: its main window's title and its text (every label and value, never a password's). */
export interface ShownSurface {
  readonly title: string;
  readonly text: string;
}

/**
 * The reading of `expect` on the surface, for the kinds every desktop surface answers (`title`,
 * `text_contains` with or without `count`, `text_absent`); undefined for any other kind.
 */
export function checkShown(shown: ShownSurface, expect: Expectation): Reading | undefined {
  switch (expect.kind) {
    case "title": {
      const title = shown.title;
      return { pass: expect.op === "equals" ? title === expect.value : title.includes(expect.value), actual: `titled ${JSON.stringify(title)}` };
    }
    case "text_contains": {
      if (expect.count === undefined) return { pass: shows(shown.text, expect.text), actual: clip(shown.text) };
      const { pass, seen } = showsTimes(shown.text, expect.text, expect.count);
      return { pass, actual: `${seen} times in ${JSON.stringify(clip(shown.text))}` };
    }
    case "text_absent":
      return { pass: !shows(shown.text, expect.text), actual: clip(shown.text) };
    default:
      return undefined;
  }
}

/**
 * The reading of `expect` on a control's text (a field's value, a label's name, what OCR read
 * there), for the kinds answered from text alone (`text_contains`, `text_absent`, `empty`,
 * `numeric_equals`); undefined for any other kind. `tier` is the rung that named the control.
 */
export function checkText(text: string, expect: Expectation, tier?: string): Reading | undefined {
  const reading = (pass: boolean, actual: string): Reading => (tier === undefined ? { pass, actual } : { pass, actual, tier });
  switch (expect.kind) {
    case "text_contains":
      return reading(shows(text, expect.text), JSON.stringify(text));
    case "text_absent":
      return reading(!shows(text, expect.text), JSON.stringify(text));
    case "empty":
      return reading((text === "") === expect.empty, text === "" ? "empty" : JSON.stringify(text));
    case "numeric_equals": {
      const n = readNumber(text);
      return reading(n !== undefined && Math.abs(n - expect.value) < 1e-9, JSON.stringify(text));
    }
    default:
      return undefined;
  }
}
