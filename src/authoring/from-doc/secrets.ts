// Keeps a document's passwords out of the draft: every value the text gives for a password, PIN
// or secret is replaced, wherever it appears, by a `${VAR}` reference that is resolved at record
// and replay like any other. Pure; the values found never leave this module.
import type { SourceStep } from "./segment.ts";

/** A variable that now stands for a value the document wrote, and the steps that use it. */
export interface SecretVariable {
  readonly variable: string;
  /** `index` of each step whose text now holds the reference. */
  readonly steps: readonly number[];
}

const KEYWORD = String.raw`(password|passwort|passwd|pwd|passcode|passphrase|pass phrase|pin|secret|api key|token)s?`;
/** `password Welcome1`, `password: Welcome1`, `password is "Welcome1"`. */
const AFTER_KEYWORD = new RegExp(String.raw`\b${KEYWORD}\b\s*(?:(is|:|=|as|of|to|with|-)\s*)?("[^"]+"|'[^']+'|[^\s"']+)`, "gi");
/**
 * `Welcome1 as the password`. A value starts where a word does (the lookbehind): tried at every
 * character of one long word, the unquoted alternative would rescan the rest of it each time.
 */
const BEFORE_KEYWORD = new RegExp(String.raw`("[^"]+"|'[^']+'|(?<![^\s"'])[^\s"']+)\s+as\s+(?:the\s+|a\s+|your\s+)?(?:new\s+)?${KEYWORD}\b`, "gi");
/** `Type Welcome1 into the "Password" field`: the field's label is checked for a keyword apart. */
const TYPED_INTO = /^(?:type|enter|input|fill in)\s+("[^"]+"|'[^']+'|\S+)\s+(?:into|in)\s+(?:the\s+)?"([^"]*)"/i;
const KEYWORD_IN_LABEL = new RegExp(String.raw`${KEYWORD}`, "i");
const MENTIONS = new RegExp(String.raw`\b${KEYWORD}\b`, "i");

/**
 * Words that follow "password" in prose without being one. After `is`, `as`, `of`, `to` or
 * `with` an unquoted value must also look like a secret (a digit, a symbol or an upper-case
 * letter): "the password is accepted" holds none.
 */
const NOT_A_VALUE = new Set([
  "a",
  "an",
  "the",
  "and",
  "or",
  "but",
  "for",
  "from",
  "in",
  "into",
  "on",
  "of",
  "to",
  "with",
  "by",
  "at",
  "as",
  "is",
  "are",
  "was",
  "were",
  "be",
  "been",
  "not",
  "no",
  "do",
  "does",
  "did",
  "has",
  "have",
  "will",
  "can",
  "cannot",
  "may",
  "must",
  "should",
  "shall",
  "this",
  "that",
  "it",
  "its",
  "your",
  "their",
  "his",
  "her",
  "my",
  "our",
  "field",
  "fields",
  "box",
  "input",
  "textbox",
  "text",
  "area",
  "prompt",
  "dialog",
  "page",
  "screen",
  "form",
  "policy",
  "rules",
  "requirements",
  "reset",
  "change",
  "changed",
  "expired",
  "expires",
  "manager",
  "link",
  "hint",
  "strength",
  "again",
  "confirmation",
  "confirm",
  "match",
  "matches",
  "mismatch",
  "shown",
  "displayed",
  "masked",
  "hidden",
  "required",
  "empty",
  "blank",
  "invalid",
  "valid",
  "incorrect",
  "correct",
  "wrong",
  "user",
  "users",
  "account",
  "login",
  "log",
  "sign",
  "then",
  "twice",
  "once",
  "new",
  "old",
  "current",
  "temporary",
  "button",
  "label",
  "character",
  "characters",
  "length",
  "entry",
  "value",
  "code",
  "number",
  "pad",
  "entered",
  "typed",
  "accepted",
  "rejected",
  "updated",
  "saved",
  "sent",
  "used",
  "needed",
  "set",
  "ok",
  "click",
  "press",
  "tab",
  "enter",
]);

const isQuoted = (v: string) => v.length >= 2 && (v[0] === '"' || v[0] === "'") && v[v.length - 1] === v[0];
const unquote = (v: string) => (isQuoted(v) ? v.slice(1, -1) : v);
/** `v` without the punctuation that ends a sentence after it (`Welcome1.` → `Welcome1`), scanned from the end. */
const trimTrailing = (v: string) => {
  let end = v.length;
  while (end > 0 && ".,;:)".includes(v[end - 1]!)) end--;
  return v.slice(0, end);
};
const looksSecret = (v: string) => /[\d\W_]/.test(v) || /[A-Z]/.test(v.slice(1));

/** The values `text` gives for a password or other secret, in order of appearance. */
export function findSecretValues(written: string): string[] {
  // A reference already there is not a value, and its name (`${PASSWORD}`) is not a keyword.
  const text = written.replace(/\$\{[^{}]*\}/g, "${}");
  const found: string[] = [];
  const keep = (raw: string, strict: boolean) => {
    const quoted = isQuoted(raw);
    const value = quoted ? unquote(raw) : trimTrailing(raw);
    if (value === "" || value.startsWith("${")) return;
    if (!quoted && (NOT_A_VALUE.has(value.toLowerCase()) || (strict && !looksSecret(value)))) return;
    if (!found.includes(value)) found.push(value);
  };
  const typed = TYPED_INTO.exec(text);
  if (typed && KEYWORD_IN_LABEL.test(typed[2]!)) keep(typed[1]!, false);
  for (const m of text.matchAll(AFTER_KEYWORD)) {
    const connector = m[2]?.toLowerCase();
    keep(m[3]!, connector !== undefined && connector !== ":" && connector !== "=" && connector !== "-");
  }
  for (const m of text.matchAll(BEFORE_KEYWORD)) keep(m[1]!, false);
  return found;
}

const isWordChar = (ch: string | undefined) => ch !== undefined && /[A-Za-z0-9_]/.test(ch);

/**
 * `text` with each whole-word `value` (not inside a longer word), and each quoted `"value"` or
 * `'value'` with its quotes, replaced by `reference`. A scan, not a pattern built from the value:
 * a long value tried at every position of a long text would compare it all again each time.
 */
export function replaceValue(text: string, value: string, reference: string): string {
  let out = "";
  let from = 0;
  let at = text.indexOf(value);
  while (at >= 0) {
    const end = at + value.length;
    const before = text[at - 1];
    const quoted = (before === '"' || before === "'") && text[end] === before;
    if (quoted || (!isWordChar(before) && !isWordChar(text[end]))) {
      out += text.slice(from, quoted ? at - 1 : at) + reference;
      from = quoted ? end + 1 : end;
      at = text.indexOf(value, from);
      continue;
    }
    // Inside a longer word: the next place a whole word can start is after this word ends.
    let next = at + 1;
    while (next < text.length && isWordChar(text[next - 1])) next++;
    at = text.indexOf(value, next);
  }
  return out + text.slice(from);
}

/**
 * `steps` with every secret value replaced by a `${VAR}` reference (`PASSWORD`, `PASSWORD_2`,
 * `PIN`, `SECRET`), quotes around it included, and the variables introduced. A test-data cell
 * beside an action that asks for a password is taken whole when it is one word.
 */
export function redactSecrets(steps: readonly SourceStep[]): { steps: SourceStep[]; secrets: SecretVariable[] } {
  const variables = new Map<string, string>();
  const name = (value: string, context: string) => {
    const known = variables.get(value);
    if (known) return known;
    const base = /\bpin\b/i.test(context) ? "PIN" : /secret|api key|token/i.test(context) && !/pass/i.test(context) ? "SECRET" : "PASSWORD";
    const taken = [...variables.values()].filter((v) => v === base || v.startsWith(`${base}_`)).length;
    const variable = taken === 0 ? base : `${base}_${taken + 1}`;
    variables.set(value, variable);
    return variable;
  };
  for (const s of steps) {
    for (const text of [s.action, s.data ?? "", s.expected ?? ""]) for (const v of findSecretValues(text)) name(v, text);
    if (s.data && MENTIONS.test(s.action) && !/\s/.test(s.data) && findSecretValues(s.data).length === 0 && !s.data.startsWith("${"))
      name(unquote(s.data), s.action);
  }
  // Longer values first, so a value holding a shorter one is replaced whole.
  const ordered = [...variables.entries()].sort((a, b) => b[0].length - a[0].length);
  const replace = (text: string) => ordered.reduce((t, [value, variable]) => replaceValue(t, value, `\${${variable}}`), text);
  const out = steps.map(
    (s): SourceStep => ({
      ...s,
      ...(s.name !== undefined ? { name: replace(s.name) } : {}),
      action: replace(s.action),
      ...(s.data !== undefined ? { data: replace(s.data) } : {}),
      ...(s.expected !== undefined ? { expected: replace(s.expected) } : {}),
    }),
  );
  const secrets = [...new Set(variables.values())].map((variable) => ({
    variable,
    steps: out.filter((s) => [s.name, s.action, s.data, s.expected].some((t) => t?.includes(`\${${variable}}`))).map((s) => s.index),
  }));
  return { steps: out, secrets };
}
