// `hover`: one trusted pointer move onto the target, verified to have left it hovered; answers a
// declared native dialog.
import type { Handler } from "./shared.ts";
import { runAction } from "./shared.ts";
import { withDialog } from "./dialog.ts";

export const hover: Handler = async (step, ctx) => withDialog(step, ctx, () => runAction(step, ctx, () => ctx.driver.hover(step.selectors)));
