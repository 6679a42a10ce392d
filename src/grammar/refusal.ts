// The shapes the rules grammar recognises in order to refuse them (loops, branches, pattern
// extraction, date expressions, impossible events, Blur, free JS), each with reason + alternative.
// Pure: no I/O. A refused rules: step is never rerouted; the hint says what to write instead.

import { fail, maskQuoted, type Failure, type Slice } from "./result.ts";

interface Refusal {
  /** Searched in the step text with quoted labels masked out; `i` is added. */
  readonly pattern: RegExp;
  /** Where the offending word starts inside a match (skips a leading space). */
  readonly skip: number;
  readonly message: (word: string) => string;
  readonly hint: string;
}

const REPEAT_HINT = 'use a `repeat:` block, e.g. `repeat: {until: the "Status" shows Done, max: 10, steps: [Click "Next"]}`';
const WHEN_HINT = 'use a `when: <condition>` block with its own steps, e.g. `when: the "Banner" is visible` with `steps: [Click "Dismiss"]`';
const WHOLE_TEXT_HINT = 'give the value its own element and read its whole text, e.g. `Remember the "id:total" as amount`';

const LOOP: Refusal = {
  pattern: /\suntil\s/,
  skip: 1,
  message: (w) => `\`${w}\` makes this step a loop, but repetition is a block, not a step.`,
  hint: REPEAT_HINT,
};

/** Refusals that only make sense for action steps (conditions and assertions may say "else"). */
const ACTION_REFUSALS: readonly Refusal[] = [
  {
    pattern: /\bwhile\b/,
    skip: 0,
    message: (w) => `\`${w}\` makes this step a loop, but repetition is a block, not a step.`,
    hint: REPEAT_HINT,
  },
  {
    pattern: /^if\s/,
    skip: 0,
    message: () => "`If …` makes this step a branch, but a branch is a block, not a step.",
    hint: WHEN_HINT,
  },
  {
    pattern: /\s(?:otherwise|else)\s/,
    skip: 1,
    message: (w) => `\`${w}\` makes this step a branch, but a branch is a block, not a step.`,
    hint: WHEN_HINT,
  },
  {
    pattern: /without\s+(?:hovering|the\s+pointer)/,
    skip: 0,
    message: (w) => `\`${w}\` asks for events that no user could produce.`,
    hint: 'write what the user does, e.g. `Click "Move"`',
  },
  {
    pattern: /^blur\b/,
    skip: 0,
    message: () => "Blur is not something a user does; it is a DOM event that a user action causes.",
    hint: "write `Press Tab`: it moves focus the way a user does and fires the same validation",
  },
  {
    pattern: /page\.evaluate|^(?:evaluate|execute|run)\s+(?:the\s+)?(?:js|javascript|script)\b/,
    skip: 0,
    message: (w) => `\`${w}\` runs code in the page, which is not something a user does.`,
    hint: 'drive the page through its UI, e.g. `Click "Save"`, and check it with `assert: page shows Saved`',
  },
];

/** Refusals that apply to every text: actions, assertions and conditions. */
const TEXT_REFUSALS: readonly Refusal[] = [
  {
    pattern: /\bmatching\s+\/|\bmatching\s+regex\b|\bregex\b/,
    skip: 0,
    message: (w) => `\`${w}\` is pattern extraction, which the grammar refuses: a pattern silently picks a different value when the text changes.`,
    hint: WHOLE_TEXT_HINT,
  },
  {
    pattern: /\bthe\s+text\s+between\b|\bbetween(?=\s+")/,
    skip: 0,
    message: (w) => `\`${w} …\` is pattern matching by another name, which the grammar refuses.`,
    hint: 'read the whole element that holds the value, e.g. `Remember the "id:total" as amount`',
  },
  {
    pattern: /\{Date\[/,
    skip: 0,
    message: () => "`{Date[…]}` is a date expression: record and replay would type different dates.",
    hint: 'pin the clock with `browser: clock: at: "2026-01-15T12:00:00Z"` and type the literal date, e.g. `Type 2026-01-16 into the "Due" field`',
  },
];

function search(s: Slice, masked: string, refusals: readonly Refusal[]): Failure | undefined {
  for (const r of refusals) {
    const m = new RegExp(r.pattern.source, "i").exec(masked);
    if (m === null) continue;
    const word = s.text.slice(m.index + r.skip, m.index + m[0].length).trim();
    return fail("refused-step", r.message(word), r.hint, s.offset + m.index + r.skip, word.length);
  }
  return undefined;
}

/** The refusal an action step's text falls under, if any. `Wait until …` is not a loop. */
export function findActionRefusal(s: Slice): Failure | undefined {
  const masked = maskQuoted(s.text);
  // A leading `Wait until` is the one sanctioned "until"; mask it so only a second one refuses.
  const waitLead = /^wait\s+until\s/i.exec(masked);
  const loopText = waitLead === null ? masked : " ".repeat(waitLead[0].length) + masked.slice(waitLead[0].length);
  return search(s, loopText, [LOOP]) ?? search(s, masked, ACTION_REFUSALS) ?? search(s, masked, TEXT_REFUSALS);
}

/** The refusal an assertion or condition text falls under, if any. */
export function findTextRefusal(s: Slice): Failure | undefined {
  return search(s, maskQuoted(s.text), TEXT_REFUSALS);
}
