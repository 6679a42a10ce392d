// `drag`: press on the source, move with the button held, release on the drop target (the
// trace's `onto` ladder). Both ends must be actionable.
import { errored, failed, handlerFor, runAction } from "./shared.ts";

export const drag = handlerFor(["drag"], async (step, ctx) => {
  const { onto } = step.action.params;
  if (onto.length === 0) return failed("the drag step has no drop target (`onto` ladder)");
  const driver = ctx.driver;
  if (!driver.drag || !driver.capabilities.has("pointer")) return errored("this app cannot drag; Drag is web only");
  const dragOnce = driver.drag.bind(driver);
  return runAction(step, ctx, () => dragOnce(step.selectors, onto));
});
