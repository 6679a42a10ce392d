// `click`, `double_click`, `right_click`: trusted pointer input at the target's click point,
// answering a declared native dialog.
import type { Handler } from "./shared.ts";
import { runAction } from "./shared.ts";
import { withDialog } from "./dialog.ts";

export const click: Handler = async (step, ctx) => {
  const type = step.action.type;
  const x = step.action.params["x_pct"];
  const y = step.action.params["y_pct"];
  const at = typeof x === "number" && typeof y === "number" ? { xPct: x, yPct: y } : undefined;
  return withDialog(step, ctx, () =>
    runAction(step, ctx, () =>
      ctx.driver.click(step.selectors, {
        button: type === "right_click" ? "right" : "left",
        clickCount: type === "double_click" ? 2 : 1,
        ...(at ? { at } : {}),
      }),
    ),
  );
};
