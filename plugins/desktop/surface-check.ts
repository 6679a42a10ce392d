// A check of a whole desktop surface, the same on every one (a Windows app, SAP GUI, a window read
// as pixels, a project's own backend): its title (`equals` or `contains`), and what it shows by
// the one `page shows` rule of text.ts (as written, else ignoring case; `count` times). Pure.
import type { Expectation, Reading } from "../../src/plugins/api.ts";
import { clip } from "./match.ts";
import { shows, showsTimes } from "./text.ts";

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
