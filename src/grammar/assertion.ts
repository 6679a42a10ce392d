// The text of an `assert:` step → Assertion: surface forms (page shows/url/title, cookies, a
// surface's own sugar) and element predicates over any target. Pure: no I/O; the engine does the
// auto-waiting.

import type { Assertion, AssertionSugar, GrammarForm, ParseContext, ParseResult, Target, Template } from "./ast.ts";
import { lackedForm, lacks } from "./vocabulary.ts";
import { refuseCountedTarget } from "./input-action.ts";
import { findTextRefusal } from "./refusal.ts";
import { fail, failAt, matchAt, MAX_STEP_NUMBER, ok, refuseLarge, splitWithin, sub, trimSlice, type Slice } from "./result.ts";
import { parseTargetPrefix } from "./target.ts";
import { hasCapture, parseTemplateAt } from "./template.ts";

/** An assertion without its `within` bound (added by the caller). */
type WithoutBound<A> = A extends unknown ? Omit<A, "timeoutMs"> : never;
type Claim = WithoutBound<Assertion>;

const STYLE_PROPS = ["color", "background-color", "text-transform"] as const;
type StyleProp = (typeof STYLE_PROPS)[number];
const isStyleProp = (p: string): p is StyleProp => (STYLE_PROPS as readonly string[]).includes(p);

const COMPUTED = /^\$\{captured\.([a-z][a-z0-9_]*)\}\s*([+-])\s*(\d+(?:\.\d+)?)$/;
const ARITHMETIC = /\$\{captured\.[^}]*\}\s*(?:[-+*/]\s*\$\{|[*/])/;
const PREDICATES =
  "`shows [exactly] <text>`, `does not show <text>`, `field contains [exactly] <text>`, `is [not] visible`, `is [not] focused`, `is enabled|disabled`, `checkbox is [not] checked`, `is [not] selected`, `is [not] empty`, `appears <N> times|once|twice`, `attribute <name> is [not] <value>`, `has attribute <name>` or `style color is <value>`";

/** Parses the text of an `assert:` step (trimmed, non-empty) for the given surface. */
export function parseAssertionText(s: Slice, ctx: ParseContext): ParseResult<Assertion> {
  const refused = findTextRefusal(s);
  if (refused !== undefined) return refused;
  const bounded = splitWithin(s);
  if (!bounded.ok) return bounded;
  const claim = parseClaim(bounded.value.body, ctx);
  if (!claim.ok) return claim;
  const timeoutMs = bounded.value.timeoutMs;
  // Claim is Assertion minus the bound, so adding the bound back yields an Assertion.
  const value: Assertion = timeoutMs === undefined ? claim.value : { ...claim.value, timeoutMs };
  return ok(value);
}

function lacked(s: Slice, ctx: ParseContext, form: GrammarForm, what: string): ParseResult<never> | undefined {
  if (!lacks(ctx, form)) return undefined;
  return failAt("unsupported-step", lackedForm(ctx, `\`${what}\``, "checked", form), "assert what the app shows instead, e.g. `page shows Saved`", s);
}

/** `local storage "todos" contains Walk the dog` / `session storage "draft" does not exist`; the key may hold `${VAR}`. */
function parseStorage(s: Slice, ctx: ParseContext): ParseResult<Claim> {
  const refusal = lacked(s, ctx, "storage", "storage");
  if (refusal !== undefined) return refusal;
  const example = 'write `local storage "todos" contains Walk the dog`, `is exactly <value>` or `does not exist` (or `session storage …`)';
  const keys = /^(local|session)\s+storage\s+has\s+(?:(no\s+keys)|only\s+(.+))$/i.exec(s.text);
  if (keys?.[1] !== undefined) return parseStorageKeys(s, keys[1].toLowerCase() === "local" ? "local" : "session", keys[3]);
  const m = /^(local|session)\s+storage\s+"([^"]+)"\s+(?:(contains|is\s+exactly)\s+(.+)|(does\s+not\s+exist))$/i.exec(s.text);
  if (m?.[1] === undefined || m[2] === undefined) {
    return failAt(
      "unknown-step",
      'A storage assertion names the key in quotes, then `contains <text>`, `is exactly <value>` or `does not exist`; or `has no keys` / `has only "<key>", …` for the whole storage.',
      example,
      s,
    );
  }
  // `contains exactly red` would check for the text "exactly red": the whole value is `is exactly`.
  const nearMiss = /^contains\s+exactly\s+(.+)$/i.exec(s.text.slice(s.text.lastIndexOf('"') + 1).trim());
  if (m[3]?.toLowerCase() === "contains" && nearMiss?.[1] !== undefined) {
    return failAt(
      "unknown-step",
      "`contains exactly` is not a storage form: it would look for the text `exactly …` inside the value.",
      `write \`${m[1].toLowerCase()} storage "${m[2]}" is exactly ${nearMiss[1]}\` for the whole value, or \`contains ${nearMiss[1]}\` for part of it`,
      s,
    );
  }
  const area = m[1].toLowerCase() === "local" ? "local" : "session";
  const keyAt = s.offset + s.text.indexOf('"') + 1;
  const key = parseTemplateAt(m[2], keyAt);
  if (!key.ok) return key;
  if (hasCapture(key.value)) {
    return fail(
      "bad-reference",
      "A capture cannot name a storage key: a capture may only be typed or compared.",
      'name the key as written, or with an environment variable, e.g. `local storage "todos-${APP}" contains Walk the dog`',
      keyAt,
      m[2].length,
    );
  }
  if (m[5] !== undefined) return ok({ kind: "storage_absent", area, key: key.value });
  const raw = m[4] ?? "";
  const text = parseTemplateAt(raw, s.offset + s.text.length - raw.length);
  if (!text.ok) return text;
  const exact = m[3]?.toLowerCase() !== "contains";
  return ok({ kind: "storage", area, key: key.value, text: text.value, ...(exact ? { exact: true } : {}) });
}

