// `set_viewport`: Resize the viewport to <width>x<height>, from this step on.
import { errored, failed, handlerFor, passed } from "./shared.ts";

export const setViewport = handlerFor(["set_viewport"], async (step, ctx) => {
  const { width, height } = step.action.params;
  if (!ctx.driver.setViewport) return errored(`resizing the viewport needs a surface with a viewport; this surface has none`);
  const r = await ctx.driver.setViewport(width, height);
  return r.ok ? passed() : failed(r.detail);
});
