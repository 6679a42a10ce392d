// One model call per manual step the grammar did not take: the model rewrites the step (and its
// expected result) in the rules grammar; every line it answers is parsed, and a reply that does
// not parse gets one retry carrying the parser's errors. The model never sees the app, and never
// a password: the step text it is given already holds `${VAR}` references.
import { parseAssertion, parseStep, type ParseContext } from "../../grammar/index.ts";
import type { ChatMessage, ModelClient } from "../provider.ts";
import { actionText, type Pending, type Translation } from "./outcome.ts";
import type { SourceStep } from "./segment.ts";

/** The forms the model is shown, each parsed by this module's test against the grammar. */
export const GRAMMAR_ACTIONS: readonly string[] = [
  "Go to /login",
  "Go to https://shop.example.com/cart",
  'Click "Sign in"',
  'Press the "Save" button',
  'Type Ada Lovelace into the "Full name" field',
  'Type ${PASSWORD} into the "Password" field',
  'Clear the "Search" field',
  'Replace the "Quantity" field with 2',
  'Select Express from the "Shipping" dropdown',
  'Check the "Remember me" checkbox',
  'Uncheck the "Newsletter" checkbox',
  "Press Enter",
  "Press Control+A",
  'Hover over "Account"',
  'Double-click "Row 1"',
  'Right-click "Invoice 4711"',
  "Scroll to the bottom",
  "Wait until page shows Order placed",
  'Remember the "css:#order-id" as order_id',
  'Click "Delete", accepting the "Are you sure?" dialog',
  'Click the "Edit" in the item containing "Invoice 4711"',
];
export const GRAMMAR_ASSERTIONS: readonly string[] = [
  "page shows Welcome back",
  "page does not show Payment failed",
  "page url contains /orders",
  "page title is Orders - Acme",
  'the "Status" shows Active',
  'the "Email" field contains ada@example.com',
  'the "Save" is enabled',
  'the "Error" is not visible',
  'the "Remember me" checkbox is checked',
  'the "css:.order-row" appears 3 times',
  'the "Status" column of the row containing "Grace Hopper" shows Suspended',
];

export const TRANSLATE_SYSTEM_PROMPT = `You translate one step of a manual test case into flowproof's rules grammar: exact, deterministic step texts that a test runner executes against the app. You cannot see the app.

Actions (one per line of "steps"; quoted text is a visible label, placeholder or accessible name of the element):
${GRAMMAR_ACTIONS.map((s) => `  ${s}`).join("\n")}
Assertions (the "assert" line):
${GRAMMAR_ASSERTIONS.map((s) => `  ${s}`).join("\n")}

Answer with one JSON object and nothing else:
{"steps": ["<action>", ...], "assert": "<assertion>" or null, "another_app": null, "unclear": null}
- "steps": the actions the step performs, in order (several when the step does several things). Leave it [] when you are only asked for the assertion.
- "assert": the expected result as one assertion, or null when it cannot be written as one of the forms above.
- Use the labels the step names, in double quotes. Never invent a value the step does not give.
- Keep every \${NAME} reference exactly as written; it stands for a secret.
- If the step is done in another application or tool (a mail client, a spreadsheet, a phone, a terminal), set "another_app" to its name and "steps" to [].
- If the step is too vague to translate, set "unclear" to what is missing and "steps" to [].`;

/** What one step asks of the model. */
export interface TranslateRequest {
  readonly step: SourceStep;
  readonly pending: Pending;
  readonly app: string;
  /** The app's vocabulary: the model's steps must parse in it (default: the whole general grammar). */
  readonly grammar?: ParseContext;
  readonly flowName: string;
}

/** The user message. Its first line is `STEP: <action>`, how a recorded model keys its answers. */
export function translatePrompt(req: TranslateRequest): string {
  const wanted =
    req.pending.action && req.pending.expected
      ? "the steps and the assertion"
      : req.pending.action
        ? 'the steps ("assert": null)'
        : 'the assertion only ("steps": [])';
  return [
    `STEP: ${actionText(req.step)}`,
    `EXPECTED RESULT: ${req.step.expected ?? "(none)"}`,
    `TEST CASE: ${req.flowName}`,
    `APP KIND: ${req.app}`,
    `TRANSLATE: ${wanted}`,
  ].join("\n");
}

