// `launch`: Go to / Navigate to (relative to the flow's start URL) and Reload the page.
import { failed, handlerFor, passed } from "./shared.ts";
import { resolveText } from "../templates.ts";

export const launch = handlerFor(["launch"], async (step, ctx) => {
  const p = step.action.params;
  if ("reload" in p) {
    const r = await ctx.driver.reload(ctx.navigationTimeoutMs);
    return r.ok ? passed() : failed(r.detail);
  }
  const raw = p.url;
  const { value } = resolveText(raw, ctx);
  let url: string;
  try {
    url = new URL(value, ctx.baseUrl).href;
  } catch {
    return failed(`${JSON.stringify(raw)} is not a URL or a path`);
  }
  const r = await ctx.driver.navigate(url, ctx.navigationTimeoutMs);
  return r.ok ? passed() : failed(r.detail);
});
