// `press_key`: a named key or chord as trusted keyboard input to the focused element.
import type { KeyModifier } from "../../plugins/api.ts";
import type { Handler } from "./shared.ts";
import { failed, runAction } from "./shared.ts";

const MODIFIERS: readonly KeyModifier[] = ["ctrl", "alt", "shift", "meta", "mod"];

export const pressKey: Handler = async (step, ctx) => {
  const key = step.action.params["key"];
  const mods = step.action.params["modifiers"];
  if (typeof key !== "string") return failed("the press_key step has no key");
  const modifiers = (Array.isArray(mods) ? mods : []).filter((m): m is KeyModifier => MODIFIERS.includes(m as KeyModifier));
  return runAction(step, ctx, () => ctx.driver.pressKey(key, modifiers));
};
