// Public face of the rules grammar: step text → typed AST or a typed GrammarError.
// Pure: no fs, clock, env or network, and it never throws (see docs/authoring.md).

import { parseAction } from "./action.ts";
import { parseAssertionText } from "./assertion.ts";
import type { Assertion, Condition, ParseContext, ParseResult, StepAst, Template } from "./ast.ts";
import { parseConditionText } from "./condition.ts";
import { failAt, trimSlice, type Slice } from "./result.ts";
import { parseTemplate as parseTemplateRaw } from "./template.ts";

export type * from "./ast.ts";

type Parser<T> = (s: Slice, ctx: ParseContext) => ParseResult<T>;

/** Trims, refuses empty text, and turns any internal surprise into `unknown-step` naming the step. */
function guarded<T>(text: string, ctx: ParseContext, what: string, example: string, parse: Parser<T>): ParseResult<T> {
  const s = trimSlice({ text, offset: 0 });
  if (s.text === "") return failAt("unknown-step", `The ${what} is empty.`, `write a ${what}, e.g. \`${example}\``, { text, offset: 0 });
  try {
    return parse(s, ctx);
  } catch (cause) {
    // Never throw at the caller: the grammar's contract is a typed result for every input.
    const detail = cause instanceof Error ? cause.message : String(cause);
    return failAt(
      "unknown-step",
      `\`${s.text}\` could not be parsed (internal error: ${detail}).`,
      `rewrite the ${what} in a documented form, e.g. \`${example}\``,
      s,
    );
  }
}

/**
 * Parses the text of a `rules:` step (or a plain step under `--author rules`) into an action.
 * Accepts `Wait until page shows …` and `Wait until the download completes as …`; the text of
 * an `assert:` step goes to {@link parseAssertion}.
 *
 * @example parseStep('Type Ada into the "Full name" field', { surface: { name: "web" } })
 * @see docs/authoring.md
 */
export function parseStep(text: string, ctx: ParseContext): ParseResult<StepAst> {
  return guarded(text, ctx, "step", 'Click "Save"', parseAction);
}

/**
 * Parses the text of an `assert:` step. A trailing `within <N>s` becomes `timeoutMs`.
 *
 * @example parseAssertion('the "Save" is enabled within 15s', { surface: { name: "web" } })
 * @see docs/authoring.md
 */
export function parseAssertion(text: string, ctx: ParseContext): ParseResult<Assertion> {
  return guarded(text, ctx, "assertion", "page shows Welcome", parseAssertionText);
}

/**
 * Parses a `repeat: until:` or `when:` condition; forms other than page shows / does not show,
 * `the "…" shows`, `is [not] visible` and `is greater|less than` are refused by name.
 *
 * @example parseCondition('the "id:button" shows Enough', { surface: { name: "web" } })
 */
export function parseCondition(text: string, ctx: ParseContext): ParseResult<Condition> {
  return guarded(text, ctx, "condition", "page shows Done", parseConditionText);
}

/**
 * Parses `${VAR}` (environment) and `${captured.name}` references in authored text.
 * Error offsets are 0-based into `raw`.
 *
 * @example parseTemplate("order-${captured.oid}")
 */
export function parseTemplate(raw: string): ParseResult<Template> {
  try {
    return parseTemplateRaw(raw);
  } catch (cause) {
    // Same contract as the step parsers: a typed result, never an exception.
    const detail = cause instanceof Error ? cause.message : String(cause);
    return failAt("bad-reference", `\`${raw}\` could not be parsed (internal error: ${detail}).`, "write `${NAME}` or `${captured.name}`", {
      text: raw,
      offset: 0,
    });
  }
}
