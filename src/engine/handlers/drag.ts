// `drag`: press on the source, move with the button held, release on the drop target (the
// trace's `onto` ladder). Both ends must be actionable.
import type { Selector } from "../../plugins/api.ts";
import type { Handler } from "./shared.ts";
import { errored, failed, runAction } from "./shared.ts";

const isSelector = (v: unknown): v is Selector =>
  !!v && typeof v === "object" && typeof (v as Record<string, unknown>)["tier"] === "string" && typeof (v as Record<string, unknown>)["payload"] === "object";

export const drag: Handler = async (step, ctx) => {
  const onto = step.action.params["onto"];
  if (!Array.isArray(onto) || onto.length === 0 || !onto.every(isSelector)) return failed("the drag step has no drop target (`onto` ladder)");
  const driver = ctx.driver;
  if (!driver.drag || !driver.capabilities.has("pointer")) return errored("this app cannot drag; Drag is web only");
  const dragOnce = driver.drag.bind(driver);
  return runAction(step, ctx, () => dragOnce(step.selectors, onto));
};
