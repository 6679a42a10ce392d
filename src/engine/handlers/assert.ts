// `assert` and `wait`: auto-waiting expectations. The trace's `expect` is turned into a resolved
// driver Expectation, then read until it holds or its recorded bound expires.
import type { Expectation } from "../../plugins/api.ts";
import type { Expect } from "../../trace/schema.ts";
import type { StepOutcome } from "./shared.ts";
import { describeLadder, errored, failed, handlerFor, passed } from "./shared.ts";
import { poll } from "../poll.ts";
import { resolveText } from "../templates.ts";
import { parseTemplate } from "../../grammar/index.ts";
import type { ExecutionContext } from "../context.ts";
import { ambiguousLabel } from "../ambiguity.ts";

interface Planned {
  readonly expect: Expectation;
  /** How the expectation reads in a failure message. */
  readonly wording: string;
  /** Do not echo what the page showed (the expectation held a `${VAR}` value). */
  readonly quiet: boolean;
}

/**
 * The text as authored with every `${captured.x}` replaced by its remembered value (`${VAR}`
 * references stay as written: their values are never shown), as ` (that is, "…")`; empty when
 * the text remembers nothing.
 */
function rememberedText(raw: string, ctx: ExecutionContext): string {
  const parsed = parseTemplate(raw);
  if (!parsed.ok || !parsed.value.parts.some((p) => p.kind === "captured")) return "";
  const text = parsed.value.parts.map((p) => (p.kind === "literal" ? p.text : p.kind === "env" ? `\${${p.name}}` : (ctx.captures.get(p.name) ?? ""))).join("");
  return ` (that is, ${JSON.stringify(text)})`;
}

/** Decimals a number is written with (`12.34` → 2). */
const decimalsOf = (text: string): number => /\.(\d+)$/.exec(text)?.[1]?.length ?? 0;

const times = (n: number) => (n === 1 ? "once" : `${n} times`);

