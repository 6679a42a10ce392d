// `capture`: Remember an element's text (or how many elements match) as ${captured.<name>}.
// The value lives only in this execution's memory.
import { describeLadder, failed, handlerFor, passed, runAction, stepTimeoutMs } from "./shared.ts";
import { poll } from "../poll.ts";

export const capture = handlerFor(["capture"], async (step, ctx) => {
  const { name, count } = step.action.params;
  if (count === true) {
    const timeoutMs = stepTimeoutMs(step);
    const r = await poll(ctx.clock, timeoutMs, async () => {
      const n = await ctx.driver.count(step.selectors);
      return n > 0 ? { done: true, value: n } : { done: false, retryable: true, last: n };
    });
    if (!r.ok)
      return failed(
        `${describeLadder(step.selectors)} never appeared within ${timeoutMs} ms, and a count of zero is not remembered; to check that none appear, assert \`${describeLadder(step.selectors)} appears 0 times\``,
      );
    ctx.captures.set(name, String(r.value));
    return passed();
  }
  let text = "";
  const outcome = await runAction(step, ctx, async () => {
    const r = await ctx.driver.readText(step.selectors);
    if (r.ok) text = r.value;
    return r.ok ? { ok: true, value: undefined, ...(r.tier ? { tier: r.tier } : {}) } : r;
  });
  if (outcome.status === "passed") ctx.captures.set(name, text);
  return outcome;
});
