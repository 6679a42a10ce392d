// `type_text`: fill a field (select-all then keystrokes), append to the focused element, clear,
// or choose dropdown options (`select: true`). Values resolve at execution; never persisted.
import type { Handler } from "./shared.ts";
import { failed, runAction } from "./shared.ts";
import { resolveText } from "../templates.ts";

export const typeText: Handler = async (step, ctx) => {
  const p = step.action.params;
  const raw = typeof p["text"] === "string" ? p["text"] : "";
  if (p["select"] === true) {
    const values = Array.isArray(p["values"]) ? p["values"].map(String) : [raw];
    const resolved = values.map((v) => resolveText(v, ctx).value);
    return runAction(step, ctx, () => ctx.driver.select(step.selectors, resolved));
  }
  const { value } = resolveText(raw, ctx);
  if (step.selectors.length === 0) {
    if (p["replace"] === true) return failed("clearing needs a target field");
    return runAction(step, ctx, () => ctx.driver.typeFocused(value));
  }
  return runAction(step, ctx, () => ctx.driver.fill(step.selectors, value));
};
