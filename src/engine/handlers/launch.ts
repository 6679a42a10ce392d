// `launch`: Go to / Navigate to (relative to the flow's start URL) and Reload the page.
import type { Handler } from "./shared.ts";
import { failed, passed } from "./shared.ts";
import { resolveText } from "../templates.ts";

export const launch: Handler = async (step, ctx) => {
  if (step.action.params["reload"] === true) {
    const r = await ctx.driver.reload(ctx.navigationTimeoutMs);
    return r.ok ? passed() : failed(r.detail);
  }
  const raw = step.action.params["url"];
  if (typeof raw !== "string") return failed("the launch step has no url");
  const { value } = resolveText(raw, ctx);
  let url: string;
  try {
    url = new URL(value, ctx.baseUrl).href;
  } catch {
    return failed(`${JSON.stringify(raw)} is not a URL or a path`);
  }
  const r = await ctx.driver.navigate(url, ctx.navigationTimeoutMs);
  return r.ok ? passed() : failed(r.detail);
};