/** `local storage has no keys` / `local storage has only "todos" and "theme"`: the whole set of keys. */
function parseStorageKeys(s: Slice, area: "local" | "session", list: string | undefined): ParseResult<Claim> {
  if (list === undefined) return ok({ kind: "storage_keys", area, keys: [] });
  const at = s.offset + s.text.length - list.length;
  const keys: Template[] = [];
  const re = /\s*"([^"]+)"\s*(,\s*(?:and\s+)?|and\s+|$)/iy;
  let i = 0;
  while (i < list.length) {
    re.lastIndex = i;
    const k = re.exec(list);
    if (k?.[1] === undefined)
      return fail(
        "unknown-step",
        "Every key of `has only` is quoted, separated by `,` or `and`.",
        'write `local storage has only "todos" and "theme"`',
        at + i,
        list.length - i,
      );
    const key = parseTemplateAt(k[1], at + list.indexOf(k[1], i));
    if (!key.ok) return key;
    if (hasCapture(key.value))
      return fail(
        "bad-reference",
        "A capture cannot name a storage key: a capture may only be typed or compared.",
        "name the key as written, or with an environment variable",
        at + i,
        k[0].length,
      );
    keys.push(key.value);
    i = re.lastIndex;
    if (k[2] === "") break;
  }
  return ok({ kind: "storage_keys", area, keys });
}

