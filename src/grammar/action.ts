// Action steps: the verb table and the pointer verbs (Click, Right-/Double-click, Hover, Drag,
// Press). Value verbs live in input-action.ts. Pure: step text + the surface's vocabulary in, ActionStep out.

import type { ActionStep, ClickStep, DialogSuffix, GrammarVerb, ParseContext, ParseResult, Target } from "./ast.ts";
import { splitDialogSuffix } from "./dialog-suffix.ts";
import {
  parseCheck,
  parseClear,
  parseHistory,
  parseNavigate,
  parseReload,
  parseResize,
  parseRemember,
  parseReplace,
  parseScroll,
  parseSelect,
  parseSetCookie,
  parseType,
  parseUpload,
  parseWait,
} from "./input-action.ts";
import { parseKeys } from "./keys.ts";
import { findActionRefusal } from "./refusal.ts";
import { fail, failAt, matchAt, ok, sub, trimSlice, type Slice } from "./result.ts";
import { parseTargetPrefix, parseWholeTarget, refuseFramedPointer } from "./target.ts";

type VerbParser = (rest: Slice, ctx: ParseContext) => ParseResult<ActionStep>;

interface Verb {
  /** Matched at the start of the step, case-insensitive; the rest of the text follows it. */
  readonly pattern: RegExp;
  readonly name: string;
  /** Set when a surface may refuse the verb outright (its grammar's `refusedVerbs`). */
  readonly refusable?: GrammarVerb;
  readonly parse: VerbParser;
}

const VERBS: readonly Verb[] = [
  { pattern: /go\s+(?=back|forward)/, name: "Go back", refusable: "Go back", parse: parseHistory },
  { pattern: /(?:go|navigate)\s+to(?:\s+|$)/, name: "Go to", refusable: "Go to", parse: parseNavigate },
  { pattern: /resize(?:\s+|$)/, name: "Resize the viewport", refusable: "Resize the viewport", parse: parseResize },
  { pattern: /(?:reload|refresh)\b\s*/, name: "Reload the page", refusable: "Reload the page", parse: parseReload },
  { pattern: /right[-\s]click(?:\s+|$)/, name: "Right-click", parse: (r, c) => parseClick(r, c, "Right-click", "right", 1) },
  { pattern: /double[-\s]click(?:\s+|$)/, name: "Double-click", parse: (r, c) => parseClick(r, c, "Double-click", "left", 2) },
  { pattern: /click(?:\s+|$)/, name: "Click", parse: (r, c) => parseClick(r, c, "Click", "left", 1) },
  { pattern: /hover(?:\s+|$)/, name: "Hover over", refusable: "Hover over", parse: parseHover },
  { pattern: /drag(?:\s+|$)/, name: "Drag", parse: parseDrag },
  { pattern: /type(?:\s+|$)/, name: "Type", parse: parseType },
  { pattern: /replace(?:\s+|$)/, name: "Replace", parse: parseReplace },
  { pattern: /clear(?:\s+|$)/, name: "Clear", parse: parseClear },
  { pattern: /check(?:\s+|$)/, name: "Check", parse: (r, c) => parseCheck(r, c, true) },
  { pattern: /uncheck(?:\s+|$)/, name: "Uncheck", parse: (r, c) => parseCheck(r, c, false) },
  { pattern: /select(?:\s+|$)/, name: "Select", parse: parseSelect },
  { pattern: /set\s+(?:the\s+|a\s+)?cookie(?:\s+|$)/, name: "Set cookie", parse: parseSetCookie },
  { pattern: /upload(?:\s+|$)/, name: "Upload", refusable: "Upload", parse: parseUpload },
  { pattern: /scroll(?:\s+|$)/, name: "Scroll", parse: parseScroll },
  { pattern: /press(?:\s+|$)/, name: "Press", parse: parsePress },
  { pattern: /wait(?:\s+|$)/, name: "Wait", parse: parseWait },
  { pattern: /remember(?:\s+|$)/, name: "Remember", parse: parseRemember },
];

/** Words people reach for that are not verbs of the grammar, with the form to write instead. */
const SYNONYMS: Readonly<Record<string, string>> = {
  enter: 'Type Ada into the "Name" field',
  fill: 'Type Ada into the "Name" field',
  input: 'Type Ada into the "Name" field',
  write: 'Type Ada into the "Name" field',
  tap: 'Click "Save"',
  choose: 'Select Admin from the "Role" dropdown',
  pick: 'Select Admin from the "Role" dropdown',
  open: "Go to /settings",
  visit: "Go to /settings",
  assert: "assert: page shows Welcome",
  verify: "assert: page shows Welcome",
  expect: "assert: page shows Welcome",
  sleep: "Wait until page shows Saved",
  pause: "Wait until page shows Saved",
  submit: 'Press the "Submit" button',
  focus: 'Click "Email"',
  tick: 'Check the "Remember me" checkbox',
  untick: 'Uncheck the "Remember me" checkbox',
};

