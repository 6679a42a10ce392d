// `set_cookie`: Set cookie "<name>" to <value> — a plain cookie for the page's URL (the surface's).
import { errored, failed, handlerFor, passed } from "./shared.ts";

export const setCookie = handlerFor(["set_cookie"], async (step, ctx) => {
  const { name, value } = step.action.params;
  if (!ctx.driver.setCookie) return errored(`setting the cookie ${JSON.stringify(name)} needs a surface with cookies; this surface has none`);
  const r = await ctx.driver.setCookie(name, value);
  return r.ok ? passed() : failed(r.detail);
});
