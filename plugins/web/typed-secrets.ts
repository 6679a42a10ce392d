// What a page's frames must mask because of what the flow typed: the fields secrets went into
// (marked in the page) and passwords typed as written. A field that could not be marked makes
// every later frame's secret-field rects fail, so no frame is recorded unmasked.
import type { RectTarget, RectsAnswer } from "../../src/plugins/api.ts";
import type { Session } from "./cdp/connection.ts";
import { pageRects } from "./capture.ts";
import { MARK_PASSWORD_FIELD, MARK_SECRET_FIELD, rectsExpression } from "./redaction-rects.ts";

/** A page reached through another protocol (WebDriver BiDi): an expression evaluated there, its value as plain data. */
export type PageEval = (expression: string) => Promise<unknown>;

/** Runs `expression` in the page (a CDP session or a PageEval); undefined when it failed. */
async function evaluateIn(page: Session | PageEval, expression: string): Promise<unknown> {
  if (typeof page === "function") return page(expression).catch(() => undefined);
  const res = await page.send("Runtime.evaluate", { expression, returnByValue: true }).catch(() => undefined);
  return res?.result.value;
}

/** `pageRects` through a PageEval: the same one query, typed passwords counted as secret fields. */
async function rectsVia(evaluate: PageEval, targets: readonly RectTarget[], typedPasswords: readonly string[]): Promise<RectsAnswer[]> {
  const extra = typedPasswords.length > 0 && targets.some((t) => "secretFields" in t) ? [{ secretText: typedPasswords }] : [];
  const answers = (await evaluate(rectsExpression([...targets, ...extra]))) as RectsAnswer[] | undefined;
  if (!Array.isArray(answers)) return targets.map(() => ({ ok: false, detail: "the page could not be read" }));
  if (extra.length === 0) return answers;
  const shown = answers.pop()!;
  return answers.map((a, i): RectsAnswer => {
    if (!("secretFields" in targets[i]!) || !a.ok) return a;
    return shown.ok ? { ok: true, rects: [...a.rects, ...shown.rects] } : { ok: false, detail: `a password typed as written: ${shown.detail}` };
  });
}

export class TypedSecrets {
  /** A secret was typed into a field that could not be marked: no frame can be masked safely. */
  #untracked = false;
  /** Passwords typed as written (not from a `${VAR}`): masked wherever the page shows them too. */
  readonly #passwords = new Set<string>();

  /**
   * Remembers the focused field as holding a secret, so every frame masks it until it is cleared
   * or gone. When that fails, redaction can no longer be guaranteed: every later frame is dropped.
   */
  async markField(session: Session | PageEval): Promise<boolean> {
    const marked = (await evaluateIn(session, MARK_SECRET_FIELD)) === true;
    if (!marked) this.#untracked = true;
    return marked;
  }

  /** A password typed as written into the focused password field: masked wherever the page shows it (see pageRects). */
  async notePassword(session: Session | PageEval, text: string): Promise<void> {
    const expression = this.passwordCheck(text);
    if (expression === undefined) return;
    this.passwordChecked(text, await evaluateIn(session, expression));
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
  async rectsFor(session: Session | PageEval, targets: readonly RectTarget[]): Promise<RectsAnswer[]> {
    const answers =
      typeof session === "function" ? await rectsVia(session, targets, [...this.#passwords]) : await pageRects(session, targets, [...this.#passwords]);
    if (!this.#untracked) return answers;
    return answers.map((a, i) => ("secretFields" in targets[i]! ? { ok: false, detail: "a field a secret was typed into could not be tracked" } : a));
  }
}
