// `launch`: Go to / Navigate to (relative to the flow's start URL), Reload the page, Go back / forward.
// Without a start page, a path goes to the driver as written (SAP GUI transaction codes).
import { errored, failed, handlerFor, passed } from "./shared.ts";
import { resolveText } from "../templates.ts";

export const launch = handlerFor(["launch"], async (step, ctx) => {
  const p = step.action.params;
  if ("reload" in p) {
    const r = await ctx.driver.reload(ctx.navigationTimeoutMs);
    return r.ok ? passed() : failed(r.detail);
  }
  if ("history" in p) {
    if (!ctx.driver.history) return errored(`\`Go ${p.history}\` needs a surface with a page history; this surface has none`);
    const r = await ctx.driver.history(p.history, ctx.navigationTimeoutMs);
    return r.ok ? passed() : failed(r.detail);
  }
  const raw = p.url;
  const { value } = resolveText(raw, ctx);
  let url: string;
  try {
    url = new URL(value, ctx.baseUrl).href;
  } catch {
    // A surface without a start page (SAP GUI: `Go to /nVA01` is a transaction code) takes the
    // path as written; its driver decides what it means.
    if (!(ctx.baseUrl === "about:blank" && value.startsWith("/"))) return failed(`${JSON.stringify(raw)} is not a URL or a path`);
    url = value;
  }
  // A `file:` URL outside the run's roots is never opened.
  const refused = ctx.paths?.refusesUrl("the page to go to", url);
  if (refused !== undefined) return failed(refused);
  const r = await ctx.driver.navigate(url, ctx.navigationTimeoutMs);
  return r.ok ? passed() : failed(r.detail);
});
