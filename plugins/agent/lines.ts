// One report line for each authored agent step. A delivery (`prompt:` — every one of them is the
// task, delivery 1 — or a `follow_up:`) passed when the conversation went through it; a failure
// of the conversation itself (a divergence, an extra or missing model call, the agent's exit, the
// bound, the upstream) is the line of the delivery it happened in, and the deliveries after it were
// never made. An assertion line says whether it held; one that was not judged is skipped, saying
// why. Pure.
import type { AgentStepLine, AgentStepRef } from "../../src/plugins/api.ts";

export interface ConversationFault {
  readonly status: "failed" | "errored";
  readonly detail: string;
  /** The delivery it happened in: 1 is the task, 2 the first `follow_up:`, … */
  readonly delivery: number;
}

export interface CheckVerdict {
  readonly status: "passed" | "failed" | "errored" | "skipped";
  readonly detail?: string;
}

/** How many deliveries the steps make: the task, then one per `follow_up:`. */
export function deliveryCount(refs: readonly AgentStepRef[]): number {
  return 1 + refs.filter((r) => r.kind === "follow_up").length;
}

/** The lines of an execution: `checks` holds the verdict of each assertion judged, by its index in the execution's checks. */
export function agentLines(refs: readonly AgentStepRef[], fault: ConversationFault | undefined, checks: ReadonlyMap<number, CheckVerdict>): AgentStepLine[] {
  let followUps = 0;
  const faulted = new Set<number>();
  return refs.map((ref): AgentStepLine => {
    if (ref.kind === "check") {
      const verdict = checks.get(ref.check);
      if (verdict) return { intent: ref.intent, status: verdict.status, ...(verdict.detail !== undefined ? { detail: verdict.detail } : {}) };
      return {
        intent: ref.intent,
        status: "skipped",
        detail: fault ? "not judged: the conversation did not complete" : "not judged: an earlier assertion failed",
      };
    }
    const delivery = ref.kind === "prompt" ? 1 : (followUps += 1) + 1;
    if (!fault || delivery < fault.delivery) return { intent: ref.intent, status: "passed" };
    if (delivery > fault.delivery) return { intent: ref.intent, status: "skipped", detail: "not delivered: the conversation failed before it" };
    if (faulted.has(delivery))
      return { intent: ref.intent, status: "skipped", detail: "part of the task the first prompt: line reports (every prompt: is one task)" };
    faulted.add(delivery);
    return { intent: ref.intent, status: fault.status, detail: fault.detail };
  });
}
