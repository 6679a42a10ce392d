// `hover`: one trusted pointer move onto the target.
import type { Handler } from "./shared.ts";
import { runAction } from "./shared.ts";

export const hover: Handler = async (step, ctx) => runAction(step, ctx, () => ctx.driver.hover(step.selectors));
