// `drag`: press on the source, move with the button held, release on the drop target (the
// trace's `onto` ladder), at its centre or at the drop point (`x_pct`, `y_pct`). Both ends must be actionable.
import { errored, failed, handlerFor, runAction } from "./shared.ts";

export const drag = handlerFor(["drag"], async (step, ctx) => {
  const { onto, x_pct, y_pct } = step.action.params;
  const at = x_pct !== undefined && y_pct !== undefined ? { xPct: x_pct, yPct: y_pct } : undefined;
  if (onto.length === 0) return failed("the drag step has no drop target (`onto` ladder)");
  const driver = ctx.driver;
  if (!driver.drag || !driver.capabilities.has("drag")) return errored("this app cannot drag: its surface lacks the drag capability");
  const dragOnce = driver.drag.bind(driver);
  return runAction(step, ctx, () => dragOnce(step.selectors, onto, at));
});
