// The dialog suffix of a trigger action (`, accepting the "…" dialog`): arms the driver's one-shot
// answer BEFORE the action dispatches, then verifies the declared dialog opened and said what was
// declared. Undeclared dialogs stay the driver's safety net.
import type { DialogOutcome, DialogPlan } from "../../plugins/api.ts";
import type { DialogParam } from "../../trace/schema.ts";
import type { ExecutionContext } from "../context.ts";
import type { StepOutcome } from "./shared.ts";
import { errored, failed } from "./shared.ts";
import { poll } from "../poll.ts";
import { resolveText } from "../templates.ts";

/** How long after the action a declared dialog may take to open (it opens on a later task, e.g. a timer or beforeunload). */
export const DIALOG_GRACE_MS = 2_000;

/** The trace's `dialog` param as the driver's plan; undefined when the step declares none. */
function planOf(d: DialogParam | undefined, ctx: ExecutionContext): DialogPlan | undefined {
  if (d === undefined) return undefined;
  return {
    disposition: d.disposition,
    ...(d.message !== undefined ? { message: d.message } : {}),
    ...(d.reply !== undefined ? { reply: resolveText(d.reply, ctx).value } : {}),
  };
}

/** Runs `act` with the step's declared dialog armed; a pass also requires that dialog to have opened. */
export async function withDialog(dialog: DialogParam | undefined, ctx: ExecutionContext, act: () => Promise<StepOutcome>): Promise<StepOutcome> {
  const plan = planOf(dialog, ctx);
  if (plan === undefined) return act();
  const driver = ctx.driver;
  if (!driver.armDialog || !driver.dialogOutcome || !driver.capabilities.has("dialogs")) {
    return errored("this app has no native dialogs (capability `dialogs`); remove the dialog suffix");
  }
  const outcomeOf = driver.dialogOutcome.bind(driver);
  const kind = plan.reply !== undefined ? "prompt" : "dialog";
  const wanted = `a ${kind}${plan.message !== undefined ? ` containing ${JSON.stringify(plan.message)}` : ""}`;
  driver.armDialog(plan);
  try {
    const outcome = await act();
    if (outcome.status !== "passed") return outcome;
    const r = await poll<DialogOutcome>(ctx.clock, DIALOG_GRACE_MS, async () => {
      const o = outcomeOf();
      return o.opened ? { done: true, value: o } : { done: false, retryable: true, last: o };
    });
    const o = r.value;
    if (!o.opened) return failed(`expected ${wanted} to open, but no dialog opened within ${DIALOG_GRACE_MS} ms of the action`);
    if (plan.reply !== undefined && o.type !== "prompt")
      return failed(`expected a prompt to answer, but ${o.type === "alert" ? "an" : "a"} ${o.type} dialog opened (${JSON.stringify(o.message)})`);
    if (plan.message !== undefined && !o.message.includes(plan.message)) {
      return failed(`expected ${wanted}, but the ${o.type} dialog said ${JSON.stringify(o.message)}; it was dismissed`);
    }
    return outcome;
  } finally {
    driver.armDialog(undefined);
  }
}