/** Parses an action step (already trimmed, non-empty) for the given surface. */
export function parseAction(s: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  const refused = findActionRefusal(s);
  if (refused !== undefined) return refused;
  for (const verb of VERBS) {
    const m = matchAt(verb.pattern, s.text, 0);
    if (m === null) continue;
    const refused = ctx.surface.refusedVerbs;
    if (verb.refusable !== undefined && refused?.verbs.includes(verb.refusable) === true) {
      return fail(
        "unsupported-step",
        refused.message.replaceAll("{verb}", verb.name).replaceAll("{surface}", ctx.surface.name),
        refused.hint,
        s.offset,
        m[0].trimEnd().length,
      );
    }
    return verb.parse(trimSlice(sub(s, m[0].length)), ctx);
  }
  const word = /^\S+/.exec(s.text)?.[0] ?? s.text;
  // `- 'assert: page shows X'`: a step key quoted with its text is read as the text.
  const key = /^(assert\w*|rules|repeat|when):$/i.exec(word)?.[1];
  if (key !== undefined) {
    const rest = s.text.slice(word.length).trim().replaceAll("'", "''");
    return fail(
      "unknown-step",
      `\`${s.text}\` matches no rules step: the quotes make \`${key}:\` part of the step's text, not its key.`,
      `quote only what follows the key: \`- ${key}: '${rest.length > 60 ? `${rest.slice(0, 60)}…` : rest}'\``,
      s.offset,
      word.length,
    );
  }
  const suggestion = SYNONYMS[word.toLowerCase()];
  return fail(
    "unknown-step",
    `\`${s.text}\` matches no rules step.`,
    suggestion === undefined
      ? 'start with a verb of the grammar, e.g. `Click "Save"`, `Type Ada into the "Name" field`, `Press Enter` or `Go to /settings`'
      : `write \`${suggestion}\``,
    s.offset,
    word.length,
  );
}

