// `set_checked`: Check / Uncheck through a real click; a no-op when already in that state; the
// state is verified after the click.
import { handlerFor, runAction } from "./shared.ts";

export const setChecked = handlerFor(["set_checked"], async (step, ctx) =>
  runAction(step, ctx, () => ctx.driver.setChecked(step.selectors, step.action.params.checked)),
);
