// `type_text`: fill a field (select-all then keystrokes), append to the focused element, clear,
// or choose dropdown options (`select: true`). Values resolve at execution; never persisted.
import { failed, handlerFor, runAction, stepTimeoutMs } from "./shared.ts";
import { resolveText } from "../templates.ts";

export const typeText = handlerFor(["type_text"], async (step, ctx) => {
  const p = step.action.params;
  if (p.select === true) {
    const resolved = (p.values ?? [p.text]).map((v) => resolveText(v, ctx).value);
    return runAction(step, ctx, () => ctx.driver.select(step.selectors, resolved));
  }
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
