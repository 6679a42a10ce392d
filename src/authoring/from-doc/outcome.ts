// What each manual step becomes in the draft, decided without a model where the text allows: a
// `rules:` step when it parses, a TODO marker when it acts in another app or is refused by the
// grammar, else a step left for the model to translate (or, without one, for `record` to ground).
// Pure: the grammar is the only judge.
import { parseAssertion, parseStep, type ParseContext } from "../../grammar/index.ts";
import { anotherApp } from "./other-app.ts";
import type { SourceStep } from "./segment.ts";

export type StepOutcome = "rules" | "translated" | "intent" | "another-app" | "refused";
export type ExpectedOutcome = "assert" | "translated" | "todo" | "another-app";

export interface DraftExpected {
  readonly outcome: ExpectedOutcome;
  /** The assertion (`assert`, `translated`). */
  readonly assert?: string;
  readonly anotherApp?: string;
}

export interface DraftStep {
  readonly source: SourceStep;
  readonly outcome: StepOutcome;
  /** The `rules:` steps (`rules`, `translated`). */
  readonly rules?: readonly string[];
  /** The plain step `record` grounds (`intent`). */
  readonly intent?: string;
  readonly anotherApp?: string;
  /** The grammar's reason and what to write instead (`refused`). */
  readonly refusal?: { readonly message: string; readonly hint: string };
  readonly expected?: DraftExpected;
  /** Why a translation or a rules step was not kept, for the reviewer. */
  readonly note?: string;
}

/** What is left for the model after the first pass. */
export interface Pending {
  readonly action: boolean;
  readonly expected: boolean;
}

/** A model's translation of one step, already checked against the grammar (translate.ts). */
export interface Translation {
  readonly rules?: readonly string[];
  readonly assert?: string;
  readonly anotherApp?: string;
  readonly note?: string;
}

/** The action as one line: a separate data cell follows it, since the action alone is not what to do. */
export const actionText = (s: SourceStep): string => (s.data ? `${s.action} (data: ${s.data})` : s.action);

/** The first, model-free pass over one step; `title` is how the app's adapter names it ("SAP GUI"), beside its kind. */
export function firstPass(
  step: SourceStep,
  app: string,
  grammar: ParseContext = { surface: { name: app } },
  title?: string,
): { draft: DraftStep; pending: Pending } {
  const text = actionText(step);
  const self = title === undefined ? [app] : [app, title];
  const other = anotherApp(text, self);
  const expectedTodo = step.expected !== undefined ? { expected: { outcome: "todo" as const } } : {};
  if (other) return { draft: { source: step, outcome: "another-app", anotherApp: other, ...expectedTodo }, pending: { action: false, expected: false } };
  const parsed = parseStep(text, grammar);
  if (!parsed.ok && parsed.error.code === "refused-step") {
    return {
      draft: { source: step, outcome: "refused", refusal: { message: parsed.error.message, hint: parsed.error.hint }, ...expectedTodo },
      pending: { action: false, expected: false },
    };
  }
  // A form the grammar knows but cannot run on this app kind (`Press F5` on the web) says what to write instead.
  const unsupported =
    !parsed.ok && parsed.error.code === "unsupported-step" ? { note: `the grammar: ${parsed.error.message} Write instead: ${parsed.error.hint}` } : {};
  const action: Pick<DraftStep, "outcome" | "rules" | "intent" | "note"> = parsed.ok
    ? { outcome: "rules", rules: [text] }
    : { outcome: "intent", intent: text, ...unsupported };
  let expected: DraftExpected | undefined;
  let expectedPending = false;
  if (step.expected !== undefined) {
    const otherExpected = anotherApp(step.expected, self);
    if (otherExpected) expected = { outcome: "another-app", anotherApp: otherExpected };
    else if (parseAssertion(step.expected, grammar).ok) expected = { outcome: "assert", assert: step.expected };
    else {
      expected = { outcome: "todo" };
      expectedPending = true;
    }
  }
  return { draft: { source: step, ...action, ...(expected ? { expected } : {}) }, pending: { action: !parsed.ok, expected: expectedPending } };
}

/** The step with a model's translation applied; what it did not translate stays as it was. */
export function applyTranslation(draft: DraftStep, pending: Pending, t: Translation): DraftStep {
  if (t.anotherApp)
    return { source: draft.source, outcome: "another-app", anotherApp: t.anotherApp, ...(draft.expected ? { expected: { outcome: "todo" } } : {}) };
  const { intent: _intent, note: _note, ...rest } = draft;
  const action = pending.action && t.rules && t.rules.length > 0 ? { ...rest, outcome: "translated" as const, rules: t.rules } : draft;
  const expected = pending.expected && t.assert ? { expected: { outcome: "translated" as const, assert: t.assert } } : {};
  return { ...action, ...expected, ...(t.note ? { note: t.note } : {}) };
}