/** A reply read against the grammar: what is valid, and what to tell the model when something is not. */
export interface CheckedReply {
  readonly translation: Translation;
  readonly errors: readonly string[];
}

const REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_.]*\}/g;

/** Reads one reply. Invalid parts are left out of `translation` and explained in `errors`. */
export function checkReply(text: string, req: TranslateRequest): CheckedReply {
  const stripped = text
    .trim()
    .replace(/^```[a-zA-Z]*\s*\n?/, "")
    .replace(/\n?```\s*$/, "")
    .trim();
  let value: unknown;
  try {
    value = JSON.parse(stripped);
  } catch (error) {
    return { translation: {}, errors: [`the reply is not valid JSON (${(error as Error).message}); answer with the JSON object only`] };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { translation: {}, errors: ['the reply must be one JSON object with "steps", "assert", "another_app" and "unclear"'] };
  const o = value as Record<string, unknown>;
  const nonEmpty = (k: string) => (typeof o[k] === "string" && (o[k] as string).trim() !== "" ? (o[k] as string).trim() : undefined);
  const other = nonEmpty("another_app");
  if (other) return { translation: { anotherApp: other }, errors: [] };
  const errors: string[] = [];
  const ctx = req.grammar ?? { surface: { name: req.app } };
  let rules: string[] | undefined;
  const unclear = nonEmpty("unclear");
  if (req.pending.action) {
    const steps = o["steps"];
    if (!Array.isArray(steps) || !steps.every((s) => typeof s === "string")) errors.push('"steps" must be a list of strings');
    else if (steps.length === 0) {
      if (!unclear) errors.push('"steps" is empty: translate the step, or say in "unclear" what is missing');
    } else {
      const problems = steps.flatMap((s, i) => {
        const r = parseStep(s, ctx);
        return r.ok ? [] : [`steps[${i}] \`${s}\` does not parse: ${r.error.message} Hint: ${r.error.hint}`];
      });
      const missing = [...new Set(actionText(req.step).match(REFERENCE) ?? [])].filter((ref) => !steps.some((s) => s.includes(ref)));
      for (const ref of missing) problems.push(`keep ${ref} exactly as written in the step; it stands for a secret`);
      if (problems.length === 0) rules = steps.map((s) => s.trim());
      errors.push(...problems);
    }
  }
  let assert: string | undefined;
  if (req.pending.expected) {
    const a = o["assert"];
    if (typeof a === "string" && a.trim() !== "") {
      const r = parseAssertion(a, ctx);
      if (r.ok) assert = a.trim();
      else errors.push(`"assert" \`${a}\` does not parse: ${r.error.message} Hint: ${r.error.hint}`);
    } else if (a !== null && a !== undefined && a !== "") errors.push('"assert" must be a string or null');
  }
  return { translation: { ...(rules ? { rules } : {}), ...(assert ? { assert } : {}), ...(unclear ? { note: `the model: ${unclear}` } : {}) }, errors };
}

/** Translates one step: one request, and one retry with the parser's errors when the reply does not parse. */
export async function translateStep(client: ModelClient, req: TranslateRequest): Promise<{ translation: Translation; calls: number }> {
  const messages: ChatMessage[] = [{ role: "user", content: translatePrompt(req) }];
  const first = await client.complete(TRANSLATE_SYSTEM_PROMPT, messages);
  const checked = checkReply(first, req);
  if (checked.errors.length === 0) return { translation: checked.translation, calls: 1 };
  messages.push(
    { role: "assistant", content: first },
    {
      role: "user",
      content: `Your answer does not parse:\n${checked.errors.map((e) => `- ${e}`).join("\n")}\nAnswer again with the corrected JSON object only.`,
    },
  );
  const second = checkReply(await client.complete(TRANSLATE_SYSTEM_PROMPT, messages), req);
  const note = second.errors.length > 0 ? { note: `the model's translation did not parse: ${second.errors[0]}` } : {};
  return { translation: { ...second.translation, ...note }, calls: 2 };
}
