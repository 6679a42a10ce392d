// `assert` and `wait`: auto-waiting expectations. The trace's `expect` is turned into a resolved
// driver Expectation, then read until it holds or its recorded bound expires.
import type { Expectation } from "../../plugins/api.ts";
import type { Handler, StepOutcome } from "./shared.ts";
import { describeLadder, failed, passed } from "./shared.ts";
import { poll } from "../poll.ts";
import { resolveText } from "../templates.ts";
import type { ExecutionContext } from "../context.ts";
import { DEFAULT_ASSERT_TIMEOUT_MS } from "../compile.ts";

interface Planned {
  readonly expect: Expectation;
  /** How the expectation reads in a failure message. */
  readonly wording: string;
  /** Do not echo what the page showed (the expectation held a `${VAR}` value). */
  readonly quiet: boolean;
}

function plan(e: Record<string, unknown>, ctx: ExecutionContext, subject: string): Planned | string {
  const text = (key: string) => resolveText(String(e[key]), ctx);
  if (typeof e["value_contains"] === "string") {
    const t = text("value_contains");
    const count = typeof e["count"] === "number" ? e["count"] : undefined;
    return {
      expect: count === undefined ? { kind: "text_contains", text: t.value } : { kind: "text_contains", text: t.value, count },
      wording: `${subject} to show ${JSON.stringify(e["value_contains"])}${count === undefined ? "" : ` ${count} times`}`,
      quiet: t.hasEnv,
    };
  }
  if (typeof e["value_not_contains"] === "string") {
    const t = text("value_not_contains");
    return { expect: { kind: "text_absent", text: t.value }, wording: `${subject} not to show ${JSON.stringify(e["value_not_contains"])}`, quiet: t.hasEnv };
  }
  for (const [key, kind, op] of [["url_equals", "url", "equals"], ["url_contains", "url", "contains"], ["title_equals", "title", "equals"], ["title_contains", "title", "contains"]] as const) {
    if (typeof e[key] === "string") {
      const t = text(key);
      return { expect: { kind, op, value: t.value }, wording: `the page ${kind} ${op === "equals" ? "to be" : "to contain"} ${JSON.stringify(e[key])}`, quiet: t.hasEnv };
    }
  }
  if (typeof e["capture"] === "string") {
    const name = e["capture"];
    const offset = typeof e["offset"] === "number" ? e["offset"] : 0;
    const raw = resolveText(`\${captured.${name}}`, ctx).value;
    const base = Number(raw.replace(/[^0-9.\-]/g, ""));
    if (raw.replace(/[^0-9.\-]/g, "") === "" || !Number.isFinite(base)) return `the value remembered as ${name} does not read as a number, so it cannot be compared with ${offset >= 0 ? "+" : "-"} ${Math.abs(offset)}`;
    const sign = offset === 0 ? "" : offset > 0 ? ` + ${offset}` : ` - ${-offset}`;
    return { expect: { kind: "numeric_equals", value: base + offset }, wording: `${subject} to show \${captured.${name}}${sign}`, quiet: false };
  }
  if (typeof e["element_present"] === "boolean") return { expect: { kind: "visible", visible: e["element_present"] }, wording: `${subject} to be ${e["element_present"] ? "visible" : "not visible"}`, quiet: false };
  if (typeof e["enabled"] === "boolean") return { expect: { kind: "enabled", enabled: e["enabled"] }, wording: `${subject} to be ${e["enabled"] ? "enabled" : "disabled"}`, quiet: false };
  if (typeof e["checked"] === "boolean") return { expect: { kind: "checked", checked: e["checked"] }, wording: `${subject} to be ${e["checked"] ? "checked" : "not checked"}`, quiet: false };
  if (typeof e["value_empty"] === "boolean") return { expect: { kind: "empty", empty: e["value_empty"] }, wording: `${subject} to be ${e["value_empty"] ? "empty" : "not empty"}`, quiet: false };
  if (typeof e["element_count"] === "number") return { expect: { kind: "count", count: e["element_count"] }, wording: `${subject} to appear ${e["element_count"]} times`, quiet: false };
  const negate = e["negate"] === true;
  if (typeof e["attribute"] === "string" && typeof e["value_equals"] === "string") {
    const t = text("value_equals");
    return { expect: { kind: "attribute", name: e["attribute"], value: t.value, negate }, wording: `${subject} to have ${e["attribute"]} ${negate ? "other than" : "equal to"} ${JSON.stringify(e["value_equals"])}`, quiet: t.hasEnv };
  }
  if (typeof e["attribute"] === "string" && typeof e["present"] === "boolean") {
    return { expect: { kind: "attribute_present", name: e["attribute"], present: e["present"] }, wording: `${subject} ${e["present"] ? "to have" : "not to have"} attribute ${e["attribute"]}`, quiet: false };
  }
  if (typeof e["style"] === "string" && typeof e["value_equals"] === "string") {
    return { expect: { kind: "style", prop: e["style"], value: e["value_equals"], negate }, wording: `${subject} to have ${e["style"]} ${negate ? "other than" : "equal to"} ${e["value_equals"]}`, quiet: false };
  }
  const fact = e["cookie_fact"];
  if (typeof e["cookie"] === "string" && (fact === "exists" || fact === "http_only" || fact === "secure" || fact === "persistent")) {
    const words = { exists: "to exist", http_only: "to be httpOnly", secure: "to be secure", persistent: "to be persistent" } as const;
    return { expect: { kind: "cookie", name: e["cookie"], fact }, wording: `cookie ${JSON.stringify(e["cookie"])} ${words[fact]}`, quiet: false };
  }
  return `this version of flowproof cannot check ${JSON.stringify(Object.keys(e).filter((k) => k !== "timeout_ms"))}`;
}

export const assertStep: Handler = async (step, ctx): Promise<StepOutcome> => {
  const expect = step.action.params["expect"];
  if (!expect || typeof expect !== "object") return failed("the assertion has no expectation");
  const e = expect as Record<string, unknown>;
  const surface = e["scope"] === "surface" || step.selectors.length === 0;
  const subject = surface ? "the page" : describeLadder(step.selectors);
  const planned = plan(e, ctx, subject);
  if (typeof planned === "string") return failed(planned);
  const timeoutMs = typeof e["timeout_ms"] === "number" ? e["timeout_ms"] : DEFAULT_ASSERT_TIMEOUT_MS;
  const ladder = surface ? [] : step.selectors;
  const r = await poll(ctx.clock, timeoutMs, async () => {
    const reading = await ctx.driver.check(ladder, planned.expect);
    return reading.pass ? { done: true, value: reading } : { done: false, retryable: reading.retryable !== false, last: reading };
  });
  if (r.ok) return passed(r.value.tier);
  if (r.value.retryable === false) return failed(`${subject}: ${r.value.actual}`);
  const k = planned.expect.kind;
  const seen = planned.quiet ? "" : k === "cookie" || k === "attribute" || k === "attribute_present" || k === "style" ? `; ${r.value.actual}` : `; ${surface && k !== "url" && k !== "title" ? "the page shows" : "it is"} ${r.value.actual}`;
  return failed(`expected ${planned.wording} within ${timeoutMs} ms${seen}`);
};