function plan(e: Expect, ctx: ExecutionContext, subject: string): Planned | string {
  const negate = "negate" in e && e.negate === true;
  if ("value_contains" in e) {
    const t = resolveText(e.value_contains, ctx);
    const count = e.count;
    return {
      expect: count === undefined ? { kind: "text_contains", text: t.value } : { kind: "text_contains", text: t.value, count },
      wording: `${subject} to show ${JSON.stringify(e.value_contains)}${count === undefined ? "" : ` ${times(count)}`}${rememberedText(e.value_contains, ctx)}`,
      quiet: t.hasEnv,
    };
  }
  if ("value_not_contains" in e) {
    const t = resolveText(e.value_not_contains, ctx);
    return {
      expect: { kind: "text_absent", text: t.value },
      wording: `${subject} not to show ${JSON.stringify(e.value_not_contains)}${rememberedText(e.value_not_contains, ctx)}`,
      quiet: t.hasEnv,
    };
  }
  const page = (kind: "url" | "title", op: "equals" | "contains", raw: string): Planned => {
    const t = resolveText(raw, ctx);
    return {
      expect: { kind, op, value: t.value },
      wording: `the page ${kind} ${op === "equals" ? "to be" : "to contain"} ${JSON.stringify(raw)}`,
      quiet: t.hasEnv,
    };
  };
  if ("url_equals" in e) return page("url", "equals", e.url_equals);
  if ("url_contains" in e) return page("url", "contains", e.url_contains);
  if ("title_equals" in e) return page("title", "equals", e.title_equals);
  if ("title_contains" in e) return page("title", "contains", e.title_contains);
  if ("capture" in e) {
    const { capture: name, offset } = e;
    const raw = resolveText(`\${captured.${name}}`, ctx).value;
    const digits = raw.replace(/[^0-9.\-]/g, "");
    const base = Number(digits);
    if (digits === "" || !Number.isFinite(base))
      return `the value remembered as ${name} (${JSON.stringify(raw)}) does not read as a number, so it cannot be compared with ${offset >= 0 ? "+" : "-"} ${Math.abs(offset)}`;
    const sign = offset === 0 ? "" : offset > 0 ? ` + ${offset}` : ` - ${-offset}`;
    // The expected result as the page would write it: as many decimals as the remembered value or the offset has.
    const want = (base + offset).toFixed(Math.max(decimalsOf(digits), decimalsOf(String(Math.abs(offset)))));
    const sum = offset === 0 ? `that is, ${want}` : `${digits}${sign} = ${want}`;
    const worked = raw.trim() === digits ? sum : `${sum}, ${name} was remembered as ${JSON.stringify(raw)}`;
    return { expect: { kind: "numeric_equals", value: base + offset }, wording: `${subject} to show \${captured.${name}}${sign} (${worked})`, quiet: false };
  }
  if ("normalize" in e) {
    const t = resolveText(e.value_equals, ctx);
    const value = Number(t.value.replace(/[,\s]/g, ""));
    if (!Number.isFinite(value)) return `${JSON.stringify(e.value_equals)} is not a number, so the display cannot be compared with it`;
    return { expect: { kind: "numeric_equals", value }, wording: `${subject} to show the number ${e.value_equals}`, quiet: t.hasEnv };
  }
  if ("element_present" in e)
    return {
      expect: { kind: "visible", visible: e.element_present },
      wording: `${subject} to be ${e.element_present ? "visible" : "not visible"}`,
      quiet: false,
    };
  if ("enabled" in e)
    return { expect: { kind: "enabled", enabled: e.enabled }, wording: `${subject} to be ${e.enabled ? "enabled" : "disabled"}`, quiet: false };
  if ("checked" in e)
    return { expect: { kind: "checked", checked: e.checked }, wording: `${subject} to be ${e.checked ? "checked" : "not checked"}`, quiet: false };
  if ("selected" in e)
    return { expect: { kind: "selected", selected: e.selected }, wording: `${subject} to be ${e.selected ? "selected" : "not selected"}`, quiet: false };
  if ("value_empty" in e)
    return { expect: { kind: "empty", empty: e.value_empty }, wording: `${subject} to be ${e.value_empty ? "empty" : "not empty"}`, quiet: false };
  if ("element_count" in e)
    return { expect: { kind: "count", count: e.element_count }, wording: `${subject} to appear ${times(e.element_count)}`, quiet: false };
  if ("attribute" in e && "present" in e) {
    return {
      expect: { kind: "attribute_present", name: e.attribute, present: e.present },
      wording: `${subject} ${e.present ? "to have" : "not to have"} attribute ${e.attribute}`,
      quiet: false,
    };
  }
  if ("attribute" in e) {
    const t = resolveText(e.value_equals, ctx);
    return {
      expect: { kind: "attribute", name: e.attribute, value: t.value, negate },
      wording: `${subject} to have ${e.attribute} ${negate ? "other than" : "equal to"} ${JSON.stringify(e.value_equals)}`,
      quiet: t.hasEnv,
    };
  }
  if ("style" in e) {
    return {
      expect: { kind: "style", prop: e.style, value: e.value_equals, negate },
      wording: `${subject} to have ${e.style} ${negate ? "other than" : "equal to"} ${e.value_equals}`,
      quiet: false,
    };
  }
  if ("storage" in e) {
    // The key may hold a `${VAR}`: resolved now, shown as written, and the keys the page holds are then not listed.
    if ("storage_keys" in e) {
      const keys = e.storage_keys.map((k) => resolveText(k, ctx));
      const named = e.storage_keys.length === 0 ? "no keys" : `only ${e.storage_keys.map((k) => JSON.stringify(k)).join(", ")}`;
      return {
        expect: { kind: "storage_keys", area: e.storage, keys: keys.map((k) => k.value) },
        wording: `${e.storage} storage to hold ${named}`,
        quiet: keys.some((k) => k.hasEnv),
      };
    }
    const key = resolveText(e.storage_key, ctx);
    if ("storage_absent" in e) {
      return {
        expect: { kind: "storage_absent", area: e.storage, key: key.value },
        wording: `${e.storage} storage to hold nothing under ${JSON.stringify(e.storage_key)}`,
        quiet: key.hasEnv,
      };
    }
    if ("storage_equals" in e) {
      const t = resolveText(e.storage_equals, ctx);
      return {
        expect: { kind: "storage", area: e.storage, key: key.value, text: t.value, exact: true },
        wording: `${e.storage} storage ${JSON.stringify(e.storage_key)} to be exactly ${JSON.stringify(e.storage_equals)}${rememberedText(e.storage_equals, ctx)}`,
        quiet: t.hasEnv || key.hasEnv,
      };
    }
    const t = resolveText(e.storage_contains, ctx);
    return {
      expect: { kind: "storage", area: e.storage, key: key.value, text: t.value },
      wording: `${e.storage} storage ${JSON.stringify(e.storage_key)} to contain ${JSON.stringify(e.storage_contains)}${rememberedText(e.storage_contains, ctx)}`,
      quiet: t.hasEnv || key.hasEnv,
    };
  }
  if ("cookie_count" in e)
    return {
      expect: { kind: "cookie_count", count: e.cookie_count },
      wording: `${e.cookie_count === 0 ? "no cookies" : e.cookie_count === 1 ? "1 cookie" : `${e.cookie_count} cookies`} to be set`,
      quiet: false,
    };
  if ("cookie_domain" in e)
    return {
      expect: { kind: "cookie_where", name: e.cookie, attribute: "domain", value: e.cookie_domain },
      wording: `cookie ${JSON.stringify(e.cookie)} to have domain ${e.cookie_domain}`,
      quiet: false,
    };
  if ("cookie_path" in e)
    return {
      expect: { kind: "cookie_where", name: e.cookie, attribute: "path", value: e.cookie_path },
      wording: `cookie ${JSON.stringify(e.cookie)} to have path ${e.cookie_path}`,
      quiet: false,
    };
  if ("cookie" in e) {
    const words = { exists: "to exist", http_only: "to be httpOnly", secure: "to be secure", persistent: "to be persistent" } as const;
    const not = { exists: "not to exist", http_only: "not to be httpOnly", secure: "not to be secure", persistent: "not to be persistent" } as const;
    const negated = e.negate === true;
    return {
      expect: { kind: "cookie", name: e.cookie, fact: e.cookie_fact, ...(negated ? { negate: true } : {}) },
      wording: `cookie ${JSON.stringify(e.cookie)} ${(negated ? not : words)[e.cookie_fact]}`,
      quiet: false,
    };
  }
  if ("value_exactly" in e) {
    const t = resolveText(e.value_exactly, ctx);
    return {
      expect: { kind: "text_equals", text: t.value },
      wording: `${subject} to show exactly ${JSON.stringify(e.value_exactly)}${rememberedText(e.value_exactly, ctx)}`,
      quiet: t.hasEnv,
    };
  }
  if ("number_compare" in e) {
    const words = { gt: "greater than", lt: "less than", ge: "at least", le: "at most" } as const;
    return {
      expect: { kind: "number_compare", op: e.number_compare, value: e.number },
      wording: `${subject} to show a number ${words[e.number_compare]} ${e.number}`,
      quiet: false,
    };
  }
  if ("focused" in e)
    return { expect: { kind: "focused", focused: e.focused }, wording: `${subject} ${e.focused ? "to have" : "not to have"} keyboard focus`, quiet: false };
  return assertNever(e);
}