function parseClaim(s: Slice, ctx: ParseContext): ParseResult<Claim> {
  const t = s.text;
  const notShow = matchAt(/(?:the\s+)?page\s+does\s+not\s+show(?:\s+|$)/, t, 0);
  if (notShow !== null) {
    const text = requireText(trimSlice(sub(s, notShow[0].length)), "page does not show Error");
    return text.ok ? ok({ kind: "page_shows", text: text.value, negate: true }) : text;
  }
  const shows = matchAt(/(?:the\s+)?page\s+shows(?:\s+|$)/, t, 0);
  if (shows !== null) return parsePageShows(trimSlice(sub(s, shows[0].length)));
  const meta = /^(?:the\s+)?page\s+(url|title)\s+(is|contains)\s+(.+)$/i.exec(t);
  if (meta?.[1] !== undefined && meta[2] !== undefined && meta[3] !== undefined) {
    const which = meta[1].toLowerCase();
    const refusal = lacked(s, ctx, which === "url" ? "page_url" : "page_title", `page ${which}`);
    if (refusal !== undefined) return refusal;
    const value = parseTemplateAt(meta[3], s.offset + t.length - meta[3].length);
    if (!value.ok) return value;
    const op = meta[2].toLowerCase() === "is" ? "is" : "contains";
    return ok(meta[1].toLowerCase() === "url" ? { kind: "page_url", op, value: value.value } : { kind: "page_title", op, value: value.value });
  }
  if (/^(?:the\s+)?page\b/i.test(t)) {
    return failAt(
      "unknown-step",
      `\`${t}\` is not a page assertion.`,
      "write `page shows Welcome`, `page does not show Error`, `page url is /signin` or `page title contains Acme`",
      s,
    );
  }
  const cookies = /^(?:(no)\s+cookies\s+are|(\d+)\s+cookies?\s+(?:are|is))\s+set$/i.exec(t);
  if (cookies) {
    const count = cookies[1] !== undefined ? 0 : Number(cookies[2]);
    return lacked(s, ctx, "cookie", "cookies are set") ?? ok({ kind: "cookie_count", count });
  }
  if (/^cookie\b/i.test(t)) return parseCookie(s, ctx);
  if (/^(?:local|session)\s+storage\b/i.test(t)) return parseStorage(s, ctx);
  const sugar = parseSugar(s, ctx);
  if (sugar !== undefined) return sugar;
  const target = parseTargetPrefix(s, ctx);
  if (target === undefined) {
    return failAt(
      "unknown-step",
      `\`${t}\` matches no assertion.`,
      'write `page shows Welcome` or `the "Save" is enabled`; an element is named with `the "<label>"`',
      s,
    );
  }
  if (!target.ok) return target;
  return parsePredicate(trimSlice(sub(s, target.value.end)), target.value.target, ctx);
}

function requireText(s: Slice, example: string) {
  if (s.text === "") return failAt("unknown-step", "The assertion has no text to look for.", `write \`${example}\``, s);
  return parseTemplateAt(s.text, s.offset);
}

/** `N times`, `once` (1) or `twice` (2) at the end of a count; the number, or undefined. */
const COUNT_WORDS: Readonly<Record<string, number>> = { once: 1, twice: 2 };
const countOf = (word: string | undefined, digits: string | undefined): number | undefined =>
  digits !== undefined ? Number(digits) : word === undefined ? undefined : COUNT_WORDS[word.toLowerCase()];

function parsePageShows(s: Slice): ParseResult<Claim> {
  const times = /^(.*\S)\s+(?:(\d+)\s+times?|(once|twice))$/i.exec(s.text);
  const body = times?.[1] === undefined ? s : sub(s, 0, times[1].length);
  const text = requireText(body, "page shows Welcome");
  if (!text.ok) return text;
  const large =
    times?.[2] === undefined
      ? undefined
      : refuseLarge(times[2], "a count", MAX_STEP_NUMBER, s.offset + times[1]!.length + s.text.slice(times[1]!.length).search(/\d/));
  if (large) return large;
  const count = countOf(times?.[3], times?.[2]);
  return ok(
    count === undefined ? { kind: "page_shows", text: text.value, negate: false } : { kind: "page_shows", text: text.value, negate: false, times: count },
  );
}

const COOKIE_FACTS: Readonly<Record<string, { fact: "exists" | "http_only" | "secure" | "persistent"; negate: boolean }>> = {
  exists: { fact: "exists", negate: false },
  "does not exist": { fact: "exists", negate: true },
  "is httponly": { fact: "http_only", negate: false },
  "is not httponly": { fact: "http_only", negate: true },
  "is secure": { fact: "secure", negate: false },
  "is not secure": { fact: "secure", negate: true },
  "is persistent": { fact: "persistent", negate: false },
  "is not persistent": { fact: "persistent", negate: true },
};

