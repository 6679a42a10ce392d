// What a page's frames must mask because of what the flow typed: the fields secrets went into
// (marked in the page) and passwords typed as written. A field that could not be marked makes
// every later frame's secret-field rects fail, so no frame is recorded unmasked.
import type { RectTarget, RectsAnswer } from "../../src/plugins/api.ts";
import type { Session } from "./cdp/connection.ts";
import { pageRects } from "./capture.ts";
import { MARK_PASSWORD_FIELD, MARK_SECRET_FIELD } from "./redaction-rects.ts";

export class TypedSecrets {
  /** A secret was typed into a field that could not be marked: no frame can be masked safely. */
  #untracked = false;
  /** Passwords typed as written (not from a `${VAR}`): masked wherever the page shows them too. */
  readonly #passwords = new Set<string>();

  /**
   * Remembers the focused field as holding a secret, so every frame masks it until it is cleared
   * or gone. When that fails, redaction can no longer be guaranteed: every later frame is dropped.
   */
  async markField(session: Session): Promise<boolean> {
    const res = await session.send("Runtime.evaluate", { expression: MARK_SECRET_FIELD, returnByValue: true }).catch(() => undefined);
    const marked = res?.result.value === true;
    if (!marked) this.#untracked = true;
    return marked;
  }

  /** A password typed as written into the focused password field: masked wherever the page shows it (see pageRects). */
  async notePassword(session: Session, text: string): Promise<void> {
    const expression = this.passwordCheck(text);
    if (expression === undefined) return;
    const res = await session.send("Runtime.evaluate", { expression, returnByValue: true }).catch(() => undefined);
    this.passwordChecked(text, res?.result.value);
  }

  /**
   * The page expression that marks the focused field when it is a password field (true then), for
   * `text` typed as written; undefined when the text is too short to mask. Sent in the round trip
   * that focuses the field, its answer goes to passwordChecked.
   */
  passwordCheck(text: string): string | undefined {
    return text.trim().length < 3 ? undefined : MARK_PASSWORD_FIELD;
  }

  /** The answer of passwordCheck's expression: `text` went into a password field when it is true. */
  passwordChecked(text: string, answer: unknown): void {
    if (answer === true) this.#passwords.add(text);
  }

  /** The page rects of `targets`, with the typed passwords masked; secret fields fail once one went untracked. */
  async rectsFor(session: Session, targets: readonly RectTarget[]): Promise<RectsAnswer[]> {
    const answers = await pageRects(session, targets, [...this.#passwords]);
    if (!this.#untracked) return answers;
    return answers.map((a, i) => ("secretFields" in targets[i]! ? { ok: false, detail: "a field a secret was typed into could not be tracked" } : a));
  }
}