function assertNever(e: never): string {
  return `this version of flowproof cannot check ${JSON.stringify(Object.keys(e as object).filter((k) => k !== "timeout_ms"))}`;
}

/** `assert` (element_state) and `wait` steps. */
export const assertStep = handlerFor(["assert", "wait"], async (step, ctx): Promise<StepOutcome> => {
  const p = step.action.params;
  if (p.kind !== "element_state") return errored(`an assert step of kind ${p.kind} reached the element_state handler`);
  const e = p.expect;
  const surface = e.scope === "surface" || step.selectors.length === 0;
  const subject = surface ? "the page" : describeLadder(step.selectors);
  const planned = plan(e, ctx, subject);
  if (typeof planned === "string") return failed(planned);
  const timeoutMs = e.timeout_ms;
  const ladder = surface ? [] : step.selectors;
  // Counting names several elements on purpose; every other element assertion must name one.
  const single = !surface && planned.expect.kind !== "count";
  const r = await poll(
    ctx.clock,
    timeoutMs,
    async () => {
      const ambiguous = single ? await ambiguousLabel(step, ctx) : undefined;
      if (ambiguous !== undefined) return { done: false, retryable: false, last: { pass: false, actual: ambiguous, retryable: false } };
      const reading = await ctx.driver.check(ladder, planned.expect);
      return reading.pass ? { done: true, value: reading } : { done: false, retryable: reading.retryable !== false, last: reading };
    },
    // A surface that tells when it changed is read again then, not at the next interval.
    ctx.driver.untilChange?.bind(ctx.driver),
  );
  if (r.ok) return passed(r.value.tier);
  const expected = planned.wording;
  const actual = planned.quiet ? undefined : r.value.actual;
  // The rung that resolved the target, when one did: a known failure must fail on the same target.
  const tier = r.value.tier !== undefined ? { tier: r.value.tier } : {};
  if (r.value.retryable === false) return { ...failed(`${subject}: ${r.value.actual}`, { expected, actual }), ...tier };
  const seen = planned.quiet ? "" : `; ${seenClause(planned.expect, r.value.actual, surface)}`;
  return { ...failed(`expected ${planned.wording} within ${timeoutMs} ms${seen}`, { expected, actual }), ...tier };
});

/** What the app showed, as the second half of a failure sentence (`it shows "Pending"`, `it never appeared (…)`). */
export function seenClause(expect: Expectation, actual: string, surface: boolean): string {
  const k = expect.kind;
  if (
    k === "cookie" ||
    k === "cookie_where" ||
    k === "cookie_count" ||
    k === "attribute" ||
    k === "attribute_present" ||
    k === "style" ||
    k === "storage" ||
    k === "storage_absent" ||
    k === "storage_keys" ||
    k === "focused"
  )
    return actual;
  if (actual.startsWith("never appeared")) return `it ${actual}`;
  // A reading that is a sentence of its own (`<input#x> is not a checkbox, radio or switch`).
  if (/ is not an? /.test(actual)) return actual;
  const counted = /^(?:found )?(\d+)(?: times)?$/.exec(actual);
  if (counted && (k === "count" || (k === "text_contains" && expect.count !== undefined)))
    return `${surface ? "the page shows it" : k === "count" ? "it appears" : "it shows it"} ${times(Number(counted[1]))}`;
  // The page says which part of the URL it compared (`its path is /x (the whole URL is …)`).
  if (k === "url") return actual;
  if (k === "title") return `it is ${actual}`;
  if (k === "text_contains" || k === "text_absent" || k === "numeric_equals" || k === "text_equals")
    return `${surface ? "the page shows" : "it shows"} ${actual}`;
  if (k === "empty" && actual !== "empty") return `it shows ${actual}`;
  return `it is ${actual}`;
}
