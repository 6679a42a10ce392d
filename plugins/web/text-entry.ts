// Typing text: into a field a ladder names (Fill; inside a frame the value is assigned and read
// back instead), or into whatever has keyboard focus. A secret's field is marked for masking
// before a key is sent, and nothing is typed when that fails.
import type { Attempt, Selector, TypeOptions } from "../../src/plugins/api.ts";
import { scopedPayloadOf } from "../../src/plugins/api.ts";
import type { Session } from "./cdp/connection.ts";
import { sendKeys, strokeEvents, typeWithin } from "./keyboard.ts";
import { fail, ok } from "./page-calls.ts";
import type { TypedSecrets } from "./typed-secrets.ts";

/** Whether an element other than the document itself has keyboard focus. */
export const HAS_FOCUS = "(() => { const a = document.activeElement; return !!a && a !== document.body && a !== document.documentElement; })()";

/** What typing needs of the page: its session, the secrets it masks, the field probe, a frame, a dialog that opened. */
export interface TextPage {
  readonly session: Session;
  readonly secrets: TypedSecrets;
  /** Assigns `value` to the field inside a frame (the page-side `assignValue`). */
  assign(ladder: readonly Selector[], value: string): Promise<Attempt>;
  /** Focuses the field for typing (the `focusForTyping` probe); `afterward` is evaluated with it once focused (its value in the answer's `afterward`). */
  focus(ladder: readonly Selector[], afterward?: string): Promise<Attempt<unknown>>;
  /** Whether the focus left the field just typed into before it got all `length` characters: the sentence, or undefined. */
  typingLost(length: number): Promise<string | undefined>;
  nextFrame(): Promise<void>;
  takeDialog(): Attempt<never> | undefined;
}

/** Replaces the text of the field `ladder` names with `text`. */
export async function fillField(page: TextPage, ladder: readonly Selector[], text: string, options: TypeOptions): Promise<Attempt> {
  // Inside a frame a value is assigned and read back, not typed (see docs/authoring.md, iframes).
  if (scopedPayloadOf(ladder[0])?.kind === "framed") {
    const assigned = await page.assign(ladder, text);
    if (options.secret && text !== "") await page.secrets.markField(page.session);
    return assigned;
  }
  // A password typed as written is looked for in the round trip that focuses the field.
  const passwordCheck = options.secret ? undefined : page.secrets.passwordCheck(text);
  const probe = await page.focus(ladder, passwordCheck);
  if (!probe.ok) return probe;
  if (options.secret && text !== "" && !(await page.secrets.markField(page.session)))
    return fail("editable", "the field a secret is typed into could not be marked for masking in frames; nothing was typed");
  if (passwordCheck !== undefined) page.secrets.passwordChecked(text, (probe.value as { afterward?: unknown } | undefined)?.afterward);
  if (text === "") await sendKeys(page.session, strokeEvents([{ key: "Backspace", modifiers: 0 }]));
  else {
    const late = await typeWithin(page.session, text, options.timeoutMs);
    if (late !== undefined) return fail("unsupported", late, false);
    // Keys that went elsewhere: the attempt is tried again (the field's text is replaced anew).
    const lost = await page.typingLost([...text].length);
    if (lost !== undefined) return page.takeDialog() ?? fail("editable", lost);
  }
  return page.takeDialog() ?? ok(undefined, probe.tier);
}

/** Types `text` into whatever has keyboard focus; fails at once when nothing does. */
export async function typeIntoFocus(page: TextPage, text: string, options: TypeOptions): Promise<Attempt> {
  const focused = async () => (await page.session.send("Runtime.evaluate", { expression: HAS_FOCUS, returnByValue: true })).result.value === true;
  // Focus a page moves itself (autofocus, a click handler) lands with the next frame; after that,
  // waiting cannot give the keystrokes a target, so the step fails at once.
  if (!(await focused())) {
    await page.nextFrame();
    if (!(await focused())) {
      return fail(
        "editable",
        'nothing has keyboard focus, so there is nothing to type into; name the field (`Type … into the "…" field`) or click a field first',
        false,
      );
    }
  }
  if (options.secret && !(await page.secrets.markField(page.session)))
    return fail("editable", "the element a secret is typed into could not be marked for masking in frames; nothing was typed");
  if (!options.secret) await page.secrets.notePassword(page.session, text);
  const late = await typeWithin(page.session, text, options.timeoutMs);
  return late !== undefined ? fail("unsupported", late, false) : (page.takeDialog() ?? ok(undefined));
}
