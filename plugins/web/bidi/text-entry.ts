// Typing text in Firefox: into a field a ladder names (inside a frame the value is assigned and
// read back instead), or into whatever has keyboard focus. A secret's field is marked for masking
// before a key is sent, and nothing is typed when that fails (as on Chromium, text-entry.ts).
import type { Attempt, Selector, TypeOptions } from "../../../src/plugins/api.ts";
import { scopedPayloadOf } from "../../../src/plugins/api.ts";
import { fail, ok } from "../page-calls.ts";
import { HAS_FOCUS } from "../text-entry.ts";
import type { PageEval, TypedSecrets } from "../typed-secrets.ts";
import type { BidiInput } from "./input.ts";

/** How long typing may take once its field has focus when the engine names no bound. */
const TYPING_TIMEOUT_MS = 35_000;

export interface FirefoxTextPage {
  readonly input: BidiInput;
  readonly secrets: TypedSecrets;
  readonly evaluate: PageEval;
  assign(ladder: readonly Selector[], value: string): Promise<Attempt>;
  /** Focuses the field for typing; `afterward` is evaluated with it once focused (its value in the answer's `afterward`). */
  focus(ladder: readonly Selector[], afterward?: string): Promise<Attempt<unknown>>;
  /** Whether the focus left the field just typed into before it got all `length` characters: the sentence, or undefined. */
  typingLost(length: number): Promise<string | undefined>;
  nextFrame(): Promise<void>;
  afterInput(): Promise<void>;
  takeDialog(): Attempt<never> | undefined;
}

/**
 * Inserts `text` where the keyboard focus is, as a paste would (one `input` event, no key events;
 * Chromium's `Input.insertText`), through the editing command of the focused document (a
 * same-origin frame's when the focus is inside one). True when the text went in.
 */
export const insertTextExpression = (text: string): string =>
  `(() => { let d = document; for (;;) { const a = d.activeElement; if (!a || a.tagName !== "IFRAME") break; let inner = null; try { inner = a.contentDocument; } catch {} if (!inner) break; d = inner; } return d.execCommand("insertText", false, ${JSON.stringify(text)}) === true; })()`;

async function typeBounded(page: FirefoxTextPage, text: string, timeoutMs = TYPING_TIMEOUT_MS): Promise<string | undefined> {
  const insert = async (piece: string) => (await page.evaluate(insertTextExpression(piece)).catch(() => false)) === true;
  const r = await page.input.type(text, timeoutMs, insert);
  if (r.done) return undefined;
  const total = [...text].length;
  return `typing ${total} characters did not finish within ${timeoutMs} ms (${r.typed} of ${total} typed): the page took too long to take the input, so flowproof stopped typing`;
}

/** Replaces the text of the field `ladder` names with `text`. */
export async function fillFirefoxField(page: FirefoxTextPage, ladder: readonly Selector[], text: string, options: TypeOptions): Promise<Attempt> {
  if (scopedPayloadOf(ladder[0])?.kind === "framed") {
    const assigned = await page.assign(ladder, text);
    if (options.secret && text !== "") await page.secrets.markField(page.evaluate);
    return assigned;
  }
  // Whether the field is a password field is asked in the round trip that focuses it.
  const passwordCheck = options.secret ? undefined : page.secrets.passwordCheck(text);
  const probe = await page.focus(ladder, passwordCheck);
  if (!probe.ok) return probe;
  if (options.secret && text !== "" && !(await page.secrets.markField(page.evaluate)))
    return fail("editable", "the field a secret is typed into could not be marked for masking in frames; nothing was typed");
  if (passwordCheck !== undefined) page.secrets.passwordChecked(text, (probe.value as { afterward?: unknown } | undefined)?.afterward);
  if (text === "") await page.input.press("Backspace", []);
  else {
    const late = await typeBounded(page, text, options.timeoutMs);
    if (late !== undefined) return fail("unsupported", late, false);
    // Keys that went elsewhere: the attempt is tried again (the field's text is replaced anew).
    const lost = await page.typingLost([...text].length);
    if (lost !== undefined) {
      await page.afterInput();
      return page.takeDialog() ?? fail("editable", lost);
    }
  }
  await page.afterInput();
  return page.takeDialog() ?? ok(undefined, probe.tier);
}

/** Types `text` into whatever has keyboard focus; fails at once when nothing does. */
export async function typeIntoFirefoxFocus(page: FirefoxTextPage, text: string, options: TypeOptions): Promise<Attempt> {
  const focused = async () => (await page.evaluate(HAS_FOCUS).catch(() => false)) === true;
  if (!(await focused())) {
    await page.nextFrame();
    if (!(await focused()))
      return fail(
        "editable",
        'nothing has keyboard focus, so there is nothing to type into; name the field (`Type … into the "…" field`) or click a field first',
        false,
      );
  }
  if (options.secret && !(await page.secrets.markField(page.evaluate)))
    return fail("editable", "the element a secret is typed into could not be marked for masking in frames; nothing was typed");
  if (!options.secret) await page.secrets.notePassword(page.evaluate, text);
  const late = await typeBounded(page, text, options.timeoutMs);
  if (late !== undefined) return fail("unsupported", late, false);
  await page.afterInput();
  return page.takeDialog() ?? ok(undefined);
}