function parseCookie(s: Slice, ctx: ParseContext): ParseResult<Claim> {
  const m = /^cookie\s+(?:"([^"]+)"|(\S+))\s*(.*)$/i.exec(s.text);
  const fact = (m?.[3] ?? "").trim();
  if (m?.[1] === undefined) {
    const bare = m?.[2] ?? "session_token";
    return failAt("unknown-step", "The cookie name must be quoted.", `write \`cookie "${bare}" ${fact === "" ? "exists" : fact}\``, s);
  }
  const where = /^has\s+(domain|path)\s+(\S+)$/i.exec(fact);
  if (where?.[1] !== undefined && where[2] !== undefined) {
    const refusal = lacked(s, ctx, "cookie", "cookie");
    if (refusal !== undefined) return refusal;
    return ok({ kind: "cookie_where", name: m[1], attribute: where[1].toLowerCase() === "domain" ? "domain" : "path", value: where[2] });
  }
  const known = COOKIE_FACTS[fact.toLowerCase().replace(/\s+/g, " ")];
  if (known === undefined) {
    const isValue = fact !== "";
    return failAt(
      isValue ? "refused-step" : "unknown-step",
      isValue
        ? `A cookie's value cannot be asserted (\`${fact}\`): it is a credential, and comparing it would put it in the trace.`
        : "The cookie assertion needs a fact.",
      `assert a fact instead: \`cookie "${m[1]}" exists\` or \`does not exist\`, \`is [not] httpOnly\`, \`is [not] secure\`, \`is [not] persistent\`, \`has domain <host>\` or \`has path <path>\``,
      s,
    );
  }
  const refusal = lacked(s, ctx, "cookie", "cookie");
  if (refusal !== undefined) return refusal;
  return ok({ kind: "cookie", name: m[1], fact: known.fact, negate: known.negate });
}

