// `type_text`: fill a field (select-all then keystrokes), append to the focused element, clear,
// or choose dropdown options (`select: true`). Values resolve at execution; never persisted.
import type { StepOutcome } from "./shared.ts";
import { failed, handlerFor, runAction, stepTimeoutMs, type StepOf } from "./shared.ts";
import type { ExecutionContext } from "../context.ts";
import { resolveText } from "../templates.ts";

/**
 * Select: the options as written, or on replay the labels the recording chose (`chosen`), taken
 * exactly so the text rule is not decided again. A recording learns those labels, unless an
 * option holds a `${…}` or a label holds a secret's value (it is then not written anywhere).
 */
async function select(step: StepOf<"type_text">, ctx: ExecutionContext): Promise<StepOutcome> {
  const p = step.action.params;
  const written = p.values ?? [p.text];
  const replaying = p.chosen !== undefined && p.chosen.length > 0;
  const resolved = (replaying ? p.chosen! : written).map((v) => resolveText(v, ctx).value);
  let chosen: readonly string[] | undefined;
  const outcome = await runAction(step, ctx, async () => {
    const a = await ctx.driver.select(step.selectors, resolved, replaying);
    if (!a.ok) return a;
    chosen = a.value;
    return { ok: true, value: undefined, ...(a.tier !== undefined ? { tier: a.tier } : {}) };
  });
  // A label that holds a secret seen so far (a typed `${VAR}` value) is not written either.
  const secret = (label: string) => [...ctx.secrets.values()].some((s) => s !== "" && label.includes(s));
  if (outcome.status === "passed" && ctx.learned && chosen && chosen.length > 0 && !written.some((v) => v.includes("${")) && !chosen.some(secret)) {
    ctx.learned.set(step.id, { chosen: [...chosen] });
  }
  return outcome;
}

export const typeText = handlerFor(["type_text"], async (step, ctx) => {
  const p = step.action.params;
  if (p.select === true) return select(step, ctx);
  const { value, hasEnv } = resolveText(p.text, ctx);
  // A `${VAR}` value is a secret: the surface masks its field in every frame from now on. The
  // typing itself is bounded by the step's action bound plus its navigation bound, inside the
  // step loop's hang guard, so a page that takes input slowly fails this step naming the typing.
  const options = { ...(hasEnv ? { secret: true } : {}), timeoutMs: stepTimeoutMs(step) + ctx.navigationTimeoutMs };
  if (step.selectors.length === 0) {
    if (p.replace === true) return failed("clearing needs a target field");
    return runAction(step, ctx, () => ctx.driver.typeFocused(value, options));
  }
  return runAction(step, ctx, () => ctx.driver.fill(step.selectors, value, options));
});
