// `scroll`: the page or a container to its top or bottom, an element into view, or a container to
// an exact offset (verified ±1 px by the driver). No selectors = the page.
import type { ScrollTo } from "../../plugins/api.ts";
import type { Handler } from "./shared.ts";
import { errored, failed, runAction } from "./shared.ts";

/** The trace's `scroll` params as a driver request; a string says what is wrong with them. */
export function scrollRequest(params: Readonly<Record<string, unknown>>): ScrollTo | string {
  if (params["into_view"] === true) return { into_view: true };
  const px = params["to_px"];
  if (typeof px === "number") return Number.isInteger(px) && px >= 0 ? { to_px: px } : `to_px must be a whole non-negative number of pixels, not ${px}`;
  const to = params["to"];
  if (to === "top" || to === "bottom") return { to };
  return `the scroll step says neither to (top|bottom), into_view nor to_px: ${JSON.stringify(params)}`;
}

export const scroll: Handler = async (step, ctx) => {
  const to = scrollRequest(step.action.params);
  if (typeof to === "string") return failed(to);
  const driver = ctx.driver;
  if (!driver.scroll) return errored("this app's driver cannot scroll; Scroll is a web step");
  if ("into_view" in to && step.selectors.length === 0) return failed("scrolling into view needs a target");
  return runAction(step, ctx, () => driver.scroll!(step.selectors, to));
};
