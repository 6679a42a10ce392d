// `hover`: one trusted pointer move onto the target, verified to have left it hovered; answers a
// declared native dialog.
import { handlerFor, runAction } from "./shared.ts";
import { withDialog } from "./dialog.ts";

export const hover = handlerFor(["hover"], async (step, ctx) =>
  withDialog(step.action.params.dialog, ctx, () => runAction(step, ctx, () => ctx.driver.hover(step.selectors))),
);
