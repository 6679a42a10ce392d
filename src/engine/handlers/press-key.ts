// `press_key`: a named key or chord as trusted keyboard input to the focused element.
import { handlerFor, runAction } from "./shared.ts";

export const pressKey = handlerFor(["press_key"], async (step, ctx) => {
  const { key, modifiers = [] } = step.action.params;
  return runAction(step, ctx, () => ctx.driver.pressKey(key, modifiers));
});
