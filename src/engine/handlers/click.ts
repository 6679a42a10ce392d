// `click`, `double_click`, `right_click`: trusted pointer input at the target's click point,
// answering a declared native dialog.
import { handlerFor, runAction } from "./shared.ts";
import { withDialog } from "./dialog.ts";

export const click = handlerFor(["click", "double_click", "right_click"], async (step, ctx) => {
  const { type, params } = step.action;
  const at = params.x_pct !== undefined && params.y_pct !== undefined ? { xPct: params.x_pct, yPct: params.y_pct } : undefined;
  return withDialog(params.dialog, ctx, () =>
    runAction(step, ctx, () =>
      ctx.driver.click(step.selectors, {
        button: type === "right_click" ? "right" : "left",
        clickCount: type === "double_click" ? 2 : 1,
        ...(at ? { at } : {}),
      }),
    ),
  );
});
