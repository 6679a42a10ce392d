// `clear_storage`: Clear local storage / session storage (the page's origin) / cookies (the surface's).
import { errored, failed, handlerFor, passed } from "./shared.ts";

export const clearStorage = handlerFor(["clear_storage"], async (step, ctx) => {
  const what = step.action.params.storage;
  if (!ctx.driver.clearStorage)
    return errored(`clearing ${what === "cookies" ? "cookies" : `${what} storage`} needs a surface with site storage; this surface has none`);
  const r = await ctx.driver.clearStorage(what);
  return r.ok ? passed() : failed(r.detail);
});
