// `scroll`: the page or a container to its top or bottom, an element into view, or a container to
// an exact offset (verified ±1 px by the driver). No selectors = the page.
import type { ScrollTo } from "../../plugins/api.ts";
import type { ActionOf } from "../../trace/schema.ts";
import { errored, failed, handlerFor, runAction } from "./shared.ts";

/** The trace's `scroll` params as a driver request. */
export function scrollRequest(params: ActionOf<"scroll">["params"]): ScrollTo {
  if ("into_view" in params) return { into_view: true };
  if ("to_px" in params) return params.axis === "x" ? { to_px: params.to_px, axis: "x" } : { to_px: params.to_px };
  if ("to_pct" in params) return params.axis === "x" ? { to_pct: params.to_pct, axis: "x" } : { to_pct: params.to_pct };
  return { to: params.to };
}

export const scroll = handlerFor(["scroll"], async (step, ctx) => {
  const to = scrollRequest(step.action.params);
  const driver = ctx.driver;
  if (!driver.scroll) return errored("this app's driver cannot scroll (`scroll`); Scroll needs a surface that scrolls");
  if ("into_view" in to && step.selectors.length === 0) return failed("scrolling into view needs a target");
  return runAction(step, ctx, () => driver.scroll!(step.selectors, to));
});