/** `<phrase> <value>` of the surface's own sugar; another surface's phrase is refused by name. Undefined: no sugar phrase. */
function parseSugar(s: Slice, ctx: ParseContext): ParseResult<Claim> | undefined {
  const match = (sugar: AssertionSugar) => new RegExp(`^${sugar.phrase.trim().split(/\s+/).map(escapeRegExp).join("\\s+")}\\s+(.+)$`, "i").exec(s.text)?.[1];
  for (const sugar of ctx.surface.sugar ?? []) {
    const text = match(sugar);
    if (text === undefined) continue;
    if (sugar.value === "number" && !/^-?\d+(?:\.\d+)?$/.test(text)) {
      return failAt("unknown-step", `\`${text}\` is not a number for \`${sugar.phrase}\`.`, `write \`${sugar.example}\``, s);
    }
    return ok({ kind: "app_sugar", sugar: sugar.phrase, reads: sugar.reads, compare: sugar.compare, text });
  }
  const foreign = (ctx.foreignSugar ?? []).find((sugar) => match(sugar) !== undefined);
  return foreign === undefined ? undefined : failAt("unsupported-step", `\`${foreign.phrase}\` is ${foreign.elsewhere.what}.`, foreign.elsewhere.hint, s);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function parsePredicate(tail: Slice, target: Target, ctx: ParseContext): ParseResult<Claim> {
  const t = tail.text;
  let m: RegExpExecArray | null;
  if ((m = /^shows\s+exactly\s+(.+)$/i.exec(t)) && m[1] !== undefined) {
    const refusal = lacked(tail, ctx, "exact_text", "shows exactly");
    if (refusal !== undefined) return refusal;
    const text = parseTemplateAt(m[1], tail.offset + t.length - m[1].length);
    return text.ok ? ok({ kind: "shows_exactly", target, text: text.value }) : text;
  }
  if ((m = /^shows\s+an?\s+number\s+(.*)$/i.exec(t)) && m[1] !== undefined) {
    const cmp = /^(greater\s+than|less\s+than|at\s+least|at\s+most)\s+(-?\d+(?:\.\d+)?)$/i.exec(m[1]);
    if (cmp?.[1] === undefined || cmp[2] === undefined) {
      return failAt(
        "unknown-step",
        "`shows a number` compares with a plain number: `greater than`, `less than`, `at least` or `at most` it.",
        'write `the "Total" shows a number greater than 10`',
        tail,
      );
    }
    const op = ({ "greater than": "gt", "less than": "lt", "at least": "ge", "at most": "le" } as const)[
      cmp[1].toLowerCase().replace(/\s+/g, " ") as "greater than"
    ];
    return lacked(tail, ctx, "exact_text", "shows a number") ?? ok({ kind: "number_compare", target, op, value: Number(cmp[2]) });
  }
  if ((m = /^shows\s+(.+)$/i.exec(t)) && m[1] !== undefined) return parseShows(sub(tail, t.length - m[1].length), target);
  if ((m = /^does\s+not\s+show\s+(.+)$/i.exec(t)) && m[1] !== undefined) {
    const text = parseTemplateAt(m[1], tail.offset + t.length - m[1].length);
    return text.ok ? ok({ kind: "not_shows", target, text: text.value }) : text;
  }
  if ((m = /^does\s+not\s+show$/i.exec(t)))
    return failAt("unknown-step", "`does not show` needs the text that must be absent.", 'write `the "css:#status" does not show Error`', tail);
  if ((m = /^contains\s+(exactly\s+)?(.+)$/i.exec(t)) && m[2] !== undefined) {
    if (target.role !== "field" && target.role !== "dropdown") {
      return failAt(
        "unknown-step",
        "`contains` reads a field's value and needs the `field` noun.",
        'write `the "Search" field contains Berlin`, or `the "Search" shows Berlin` for visible text',
        tail,
      );
    }
    const text = parseTemplateAt(m[2], tail.offset + t.length - m[2].length);
    if (!text.ok) return text;
    if (m[1] === undefined) return ok({ kind: "field_contains", target, text: text.value });
    return lacked(tail, ctx, "exact_text", "contains exactly") ?? ok({ kind: "shows_exactly", target, text: text.value });
  }
  if ((m = /^is\s+(not\s+)?focused$/i.exec(t))) return lacked(tail, ctx, "focus", "is focused") ?? ok({ kind: "focused", target, negate: m[1] !== undefined });
  if ((m = /^is\s+(not\s+)?visible$/i.exec(t))) return ok({ kind: "visible", target, negate: m[1] !== undefined });
  if ((m = /^is\s+(enabled|disabled)$/i.exec(t)) && m[1] !== undefined) return ok({ kind: "enabled", target, enabled: m[1].toLowerCase() === "enabled" });
  if ((m = /^is\s+(not\s+)?checked$/i.exec(t))) {
    if (target.role !== "checkbox") {
      return failAt("unknown-step", "`is checked` needs the `checkbox` noun after the label.", 'write `the "Terms" checkbox is checked`', tail);
    }
    return ok({ kind: "checked", target, negate: m[1] !== undefined });
  }
  if ((m = /^is\s+(not\s+)?selected$/i.exec(t))) return ok({ kind: "selected", target, negate: m[1] !== undefined });
  if ((m = /^is\s+(not\s+)?empty$/i.exec(t))) return ok({ kind: "empty", target, negate: m[1] !== undefined });
  if (/^appears?\b/i.test(t)) return parseCount(tail, target);
  if ((m = /^attribute\s+(\S+)\s+is\s+(not\s+)?(.+)$/i.exec(t)) && m[1] !== undefined && m[3] !== undefined) {
    const refusal = lacked(tail, ctx, "attribute", "attribute");
    if (refusal !== undefined) return refusal;
    const value = parseTemplateAt(m[3], tail.offset + t.length - m[3].length);
    if (!value.ok) return value;
    if (hasCapture(value.value)) {
      return failAt(
        "bad-reference",
        "An attribute cannot be compared with a capture: captures compare with `shows`.",
        'write `the "Link" shows ${captured.x}`, or compare the attribute with a literal like `attribute href is /orders`',
        tail,
      );
    }
    return ok({ kind: "attribute", target, name: m[1], value: value.value, negate: m[2] !== undefined });
  }
  if ((m = /^(has|does\s+not\s+have)\s+attribute\s+(\S+)$/i.exec(t)) && m[1] !== undefined && m[2] !== undefined) {
    const refusal = lacked(tail, ctx, "attribute", "attribute");
    if (refusal !== undefined) return refusal;
    return ok({ kind: "has_attribute", target, name: m[2], negate: m[1].toLowerCase() !== "has" });
  }
  if ((m = /^style\s+(\S+)\s+is\s+(not\s+)?(.+)$/i.exec(t)) && m[1] !== undefined && m[3] !== undefined) {
    const prop = m[1].toLowerCase();
    if (!isStyleProp(prop)) {
      return fail(
        "refused-step",
        `\`${m[1]}\` is not an allowed style property (allowed: ${STYLE_PROPS.join(", ")}).`,
        'assert what the user sees instead, e.g. `the "X" is visible`, or one of the allowed properties like `the "X" style color is red`',
        tail.offset + t.indexOf(m[1], 5),
        m[1].length,
      );
    }
    const refusal = lacked(tail, ctx, "style", "style");
    if (refusal !== undefined) return refusal;
    return ok({ kind: "style", target, prop, value: m[3].trim(), negate: m[2] !== undefined });
  }
  if (/^has\s+css\b/i.test(t)) {
    return failAt(
      "refused-step",
      "`has css` asserts implementation, not what the user sees.",
      'write `the "X" style color is red` (color, background-color, text-transform) or `the "X" is visible`',
      tail,
    );
  }
  if (/^is\s+(?:greater|less)\s+than\b/i.test(t)) {
    return failAt(
      "unknown-step",
      "A comparison between two elements is a condition, not an assertion.",
      'use it in `when:` or `repeat: until:`, e.g. `when: the "id:a" is greater than the "id:b"`',
      tail,
    );
  }
  const shown = t === "" ? "(nothing)" : t;
  return failAt(
    "unknown-step",
    `\`${shown}\` is not something an element can be asserted to be.`,
    `end with a predicate: ${PREDICATES}`,
    t === "" ? { text: "", offset: tail.offset } : tail,
  );
}

function parseShows(s: Slice, target: Target): ParseResult<Claim> {
  const computed = COMPUTED.exec(s.text);
  if (computed?.[1] !== undefined && computed[2] !== undefined && computed[3] !== undefined) {
    const large = refuseLarge(computed[3], "an amount added or taken", MAX_STEP_NUMBER, s.offset + s.text.length - computed[3].length);
    if (large) return large;
    return ok({ kind: "shows_computed", target, capture: computed[1], op: computed[2] === "+" ? "+" : "-", amount: Number(computed[3]) });
  }
  if (ARITHMETIC.test(s.text)) {
    return failAt(
      "refused-step",
      "Arithmetic on captures is refused: a trace records what happened, not a computation.",
      'compare one capture plus or minus one number, e.g. `the "Total" shows ${captured.rows} + 1`',
      s,
    );
  }
  const text = parseTemplateAt(s.text, s.offset);
  return text.ok ? ok({ kind: "shows", target, text: text.value }) : text;
}

function parseCount(tail: Slice, target: Target): ParseResult<Claim> {
  const m = /^appears?\s+(?:(\d+)\s+times?|(once|twice))$/i.exec(tail.text);
  const large = m?.[1] === undefined ? undefined : refuseLarge(m[1], "a count", MAX_STEP_NUMBER, tail.offset + tail.text.search(/\d/));
  if (large) return large;
  const count = countOf(m?.[2], m?.[1]);
  if (count === undefined) {
    return failAt(
      "unknown-step",
      "An element count is `appears <N> times` with a whole number, or `appears once` / `appears twice`.",
      'write `the "Row" appears 3 times` or `the "Row" appears once`',
      tail,
    );
  }
  const refused = refuseCountedTarget(target, tail);
  if (refused !== undefined) return refused;
  return ok({ kind: "count", target, count });
}