function nearMiss(verb: string, rest: Slice, example: string) {
  const label = rest.text.replace(/^the\s+/i, "").replace(/"/g, "") || "Save";
  return failAt("unknown-step", `\`${verb}\` needs a quoted target.`, `quote the text, e.g. \`${example.replace("%", label)}\``, rest);
}

function attach(step: ClickStep, dialog: DialogSuffix | undefined): ClickStep {
  return dialog === undefined ? step : { ...step, dialog };
}

function parseClick(rest: Slice, ctx: ParseContext, verb: string, button: "left" | "right", clickCount: 1 | 2): ParseResult<ActionStep> {
  // `Click on "Save"` says what `Click "Save"` says; without this the hint offered `Click "on Save"`.
  const on = matchAt(/on\s+(?=["\w])/, rest.text, 0);
  if (on !== null) rest = trimSlice(sub(rest, on[0].length));
  const split = splitDialogSuffix(rest, ctx);
  if (!split.ok) return split;
  const body = split.value.body;
  const parsed = parseTargetPrefix(body, ctx);
  if (parsed === undefined) return nearMiss(verb, body, `${verb} "%"`);
  if (!parsed.ok) return parsed;
  const target = parsed.value.target;
  const after = sub(body, parsed.value.end);
  const framed = refuseFramedPointer(target, verb, body);
  if (framed !== undefined) return framed;
  const step: ClickStep = { kind: "click", target, button, clickCount };
  if (after.text.trim() === "") return ok(attach(step, split.value.dialog));
  const at = parseAt(after, verb);
  if (!at.ok) return at;
  return ok(attach({ ...step, at: at.value }, split.value.dialog));
}

/** `at <x>%,<y>%` after a Click target or a Drag's drop target. */
function parseAt(after: Slice, verb: string): ParseResult<{ xPct: number; yPct: number }> {
  const trimmed = trimSlice(after);
  const drag = verb === "Drag";
  const example = drag ? 'Drag "Card" onto "Board" at 30%,40%' : 'Click "Save" at 75%,50%';
  if ((verb !== "Click" && !drag) || !/^at\s/i.test(trimmed.text)) {
    const end = drag
      ? 'end the step after the drop target, or give a drop point, e.g. `Drag "Card" onto "Board" at 30%,40%`'
      : `end the step after the target, e.g. \`${verb} "Save"\``;
    return failAt("unknown-step", `Unexpected text after the ${drag ? "drop " : ""}target: \`${trimmed.text}\`.`, end, trimmed);
  }
  const m = /^at\s+(-?\d+(?:\.\d+)?)%\s*,\s*(-?\d+(?:\.\d+)?)%$/i.exec(trimmed.text);
  const what = drag ? "A drop point is two percentages of the drop target's box" : "A click point is two percentages of the element box";
  if (m?.[1] === undefined || m[2] === undefined) {
    return failAt("unknown-step", `${what}.`, `write \`${example}\``, trimmed);
  }
  const xPct = Number(m[1]);
  const yPct = Number(m[2]);
  if (xPct < 0 || xPct > 100 || yPct < 0 || yPct > 100) {
    return failAt(
      "unknown-step",
      `${drag ? "A drop point must lie between 0% and 100% of the drop target's box" : "A click point must lie between 0% and 100% of the element box"}.`,
      `write percentages from 0 to 100, e.g. \`${example}\``,
      trimmed,
    );
  }
  return ok({ xPct, yPct });
}

function parseHover(rest: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  const over = matchAt(/over(?:\s+|$)/, rest.text, 0);
  if (over === null) {
    const label = rest.text.replace(/^the\s+/i, "").replace(/"/g, "") || "Accounts";
    return failAt("unknown-step", "`Hover` needs `over` and a quoted target.", `write \`Hover over "${label}"\``, rest);
  }
  const split = splitDialogSuffix(trimSlice(sub(rest, over[0].length)), ctx);
  if (!split.ok) return split;
  const parsed = parseWholeTarget(split.value.body, ctx);
  if (parsed === undefined) return nearMiss("Hover over", split.value.body, 'Hover over "%"');
  if (!parsed.ok) return parsed;
  const framed = refuseFramedPointer(parsed.value, "Hover over", split.value.body);
  if (framed !== undefined) return framed;
  const dialog = split.value.dialog;
  return ok(dialog === undefined ? { kind: "hover", target: parsed.value } : { kind: "hover", target: parsed.value, dialog });
}

function parseDrag(rest: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  const source = parseTargetPrefix(rest, ctx);
  if (source === undefined) return nearMiss("Drag", rest, 'Drag "%" onto "Done"');
  if (!source.ok) return source;
  const onto = matchAt(/\s+onto\s+/, rest.text, source.value.end);
  if (onto === null) {
    return failAt("unknown-step", "`Drag` needs `onto` and a quoted destination.", 'write `Drag the "css:#src" onto the "css:#dst"`', rest);
  }
  const destSlice = sub(rest, source.value.end + onto[0].length);
  const dest = parseTargetPrefix(destSlice, ctx);
  if (dest === undefined) return nearMiss("Drag … onto", destSlice, 'Drag "Card" onto "%"');
  if (!dest.ok) return dest;
  const framed = refuseFramedPointer(source.value.target, "Drag", rest) ?? refuseFramedPointer(dest.value.target, "Drag", rest);
  if (framed !== undefined) return framed;
  const step = { kind: "drag" as const, source: source.value.target, onto: dest.value.target };
  const after = sub(destSlice, dest.value.end);
  if (after.text.trim() === "") return ok(step);
  const at = parseAt(after, "Drag");
  if (!at.ok) return at;
  return ok({ ...step, at: at.value });
}

function parsePress(rest: Slice, ctx: ParseContext): ParseResult<ActionStep> {
  if (rest.text === "") return failAt("unknown-step", "`Press` needs a key or a button.", 'write `Press Enter` or `Press the "Save" button`', rest);
  if (!/^(?:the\s|"|\d+(?:st|nd|rd|th)\s)/i.test(rest.text)) {
    const keys = parseKeys(rest, ctx.surface);
    return keys.ok ? ok({ kind: "press_key", key: keys.value.key, modifiers: keys.value.modifiers }) : keys;
  }
  const split = splitDialogSuffix(rest, ctx);
  if (!split.ok) return split;
  const parsed = parseWholeTarget(split.value.body, ctx);
  if (parsed === undefined) {
    return failAt(
      "unknown-step",
      "`Press the …` names a button, but no button follows.",
      'write `Press the "Save" button`, or name a key like `Press Enter`',
      rest,
    );
  }
  if (!parsed.ok) return parsed;
  const target: Target = parsed.value;
  if (target.role !== "button") {
    return failAt(
      "unknown-step",
      "`Press` a control needs the `button` noun.",
      'write `Press the "Save" button`, or `Click "Save"` for anything that is not a button',
      split.value.body,
    );
  }
  const framed = refuseFramedPointer(target, "Press … button", split.value.body);
  if (framed !== undefined) return framed;
  return ok(attach({ kind: "click", target, button: "left", clickCount: 1 }, split.value.dialog));
}
